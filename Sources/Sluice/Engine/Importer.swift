/// One import into one database: open it, feed it any number of inputs, then `finish()`.
///
/// The data flow, in order: an input (`Input/`) is read in chunks, parsed into events
/// (`Parsing/`), assembled into records (`Mapping/`), collected into batches and written with
/// find-or-create (`EntityWriter`, over `Store/`). The whole import is one transaction: until
/// `finish()` returns, the database is as it was, and a new database file does not exist.
///
/// ```swift
/// let importer = try Importer(databasePath: "transit.sqlite", model: model)
/// try importer.importFile("stops.json")
/// let report = try importer.finish()
/// ```
///
/// Without a model (`Importer(databasePath:table:)`) the import is zero-config: the records
/// are assembled by `FreeformAssembler` and appended to one table by `FreeformWriter`, through
/// the same input, parser, transaction and report.
public final class Importer {
    /// The model the import follows; nil for a zero-config import.
    public let model: Model?
    /// The options the importer was made with.
    public let options: ImportOptions
    /// Released before the commit: its statements would keep the connection (and a new
    /// database's exclusive lock) open for as long as the importer lives.
    private var target: (any ImportTarget)?
    /// The database, SQLite or PostgreSQL (`ImportStore`).
    let database: any ImportStore
    /// `--rejects`: made before the database is opened, written as records are rejected,
    /// moved into place when the import ends (`RejectsFile`).
    private let rejects: RejectsFile?
    /// Indexes built after the load; nil only before the schema is migrated.
    private var indexes: SecondaryIndexes?
    let modelSHA256: String
    private let startedAt: UnixTime
    private let clock = MonotonicClock()
    private var sources: [String] = []
    /// What was read of each input (`sluice_imports.inputs`).
    private var inputDigests: [InputDigest] = []
    /// The `feed_version` of the input being read, once its `feed_info.txt` was read.
    private var feedVersion: String?
    private var bytes: Int64 = 0
    /// Bytes of the finished inputs as stored (compressed for gzip), for progress.
    private var storedBytes: Int64 = 0
    private var records = 0
    private var replacementCharacters = 0
    private var finished = false
    /// Past the point of no return: a cancellation no longer applies.
    private var committing = false
    /// Where the time went so far, the stage running now and when it began.
    private var phases = ImportReport.Phases()
    private var stage = ImportProgress.Stage.reading
    private var stageStartedAt = 0.0
    /// Reports the stages of `finish()` while it runs; nil without `options.progress`.
    private var finishingProgress: FinishingProgress?

    /// What the inputs showed that may not be what was meant; nil for a zero-config import.
    private var notes: ImportNotes?
    /// Inputs skipped (an archive's entries that are no input, or that nothing maps).
    private var inputNotes: [String] = []
    /// The mapping of an input whose records are all of one entity, at a path inside it
    /// (`importFile(_:entity:path:)`), made as `ImportOptions.entity` and `.path` make the
    /// import's own; nil for a zero-config import.
    private var planForEntity: ((String, String?) throws(SluiceError) -> MappingPlan)?
    /// The input being read is one entity's: its plan and the key path of its records.
    private var inputLocation: (plan: MappingPlan, path: [String])?

    /// Opens (or prepares to create) the database — an SQLite path, or a PostgreSQL URI
    /// (`docs/postgresql.md`) — and brings its schema up to the model.
    /// - Parameters:
    ///   - databasePath: the SQLite database's path (created at the commit when it does not
    ///     exist), or a `postgresql://` or `postgres://` URI.
    ///   - model: the model the records are imported by.
    ///   - options: how the import runs (`ImportOptions`: batch size, error policy, progress…).
    ///   - modelSHA256: recorded in `sluice_imports`; by default the digest of the model
    ///     file's bytes as loaded by `ModelFile`, or empty.
    public convenience init(databasePath: String, model: Model, options: ImportOptions = ImportOptions(),
                            modelSHA256: String = "") throws(SluiceError)
    {
        guard options.layout == .sluice else {
            throw SluiceError(.usage, "the Core Data layout is made from the Core Data model's file: "
                                + "use Importer(databasePath:modelFile:options:)")
        }
        try self.init(name: ImportStores.address(of: databasePath, schema: options.schema), model: model, options: options, modelSHA256: modelSHA256, coreData: nil)
    }

