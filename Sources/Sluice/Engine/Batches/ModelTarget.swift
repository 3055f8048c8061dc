/// The model's entities: records are assembled by the mapping plan and written in batches by
/// `BatchWriter` (behind `HookedSink` when there are hooks). Made in two steps around the
/// database's opening: `Blueprint` compiles the model (before: its tables are migrated), `open`
/// makes the writers over the open store.
final class ModelTarget: ImportTarget {
    /// The model compiled for the import, before the database is opened.
    struct Blueprint {
        /// The mapping of the import's own inputs.
        let plan: MappingPlan
        /// The model as the inputs are read by it: the store's names (`ZSTOP` in a Core Data
        /// store), scoped to `--feed`, with `--root` in its `root`.
        let model: Model
        /// `model` before `--root`: an input of one entity is mapped from it.
        let stored: Model
        /// The tables, as the store lays them out.
        let layout: any TableLayout
        let linkPlans: [[LinkPlan]]

        /// Checks, then compiles, `model` for an import with `options` into a store that keeps
        /// values as `values` says; `coreData`: Core Data's store, whose names and values are its
        /// own. `databaseFile`: the SQLite file, which `--remove` needs to exist.
        init(model: Model, options: ImportOptions, coreData: CoreDataImportLayout?, values: StoreValues,
             databaseFile: String?) throws(SluiceError) {
            try options.validate(withModel: true)
            do {
                try model.validate()
            } catch {
                throw SluiceError(error)
            }
            try HookedSink.validate(options.hooks, model: model)
            if let coreData, !coreData.problems.isEmpty {
                throw SluiceError(loading: ModelError(source: coreData.sourceName, problems: coreData.problems))
            }
            // Removing a feed from a database that is not there would make it, empty.
            if options.removeFeed, let path = databaseFile, SystemCalls.status(ofPath: path) == nil {
                throw SluiceError(.cannotOpenInput, "database '\(path)' does not exist: there is no feed to remove")
            }
            if options.feed != nil, coreData != nil {
                throw SluiceError(.usage, "\(options.optionNames(.feed)) needs Sluice's layout or PostgreSQL: a Core Data store's "
                    + "tables have no column for the feed; import each feed into a store of its own")
            }
            // Core Data's store names tables and columns its own way (`ZSTOP`, `ZNAME`).
            var scoped = coreData?.model ?? model
            if let feed = options.feed { scoped = try scoped.scoped(toFeed: feed, names: options.optionNames) }
            stored = scoped
            plan = try Self.plan(stored, entity: options.entity, path: options.path, roots: options.roots, options: options,
                                 values: values)
            // From here on the model's `root` includes `--root`: what an input's records are (a
            // file or zip entry by its name) is read from it.
            self.model = stored.addingRoots(options.roots)
            layout = coreData ?? DatabaseLayout(self.model)
            linkPlans = LinkPlan.plans(model: plan.storageModel, mapping: plan, layout: layout, hooks: !options.hooks.isEmpty)
        }

        /// The layout of Core Data's store for `modelFile`'s Core Data model, over the tables
        /// the store has (`existingTables`, nil when it is new).
        static func coreDataLayout(_ modelFile: ModelFile, existingTables: Set<String>?) throws(SluiceError) -> CoreDataImportLayout {
            do {
                return try CoreDataImportLayout.load(modelFile: modelFile, existingTables: existingTables)
            } catch let error as SluiceError {
                throw error
            } catch let error as ModelError {
                throw SluiceError(error)
            } catch {
                throw SluiceError(.usage, "\(error)")
            }
        }

        /// The mapping of `model`'s records at `entity` and `path` (`--entity`, `--path`), or
        /// where the model's `root` and `roots` say.
        static func plan(_ model: Model, entity: String?, path: String?, roots: [Model.RootOverride] = [],
                         options: ImportOptions, values: StoreValues) throws(SluiceError) -> MappingPlan {
            do {
                return try MappingPlan(model: model, locations: .init(entity: entity, path: path.map(JSONKeyPath.init(parsing:)),
                                                                      mapKey: options.mapKey, roots: roots, names: options.optionNames),
                                       rawAttributes: HookedSink.rawAttributes(options.hooks),
                                       rawRelationships: HookedSink.rawRelationships(options.hooks, model: model),
                                       values: values)
            } catch {
                throw SluiceError(error)
            }
        }
    }

