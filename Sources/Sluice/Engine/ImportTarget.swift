/// Where an import's records go (`Importer`): the model's entities through the batch writer
/// (`ModelTarget`), or one zero-config table (`FreeformTarget`). The importer reads inputs,
/// reports progress and commits; what differs between the two is here, behind these calls.
protocol ImportTarget: AnyObject {
    /// The handler of the next input's events; `source` names it, `input` numbers it.
    /// `plan`: the mapping of an input whose records are one entity's (`Importer.importFile(_:entity:path:)`),
    /// nil for the import's own.
    func stream(for source: String, input: Int, plan: MappingPlan?) throws(SluiceError) -> any RecordEventHandler
    /// The model's `root` table of rows, read when `--entity` does not override it; nil for
    /// records that are objects.
    var rootTable: (path: JSONKeyPath, header: TabularHeader)? { get }
    /// Where the rows of a CSV input stand among the record locations: the key path of the
    /// `root` entry that names the file (`"stops.txt": "Stop"`, tried with each of `fileNames`
    /// in turn), or the top level when `--entity` or a root of one entity says what the records
    /// are. Nil when nothing says which entity its rows are.
    func recordPath(forFileNames fileNames: [String]) -> [String]?
    /// Zero-config: the table the next inputs go to (an entry of a zip archive, by its file
    /// name), or nil for the import's own; a model's entities say where records go instead.
    func selectTable(named name: String?) throws(SluiceError)
    /// Writes what is left after the last input: the last batch, the second pass, the deferred
    /// indexes, `--delete-missing`. `enter` begins a stage of `finish()`; `update` reports
    /// progress within it. Returns the first unresolved references, described for the report.
    func finish(sources: [String], enter: (ImportProgress.Stage) -> Void, update: (ImportProgress.Stage) -> Void)
        throws(SluiceError) -> [String]
    /// What each entity (or the one table) counted so far.
    var counts: [ImportReport.EntityCounts] { get }
    /// The target's own notes for the report.
    var notes: [String] { get }
    /// Whether the tables the import created and left empty are dropped again (a model's).
    var dropsTablesLeftEmpty: Bool { get }
    /// Stops writing (the batch writer's thread); returns the error of a batch that failed
    /// before, which comes before any later one.
    @discardableResult
    func close() -> SluiceError?
}

/// The model's entities: records are assembled by the mapping plan and written in batches by
/// `BatchWriter` (behind `HookedSink` when there are hooks).
final class ModelTarget: ImportTarget {
    let plan: MappingPlan
    let writer: BatchWriter
    let hooked: HookedSink?
    private let options: ImportOptions
    private let indexes: SecondaryIndexes
    private let capturesRejectedRecords: Bool
    private let root: Model.Root?
    /// The key path of each root entry by its text (`"stops.txt"`, the first entry of a text):
    /// an input's rows are found in one lookup per name, however many entries (files) there are.
    private let rootPaths: [String: [String]]
    /// `plan`'s event plan, made once for all the inputs (each an entry of an archive, maybe thousands).
    private lazy var eventPlan = EventPlan.Storage(plan)

    init(plan: MappingPlan, writer: BatchWriter, model: Model, options: ImportOptions, indexes: SecondaryIndexes,
         capturesRejectedRecords: Bool) {
        self.plan = plan
        root = model.root
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
    }

    func stream(for source: String, input: Int, plan inputPlan: MappingPlan?) -> any RecordEventHandler {
        writer.input = input
        hooked?.source = source
        return RecordStream(plan: inputPlan ?? plan, eventPlan: inputPlan == nil ? eventPlan : nil, sink: hooked ?? writer,
                            maxValueBytes: options.maxValueBytes,
                            capturesRejectedRecords: capturesRejectedRecords, fastPaths: options.fastPaths)
    }

    var rootTable: (path: JSONKeyPath, header: TabularHeader)? { plan.table }

    func selectTable(named _: String?) {}

    func recordPath(forFileNames fileNames: [String]) -> [String]? {
        if options.entity != nil { return options.path.map { JSONKeyPath(parsing: $0).keys } ?? [] }
        switch root {
        case .paths?:
            for name in fileNames {
                if let keys = rootPaths[name] { return keys }
            }
            return nil
        case .entity?, nil:
            // The plan was built: a model without a root has one entity.
            return []
        }
    }

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
        let pending = writer.pendingLinks
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
    var notes: [String] { [] }
    var dropsTablesLeftEmpty: Bool { true }

    func close() -> SluiceError? { writer.close() }
}

/// One zero-config table (`docs/cli.md`): one stream for all the inputs, so a key is the same
/// column in every file.
final class FreeformTarget: ImportTarget {
    typealias Table = (name: String, writer: FreeformWriter, stream: FreeformStream)
    /// The import's table, then one per entry of a zip archive (`selectTable`), each made when
    /// its first input comes: an import of archives alone makes no table of its own.
    private var tables: [Table] = []
    /// Each table's index in `tables` by its name in lowercase.
    private var tableIndex: [String: Int] = [:]
    private let table: String
    private var selected: String
    private let makeTable: (String) throws(SluiceError) -> Table

    init(table: String, makeTable: @escaping (String) throws(SluiceError) -> Table) {
        self.table = table
        selected = table
        self.makeTable = makeTable
    }

    func stream(for source: String, input _: Int, plan _: MappingPlan?) throws(SluiceError) -> any RecordEventHandler {
        let current: Table
        // Names that differ only in case are one table, as they are in the database.
        if let found = tableIndex[selected.lowercased()] {
            current = tables[found]
        } else {
            current = try makeTable(selected)
            tableIndex[selected.lowercased()] = tables.count
            tables.append(current)
        }
        current.writer.source = source
        return current.stream
    }

    /// An entry of a zip archive goes to a table of its own, named after its file (`stops.txt`
    /// → `stops`); nil is the import's own table again.
    func selectTable(named name: String?) {
        selected = name ?? table
    }

    var rootTable: (path: JSONKeyPath, header: TabularHeader)? { nil }

    /// Every row is a record of the one table.
    func recordPath(forFileNames _: [String]) -> [String]? { [] }

    func finish(sources _: [String], enter _: (ImportProgress.Stage) -> Void, update _: (ImportProgress.Stage) -> Void)
        throws(SluiceError) -> [String]
    {
        for table in tables { try table.writer.finish() }
        return []
    }

    var counts: [ImportReport.EntityCounts] { tables.map(\.writer.counts) }
    var notes: [String] { tables.flatMap(\.writer.notes) }
    var dropsTablesLeftEmpty: Bool { false }

    func close() -> SluiceError? { nil }
}