    /// Opens (or prepares to create) the database for an import through the model of
    /// `modelFile`, recording its digest. With `options.layout` `.coreData` the database is the
    /// SQLite store Core Data keeps for that Core Data model (`docs/coredata-store.md#importing`).
    public convenience init(databasePath: String, modelFile: ModelFile, options: ImportOptions = ImportOptions())
        throws(SluiceError)
    {
        try self.init(name: ImportStores.address(of: databasePath, schema: options.schema), modelFile: modelFile, options: options)
    }

    /// The import through `modelFile`'s model into the database `name` names: Core Data's
    /// store when the name says so.
    convenience init(name: StoreAddress, modelFile: ModelFile, options: ImportOptions) throws(SluiceError) {
        // The one place the library knows the model's files: the rejects file must not be one.
        if let rejectsPath = options.rejectsPath {
            try OutputPathCheck.check([.init(option: "the rejects file", path: rejectsPath)], database: name.filePath,
                                      inputs: [], model: modelFile.path)
        }
        var coreData: CoreDataImportLayout?
        if options.layout == .coreData {
            do {
                coreData = try CoreDataImportLayout.load(modelFile: modelFile,
                                                         existingTables: name.filePath.flatMap(ImportStores.tableNames(of:)))
            } catch let error as SluiceError {
                throw error
            } catch let error as ModelError {
                throw SluiceError(error)
            } catch {
                throw SluiceError(.usage, "\(error)")
            }
        }
        try self.init(name: name, model: modelFile.model, options: options, modelSHA256: modelFile.sha256,
                      coreData: coreData)
    }

    convenience init(name: StoreAddress, model: Model, options: ImportOptions, modelSHA256: String,
                     coreData: CoreDataImportLayout?) throws(SluiceError)
    {
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
        if options.removeFeed, let path = name.filePath, SystemCalls.status(ofPath: path) == nil {
            throw SluiceError(.cannotOpenInput, "database '\(path)' does not exist: there is no feed to remove")
        }
        if options.feed != nil, coreData != nil {
            throw SluiceError(.usage, "\(options.optionNames(.feed)) needs Sluice's layout or PostgreSQL: a Core Data store's "
                + "tables have no column for the feed; import each feed into a store of its own")
        }
        // Core Data's store names tables and columns its own way (`ZSTOP`, `ZNAME`).
        var scoped = coreData?.model ?? model
        if let feed = options.feed { scoped = try scoped.scoped(toFeed: feed, names: options.optionNames) }
        let stored = scoped
        let plan: MappingPlan
        do {
            plan = try MappingPlan(model: stored, locations: .init(entity: options.entity, path: options.path.map(JSONKeyPath.init(parsing:)),
                                                                  mapKey: options.mapKey, roots: options.roots,
                                                                  names: options.optionNames),
                                   rawAttributes: HookedSink.rawAttributes(options.hooks),
                                   rawRelationships: HookedSink.rawRelationships(options.hooks, model: stored),
                                   values: coreData?.values ?? name.storeValues)
        } catch {
            throw SluiceError(error)
        }
        // From here on the model's `root` includes `--root`: what an input's records are (a
        // file or zip entry by its name) is read from `Importer.model`.
        let model = stored.addingRoots(options.roots)
        let layout: any TableLayout = coreData ?? DatabaseLayout(model)
        let linkPlans = LinkPlan.plans(model: plan.storageModel, mapping: plan, layout: layout, hooks: !options.hooks.isEmpty)
        try self.init(name: name, model: model, options: options, modelSHA256: modelSHA256,
                      tables: layout.tables,
                      file: coreData?.file) { store, rejects, indexes throws(SluiceError) in
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
            if !options.removeFeed { touched?.onlyMembers = DeleteMissing.candidates(plan: plan, model: model) }
            let writer = BatchWriter(writers: writers, links: links, touched: touched, store: store,
                                     batchSize: options.batchSize, onError: options.onError,
                                     rejects: rejects, cancellation: options.cancellation,
                                     databaseName: name.text)
            return ModelTarget(plan: plan, writer: writer, model: model, options: options, indexes: indexes,
                               capturesRejectedRecords: rejects != nil)
        }
        notes = ImportNotes(plan: plan, model: model, options: options)
        planForEntity = { entity, path throws(SluiceError) in
            do {
                return try MappingPlan(model: stored, locations: .init(entity: entity, path: path.map(JSONKeyPath.init(parsing:)),
                                                                       mapKey: options.mapKey, names: options.optionNames),
                                       rawAttributes: HookedSink.rawAttributes(options.hooks),
                                       rawRelationships: HookedSink.rawRelationships(options.hooks, model: stored),
                                       values: coreData?.values ?? name.storeValues)
            } catch let error as ModelError {
                throw SluiceError(error)
            } catch {
                throw SluiceError(.usage, "\(error)")
            }
        }
    }