    let plan: MappingPlan
    let writer: BatchWriter
    let hooked: HookedSink?
    private let options: ImportOptions
    private let indexes: SecondaryIndexes
    private let capturesRejectedRecords: Bool
    private let root: Model.Root?
    /// The model before `--root`, for the plans of inputs of one entity.
    private let stored: Model
    /// The key path of each root entry by its text (`"stops.txt"`, the first entry of a text):
    /// an input's rows are found in one lookup per name, however many entries (files) there are.
    private let rootPaths: [String: [String]]
    /// `plan`'s event plan, made once for all the inputs (each an entry of an archive, maybe thousands).
    private lazy var eventPlan = EventPlan.Storage(plan)
    /// What the inputs showed that may not be what was meant.
    private var importNotes: ImportNotes

    /// The target of `blueprint` over `store`, whose tables are migrated: an `EntityWriter` per
    /// entity, the `LinkWriter`, `--delete-missing`'s rows, the `BatchWriter` over them.
    /// `databaseName` names the database in errors.
    static func open(_ blueprint: Blueprint, store: any ImportStore, options: ImportOptions, rejects: RejectsFile?,
                     indexes: SecondaryIndexes, databaseName: String) throws(SluiceError) -> ModelTarget {
        let plan = blueprint.plan, linkPlans = blueprint.linkPlans
        var writers: [EntityWriter] = []
        let entitiesPerTable = Dictionary(plan.entities.map { ($0.table, 1) }, uniquingKeysWith: +)
        // Tables whose rows a link looks up by id (nested records link by the rows they got).
        let linkedTables = Set(linkPlans.joined().filter { $0.relatedByColumn != nil }.map(\.targetTable))
        for (index, entity) in plan.entities.enumerated() {
            writers.append(try EntityWriter(plan: entity, entity: index, toOneColumns: LinkPlan.toOneColumns(linkPlans[index]),
                                            replacesLists: linkPlans[index].map { $0.merge == .replace },
                                            sharesTable: entitiesPerTable[entity.table, default: 0] > 1,
                                            lookedInto: linkedTables.contains(entity.table), indexes: indexes, store: store,
                                            fastPaths: options.fastPaths))
        }
        let links = LinkWriter(plans: linkPlans, links: store.links, pending: store.pendingLinks(), indexes: indexes,
                               fastPaths: options.fastPaths)
        // Removing a feed deletes every row of it: of every table, none mentioned.
        let touched = options.removeFeed ? try store.touchedRows(entities: Set(plan.entities.indices))
            : options.deleteMissing ? try store.touchedRows(entities: Set(plan.rootEntities.filter { !plan.entities[$0].identity.isEmpty }))
            : nil
        if !options.removeFeed { touched?.onlyMembers = DeleteMissing.candidates(plan: plan, model: blueprint.model) }
        let writer = BatchWriter(writers: writers, links: links, touched: touched, store: store,
                                 batchSize: options.batchSize, onError: options.onError,
                                 rejects: rejects, cancellation: options.cancellation,
                                 databaseName: databaseName)
        return ModelTarget(blueprint, writer: writer, options: options, indexes: indexes, capturesRejectedRecords: rejects != nil)
    }

    private init(_ blueprint: Blueprint, writer: BatchWriter, options: ImportOptions, indexes: SecondaryIndexes,
                 capturesRejectedRecords: Bool) {
        plan = blueprint.plan
        let model = blueprint.model
        root = model.root
        stored = blueprint.stored
        var rootPaths: [String: [String]] = [:]
        if case .paths(let paths)? = model.root {
            for entry in paths where rootPaths[entry.path.description] == nil { rootPaths[entry.path.description] = entry.path.keys }
        }
        self.rootPaths = rootPaths
        self.writer = writer
        hooked = options.hooks.isEmpty ? nil : HookedSink(writer: writer, model: model, hooks: options.hooks, values: plan.storeValues)
        self.options = options
        self.indexes = indexes
        self.capturesRejectedRecords = capturesRejectedRecords
        importNotes = ImportNotes(plan: plan, model: model, options: options)
    }