    /// Opens (or prepares to create) the database for a zero-config import into `table`
    /// (`docs/cli.md`): one column per key seen, added as new keys appear, nested values as JSON
    /// text, every record appended as a new row. An existing table is appended to.
    ///
    /// `options.path` may name an envelope holding the records; `options.entity` needs a
    /// model and is a usage error here, as is an empty table name, `sluice_imports`, or (in
    /// SQLite) a name beginning with `sqlite_`, which SQLite keeps for itself.
    public convenience init(databasePath: String, table: String, options: ImportOptions = ImportOptions())
        throws(SluiceError)
    {
        try self.init(name: ImportStores.address(of: databasePath, schema: options.schema), table: table, options: options)
    }

    /// The zero-config import into `table` of the database `name` names.
    convenience init(name: StoreAddress, table: String, options: ImportOptions) throws(SluiceError) {
        if let refusal = ImportStores.refusal(ofTable: table, in: name) { throw refusal }
        try options.validate(withModel: false)
        let path = options.path.map { JSONKeyPath(parsing: $0).keys } ?? []
        guard options.layout == .sluice else {
            throw SluiceError(.usage, "the Core Data layout needs a Core Data model: a zero-config import writes Sluice's layout")
        }
        try self.init(name: name, model: nil, options: options, modelSHA256: "",
                      tables: [DatabaseLayout.importsTable], file: nil) { store, rejects, _ throws(SluiceError) in
            FreeformTarget(table: table) { table throws(SluiceError) in
                if let refusal = ImportStores.refusal(ofTable: table, in: name) { throw refusal }
                let writer = try FreeformWriter(table: table, store: store, onError: options.onError, rejects: rejects)
                return (table, writer, FreeformStream(
                    table: table, path: path, mapKey: options.mapKey, numbersAsText: writer.storesNumbersAsText, sink: writer,
                    capturesRejectedRecords: rejects != nil, maxValueBytes: options.maxValueBytes, maxKeys: writer.maxKeysPerTable,
                    columnLimitOwner: writer.columnLimitOwner))
            }
        }
    }

    /// Begins the import's transaction, brings `tables` up to date, then makes the target.
    private init(name: StoreAddress, model: Model?, options: ImportOptions, modelSHA256: String,
                 tables: [TableDefinition], file: LayoutFile?,
                 makeTarget: (any ImportStore, RejectsFile?, SecondaryIndexes) throws(SluiceError) -> any ImportTarget)
        throws(SluiceError)
    {
        self.model = model
        self.options = options
        self.modelSHA256 = modelSHA256
        startedAt = UnixTime.now()
        // The rejects file first: one that would overwrite the database, or cannot be written,
        // stops the import before the database is touched.
        if let rejectsPath = options.rejectsPath {
            try OutputPathCheck.check([.init(option: "the rejects file", path: rejectsPath)],
                                      database: name.filePath, inputs: [])
        }
        rejects = try options.rejectsPath.map { path throws(SluiceError) in try RejectsFile(path: path) }
        do {
            database = try ImportStores.begin(name, file: file, vacuum: options.vacuum)
        } catch {
            rejects?.discard()
            throw error
        }
        do {
            if let cancellation = options.cancellation {
                database.setInterruptCheck { cancellation.isCancelled }
            }
            try checkCancellation()
            database.feed = options.feed
            // Plain indexes of the tables created now are built after the load (`finish()`).
            indexes = try database.migrate(to: tables)
            target = try makeTarget(database, rejects, indexes!)
            stageStartedAt = clock.elapsedSeconds
        } catch {
            // The import never began: the rejects file's path keeps what it held.
            rejects?.discard()
            database.rollback()
            throw interruptedIfCancelled(error)
        }
    }

    deinit {
        cancel()
    }

    /// Imports a file; `-` is standard input. Gzip is detected by its magic bytes.
    public func importFile(_ path: String) throws(SluiceError) {
        if let rejects {
            try OutputPathCheck.check([.init(option: "the rejects file", path: rejects.path)], database: nil, inputs: [path])
        }
        let digest: DigestingSource
        let source: ByteSource
        do {
            digest = DigestingSource(try InputOpener.file(path: path, stopsWhenInterrupted: stopsWhenInterrupted))
            source = try InputOpener.decompressing(digest)
        } catch {
            // Ctrl-C while a FIFO waits for its writer is the interruption, not a bad input.
            guard options.cancellation?.isCancelled == true else { throw error }
            cancel()
            throw interruptedIfCancelled(error)
        }
        try run(source, digest: digest)
    }

    /// Imports standard input.
    public func importStandardInput() throws(SluiceError) {
        let input = FileSource.standardInput()
        input.stopsWhenInterrupted = stopsWhenInterrupted
        try run(digesting: input)
    }

    /// Imports bytes held in memory (a `Data`, an array, any collection of bytes).
    public func importBytes(_ bytes: some Collection<UInt8>, name: String = "<memory>") throws(SluiceError) {
        try run(digesting: MemorySource(bytes, name: name))
    }

    /// Imports a file (`-` is standard input) whose records are all of `entity`, at `path`
    /// inside it (an envelope's key path, `data.items`; nil: the top level), whatever the
    /// model's `root`, `ImportOptions.roots` or `.entity` say of other inputs: the library's
    /// `--root` for one input, as `ImportOptions.entity` and `.path` say it for every input.
    /// An entity the model lacks is the error `ImportOptions.entity` gives; a zero-config
    /// import has no entities (`.usage`).
    public func importFile(_ file: String, entity: String, path: String? = nil) throws(SluiceError) {
        try readingOneEntity(entity, path: path) { () throws(SluiceError) in try importFile(file) }
    }

    /// Imports bytes held in memory whose records are all of `entity`, at `path` inside them,
    /// as `importFile(_:entity:path:)` does.
    public func importBytes(_ bytes: some Collection<UInt8>, name: String = "<memory>", entity: String,
                            path: String? = nil) throws(SluiceError) {
        try readingOneEntity(entity, path: path) { () throws(SluiceError) in try importBytes(bytes, name: name) }
    }