    /// The one place an input's records are given their place: by `--entity` (or
    /// `importFile(_:entity:path:)`), else by the root entry its names name, else the model's
    /// top level. A CSV input's rows stand where the records of that entry's key path do (the
    /// top level when the path is empty); a JSON input named by a root entry (`"trips.json":
    /// "Trip"`, a name with its extension: `trips` is a key inside a JSON input) holds its
    /// values at that entry's location.
    func route(forInput fileNames: [String], format: InputFormat, oneEntity: (plan: MappingPlan, path: [String])?) -> InputRoute? {
        // The import's own plan from its top, through the root's table of rows if it has one.
        let own = InputRoute(table: plan.table.map { ($0.path.keys, $0.header) })
        let path: [String]
        if let oneEntity {
            if format == .json { return InputRoute(plan: oneEntity.plan) }
            path = oneEntity.path
        } else if options.entity != nil {
            if format == .json { return own }
            path = options.path.map { JSONKeyPath(parsing: $0).keys } ?? []
        } else if case .paths? = root {
            let named = fileNames.lazy.filter { format != .json || $0.contains(".") }.compactMap { self.rootPaths[$0] }.first
            guard let named else { return format == .json ? own : nil }
            path = named
        } else {
            if format == .json { return own }
            path = []
        }
        let routed = oneEntity?.plan ?? plan
        guard !path.isEmpty else { return InputRoute(plan: oneEntity?.plan) }
        guard let node = routed.location(at: path) else { return nil }
        guard format == .json else { return InputRoute(plan: oneEntity?.plan, start: .rows(node)) }
        // The root's table of rows, when it is this file's entry.
        let table = plan.table.flatMap { $0.path.keys == path ? ([String](), $0.header) : nil }
        return InputRoute(start: .location(node), table: table)
    }

    func stream(for source: String, input: Int, route: InputRoute) -> any RecordEventHandler {
        writer.input = input
        hooked?.source = source
        return RecordStream(plan: route.plan ?? plan, eventPlan: route.plan == nil ? eventPlan : nil, start: route.start,
                            sink: hooked ?? writer, maxValueBytes: options.maxValueBytes,
                            capturesRejectedRecords: capturesRejectedRecords, fastPaths: options.fastPaths)
    }

    func plan(forEntity entity: String, path: String?) throws(SluiceError) -> (plan: MappingPlan, path: [String]) {
        (try Blueprint.plan(stored, entity: entity, path: path, options: options, values: plan.storeValues),
         path.map { JSONKeyPath(parsing: $0).keys } ?? [])
    }

    func inputEnded(_ name: String, stream: any RecordEventHandler, records: Int, head: [UInt8]?) {
        guard let stream = stream as? RecordStream else { return }
        stream.withAssembler { assembler in importNotes.input(named: name, records: records, keys: assembler.keys, head: head) }
    }

    func selectTable(named _: String?) {}

    func finish(sources: [String], enter: (ImportProgress.Stage) -> Void, update: (ImportProgress.Stage) -> Void)
        throws(SluiceError) -> [String]
    {
        if let hooked { try hooked.finish() } else { try writer.finish() }
        let examples = try linkPending(sources: sources, enter: enter, update: update)
        try indexes.createAll { name in enter(.indexing(name: name)) }
        if let touched = writer.touched {
            let tables = writer.plans.map(\.table)
            let deleted = try touched.deleteUntouched(plans: writer.linkPlans, tables: tables) { entity in
                enter(.deleting(entity: writer.plans[entity].name))
            }
            for (entity, count) in deleted {
                writer.updateCounts(of: entity) { $0.deleted += count }
            }
        }
        return examples
    }

    /// The second pass: links every reference that waited for a later record, then applies
    /// each relationship's `unresolved` policy (or `--unresolved`). Returns the first
    /// unresolved references, described for the report.
    ///
    /// A pass may link several relationships at once (the store's `passes`: on SQLite, the
    /// to-ones of one entity); its stage and phase are named by all of them, `A.x, A.y`.
    private func linkPending(sources: [String], enter: (ImportProgress.Stage) -> Void,
                             update: (ImportProgress.Stage) -> Void) throws(SluiceError) -> [String] {
        var pending = writer.pendingLinks
        guard !pending.isEmpty else { return [] }
        var examples: [String] = []
        let unresolved = options.unresolved
        for pass in pending.passes(Array(writer.linkPlans.joined())) {
            let total = pending.waiting(pass: pass)
            guard total > 0 else { continue }
            let name = pass.map(\.name).joined(separator: ", ")
            enter(.linking(relationship: name, done: 0, total: total))
            let outcomes = try pending.resolve(pass, policy: { unresolved ?? $0.unresolved }, sources: sources) { done in
                update(.linking(relationship: name, done: done, total: total))
            }
            for (plan, outcome) in zip(pass, outcomes) {
                writer.updateCounts(of: plan.source) {
                    $0.links += outcome.linked
                    $0.unresolved += outcome.unresolved
                }
                writer.updateCounts(of: plan.target) { $0.inserted += outcome.stubs }
                for example in outcome.examples where examples.count < 5 {
                    examples.append("\(example.relationship) \(example.key) at \(example.source):\(example.position)")
                }
            }
        }
        return examples
    }

    var counts: [ImportReport.EntityCounts] { writer.counts }
    var notes: [String] { importNotes.notes(counts: counts) }
    var dropsTablesLeftEmpty: Bool { true }

    func close() -> SluiceError? { writer.close() }
}