    /// Runs `body` (one input's import) with the input's records mapped to `entity` at `path`.
    private func readingOneEntity(_ entity: String, path: String?, _ body: () throws(SluiceError) -> Void) throws(SluiceError) {
        guard !finished else { throw SluiceError(.usage, "the import is over: finish() or cancel() was called before") }
        do throws(SluiceError) {
            guard let planForEntity else {
                throw SluiceError(.usage, "importFile(_:entity:path:) needs a model: a zero-config import writes one table")
            }
            let plan = try planForEntity(entity, path)
            inputLocation = (plan, path.map { JSONKeyPath(parsing: $0).keys } ?? [])
        } catch {
            cancel()
            throw error
        }
        defer { inputLocation = nil }
        try body()
    }

    /// Imports the bytes of a source the library made (`ChunkChannelSource`); gzip is detected
    /// by its magic bytes.
    func importSource(_ source: ByteSource) throws(SluiceError) {
        try run(digesting: source)
    }

    /// Writes what is left, records the import in `sluice_imports` and commits.
    public func finish() throws(SluiceError) -> ImportReport {
        guard !finished else { throw SluiceError(.usage, "the import is over: finish() or cancel() was called before") }
        if let progress = options.progress {
            finishingProgress = FinishingProgress(
                first: ImportProgress(bytesRead: storedBytes, totalBytes: storedBytes, records: records,
                                      seconds: clock.elapsedSeconds, stage: .finishing),
                clock: clock, report: progress)
        }
        stage = .finishing
        defer {
            finishingProgress?.stop()
            finishingProgress = nil
        }
        do {
            // Not bound to a local: the target is released below, before the commit.
            guard target != nil else { preconditionFailure("no target before finish()") }  // our bug: `finished` is set with it
            let examples = try target!.finish(sources: sources, enter: enter) { stage in finishingProgress?.enter(stage) }
            try checkCancellation()
            var report = makeReport()
            report.unresolvedExamples = examples
            report.notes = notes?.notes(counts: report.entities) ?? []
            report.notes += target!.notes
            report.notes = inputNotes + report.notes
            let log = ImportRecord(
                startedAt: startedAt.iso8601, finishedAt: UnixTime.now().iso8601,
                sources: sources.joined(separator: "\n"), bytes: bytes, records: Int64(records),
                inserted: Int64(report.inserted), updated: Int64(report.updated), unchanged: Int64(report.unchanged),
                rejected: Int64(report.rejected), unresolved: Int64(report.unresolved), modelSHA256: modelSHA256,
                inputs: InputDigest.json(inputDigests), feed: options.feed)
            try database.log(log)
            if options.analyze {
                enter(.analyzing)
                try database.analyze()
            }
            enter(.committing)
            let dropsTables = target!.dropsTablesLeftEmpty
            target = nil
            if dropsTables { try database.dropCreatedTablesLeftEmpty() }
            // The point of no return: from here a cancellation is ignored and the import
            // finishes whole (an interrupted COMMIT or VACUUM would only be confusing).
            try checkCancellation()
            committing = true
            database.setInterruptCheck(nil)
            try database.commit(vacuum: options.vacuum) { enter(.vacuuming) }
            finished = true
            report.notes += database.notes
            try rejects?.place()
            report.seconds = clock.elapsedSeconds
            // Again after the commit: a vacuum may be the run's peak.
            report.peakMemoryBytes = PeakMemory.residentBytes()
            phases.add(report.seconds - stageStartedAt, to: stage)
            report.phases = phases
            return report
        } catch {
            cancel()
            throw interruptedIfCancelled(error)
        }
    }

    /// Begins the next stage of `finish()`: the time since the current one began is added to
    /// its phase, and the progress callback hears of the new one.
    private func enter(_ next: ImportProgress.Stage) {
        let now = clock.elapsedSeconds
        phases.add(now - stageStartedAt, to: stage)
        stage = next
        stageStartedAt = now
        finishingProgress?.enter(next)
    }

    /// Abandons the import: the database is left as it was, a new one is not created. The
    /// rejects file still goes into place: it shows what was rejected before the end.
    public func cancel() {
        guard !finished else { return }
        finished = true
        target?.close()
        target = nil
        database.rollback()
        try? rejects?.place()
    }

    /// Ends an import that wrote nothing (`skipIfUnchanged`): the database is left as it was,
    /// and so is the rejects file's path.
    func abandon() {
        guard !finished else { return }
        finished = true
        target?.close()
        target = nil
        database.rollback()
        rejects?.discard()
    }

    /// Reads `source` as it comes, its bytes digested beneath the decoders (`DigestingSource`).
    private func run(digesting source: ByteSource) throws(SluiceError) {
        let digest = DigestingSource(source)
        try run(InputOpener.decompressing(digest), digest: digest)
    }

    /// Reads `source` (decoded), then records what was read of it (`digest`, its raw bytes).
    private func run(_ source: ByteSource, digest: DigestingSource) throws(SluiceError) {
        guard !finished else { throw SluiceError(.usage, "the import is over: finish() or cancel() was called before") }
        guard !options.removeFeed else {
            throw SluiceError(.usage, "\(options.optionNames(.removeFeed)) reads no input: it removes the feed's rows")
        }
        feedVersion = nil
        if InputOpener.isZip(source) {
            try readArchive(source)
        } else {
            let format = options.format ?? InputFormat.named(source.name) ?? .json
            try read(source, format: format, fileNames: InputNames.fileNames(of: source.name), inArchive: false)
        }
        do {
            let (bytes, sha256) = try digest.finish()
            inputDigests.append(InputDigest(name: source.name, bytes: bytes, sha256: sha256, feedVersion: feedVersion))
        } catch {
            cancel()
            throw error
        }
    }

    /// Reads a zip archive's entries in archive order, each an input of the format its name
    /// says (`InputFormat.named(_:inArchive:)`); folders are passed over, and entries of no
    /// such format, or macOS's metadata (`__MACOSX/`, `._name`), are skipped with a note.
    private func readArchive(_ source: ByteSource) throws(SluiceError) {
        let archive = ZipReader(source: source)
        do throws(SluiceError) {
            while let entry = try archive.nextEntry() {
                try checkCancellation()
                if entry.isDirectory { continue }
                let fileName = entry.path.split(separator: "/").last.map(String.init) ?? entry.path
                let isMetadata = entry.path.hasPrefix("__MACOSX/") || fileName.hasPrefix("._")
                guard !isMetadata, let format = InputFormat.named(entry.path, inArchive: true) else {
                    inputNotes.append("\(entry.name): skipped: "
                        + (isMetadata ? "macOS metadata" : "not CSV (.csv, .txt), TSV (.tsv) or JSON (.json, .ndjson, .jsonl)"))
                    continue
                }
                try target?.selectTable(named: InputNames.stem(of: entry.path))
                try read(InputOpener.decompressing(entry), format: format, fileNames: InputNames.fileNames(of: entry.path),
                         inArchive: true)
                // A reader stopped early (the entry was skipped): its CRC is still checked.
                try entry.drain()
            }
            try target?.selectTable(named: nil)
        } catch {
            var error = error
            if let earlier = target?.close() { error = earlier }
            cancel()
            throw interruptedIfCancelled(error)
        }
    }

    /// Reads one input (a file, standard input, an entry of an archive) of `format` to its
    /// end. The rows of a CSV input go where the model's root names one of `fileNames`; when
    /// nothing names them, an archive's entry is skipped with a note and any other input is a
    /// usage error.
    private func read(_ source: ByteSource, format: InputFormat, fileNames: [String], inArchive: Bool) throws(SluiceError) {
        do throws(SluiceError) {
            guard let target else { preconditionFailure("no target after finish()") }  // our bug: `finished` is set with it
            var recordPath: [String] = []
            if format != .json, let inputLocation {
                recordPath = inputLocation.path
            } else if format != .json {
                guard let path = target.recordPath(forFileNames: fileNames) else {
                    let name = fileNames.first ?? source.name
                    if inArchive {
                        let how = Model.RootOverride(key: name, entity: "").hasValidKey
                            ? "map it with --root \(name)=ENTITY or in the root" : UnknownCSV.unnamable
                        inputNotes.append("\(source.name): skipped: the model's root names no entity for '\(name)' (\(how))")
                        return
                    }
                    let names = options.optionNames
                    let how = "map it with \(names == .commandLine ? "--root \(name)=ENTITY" : "ImportOptions.roots (\(name)=ENTITY)"), "
                        + "the model's root (\"\(name)\": \"ENTITY\") or \(names(.entity))"
                    throw SluiceError(.usage, "\(source.name): the model's root names no entity for '\(name)': \(how)")
                }
                recordPath = path
            } else if options.entity == nil, inputLocation == nil, case .paths(let paths)? = model?.root,
                      let match = paths.first(where: { root in fileNames.contains { $0.contains(".") && $0 == root.path.description } }) {
                // A JSON input the root names by its file name (`"trips.json": "Trip"`): its values
                // are that entity's records. (Its name without the extension does not count: a
                // root key `trips` is the key of an envelope inside a JSON input.)
                recordPath = match.path.keys
            }
            sources.append(source.name)
            let stream = try target.stream(for: source.name, input: sources.count - 1, plan: inputLocation?.plan)
            let recordsBefore = stream.recordCount
            var json: JSONParser?
            var csv: CSVReader?
            var tap: FeedVersionTap?
            var jsonHandler: (any EventHandler)?
            // A JSON input under a file name's root entry: one array is the records, else each
            // value is one (NDJSON); the first byte that is not whitespace tells.
            var envelope: (opened: Bool, array: Bool) = (recordPath.isEmpty || format != .json, true)
            if format == .json {
                var parserOptions = JSONParser.Options()
                parserOptions.maxValueBytes = options.maxValueBytes
                parserOptions.invalidText = options.invalidText
                let rows = tabularRows(around: stream)
                let handler: any EventHandler = rows ?? stream
                let parser = JSONParser(sourceName: source.name, handler: handler, options: parserOptions)
                stream.parser = parser
                rows?.parser = parser
                json = parser
                jsonHandler = handler
            } else {
                // A feed's `feed_info.txt`: its version is recorded with the input (`InputDigest`).
                tap = FeedVersionTap.wanted(for: fileNames) ? FeedVersionTap(inner: stream) : nil
                let reader = CSVReader(sourceName: source.name, handler: tap ?? stream, options: .init(
                    separator: format.separator, maxValueBytes: options.maxValueBytes, invalidText: options.invalidText))
                stream.parser = reader
                csv = reader
                try Envelope.open(recordPath, in: stream)
            }
            // Each chunk's JSON text is scanned (`ChunkScanner`) on the thread that reads it.
            var scanner = ChunkScanner()
            let reader = ReadAhead(source: source, chunkSize: options.chunkSize) { chunk in
                format == .json ? scanner.scan(chunk) : ChunkScan()
            }
            // The first bytes, for the notes on an input whose records were not found.
            var head: [UInt8] = []
            while let chunk = try reader.next() {
                try checkCancellation()
                if head.count < InputShape.headLimit, notes != nil, json != nil {
                    head += chunk.bytes.prefix(InputShape.headLimit - head.count)
                }
                if !envelope.opened, let first = chunk.bytes.first(where: { !JSONParser.isWhitespace($0) }) {
                    envelope = (true, first != UInt8(ascii: "["))
                    try Envelope.open(recordPath, in: jsonHandler!, array: envelope.array)
                }
                if let json { try json.parse(chunk.bytes, scan: chunk.prepared) } else { try csv!.parse(chunk.bytes) }
                if let progress = options.progress {
                    progress(ImportProgress(bytesRead: storedBytes + reader.storedBytesRead,
                                            totalBytes: source.storedSize.map { storedBytes + $0 },
                                            records: records + stream.recordCount - recordsBefore,
                                            seconds: clock.elapsedSeconds))
                }
            }
            try checkCancellation()
            if let json {
                if !envelope.opened { try Envelope.open(recordPath, in: jsonHandler!) }
                try json.finish()
                try Envelope.close(recordPath, in: jsonHandler!, array: envelope.array)
            } else {
                try csv!.finish()
                inputNotes += Self.paddingNotes(csv!, input: source.name)
                if let version = tap?.version { feedVersion = version }
                try Envelope.close(recordPath, in: stream)
            }
            bytes += reader.bytesRead
            storedBytes += reader.storedBytesRead
            records += stream.recordCount - recordsBefore
            if let stream = stream as? RecordStream {
                stream.withAssembler { assembler in
                    notes?.input(named: source.name, records: stream.recordCount - recordsBefore,
                                 keys: assembler.keys, head: json != nil ? head : nil)
                }
            }
            replacementCharacters += json?.replacementCharacters ?? csv?.replacementCharacters ?? 0
        } catch {
            // A batch being written failed before the parser got this far: that comes first.
            var error = error
            if let earlier = target?.close() { error = earlier }
            cancel()
            throw interruptedIfCancelled(error)
        }
    }

    /// What a CSV input's reader dropped as padding, one note each (`docs/import-semantics.md#csv`).
    private static func paddingNotes(_ csv: CSVReader, input: String) -> [String] {
        var notes: [String] = []
        if csv.paddedNames > 0 {
            let names = csv.paddedNames == 1 ? "1 header name" : "\(csv.paddedNames) header names"
            notes.append("\(input): \(names) had spaces or tabs around \(csv.paddedNames == 1 ? "it" : "them"); dropped")
        }
        if csv.blanksAfterQuotes > 0 {
            let fields = csv.blanksAfterQuotes == 1 ? "1 quoted field" : "\(csv.blanksAfterQuotes) quoted fields"
            notes.append("\(input): \(fields) had spaces or tabs after \(csv.blanksAfterQuotes == 1 ? "its" : "their") closing quote; dropped")
        }
        return notes
    }

    /// The translator of a tabular input's rows into records (`--header`, or the model's
    /// `root` table when `--entity` does not override it); nil for any other input.
    private func tabularRows(around stream: any RecordEventHandler) -> TabularRows? {
        let path = options.path.map { JSONKeyPath(parsing: $0).keys } ?? []
        if let header = options.header { return TabularRows(inner: stream, path: path, header: header) }
        guard options.entity == nil, inputLocation == nil, let table = target?.rootTable else { return nil }
        return TabularRows(inner: stream, path: table.path.keys, header: table.header)
    }

    /// Lets a read blocked on an idle input give up once the import is cancelled.
    private var stopsWhenInterrupted: (@Sendable () -> Bool)? {
        guard let cancellation = options.cancellation else { return nil }
        return { cancellation.isCancelled }
    }

    private func checkCancellation() throws(SluiceError) {
        if options.cancellation?.isCancelled == true { throw .interrupted(database: database.displayName) }
    }

    /// Once cancelled, whatever failed is reported as the interruption: on Ctrl-C the input's
    /// producer dies too, so the input may end early or a statement stop half-way, and that
    /// is not the user's data's fault.
    /// A record named by its input's index (a row the database refused) gets the input's name.
    private func interruptedIfCancelled(_ error: SluiceError) -> SluiceError {
        if options.cancellation?.isCancelled == true && !committing { return .interrupted(database: database.displayName) }
        guard error.source == nil, let input = error.input, sources.indices.contains(input) else { return error }
        var named = error
        named.source = sources[input]
        return named
    }

    private func makeReport() -> ImportReport {
        var report = ImportReport(entities: target?.counts ?? [], sources: sources, bytes: bytes, records: records,
                                  seconds: clock.elapsedSeconds, peakMemoryBytes: PeakMemory.residentBytes())
        report.replacementCharacters = replacementCharacters
        return report
    }
}
