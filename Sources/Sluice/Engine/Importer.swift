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
    let modelSHA256: String
    /// Where the time goes, stage by stage.
    private var timing = ImportTiming()
    /// Reads the inputs, and keeps what was read of them.
    private let reader: InputReader
    private var finished = false
    /// Past the point of no return: a cancellation no longer applies.
    private var committing = false

    /// Begins the import's transaction, brings `tables` up to date, then makes the target
    /// (`Importer+Opening.swift`: through a model, or zero-config).
    init(name: StoreAddress, model: Model?, options: ImportOptions, modelSHA256: String, tables: [TableDefinition],
         file: LayoutFile?, makeTarget: (any ImportStore, RejectsFile?, SecondaryIndexes) throws(SluiceError) -> any ImportTarget)
        throws(SluiceError)
    {
        self.model = model
        self.options = options
        self.modelSHA256 = modelSHA256
        // The rejects file first: one that would overwrite the database, or cannot be written,
        // stops the import before the database is touched.
        rejects = try RejectsFile.open(options.rejectsPath, database: name.filePath)
        do {
            database = try ImportStores.begin(name, file: file, vacuum: options.vacuum)
        } catch {
            rejects?.discard()
            throw error
        }
        reader = InputReader(options: options, clock: timing.clock, databaseName: database.displayName)
        do {
            if let cancellation = options.cancellation {
                database.setInterruptCheck { cancellation.isCancelled }
            }
            try reader.checkCancellation()
            database.feed = options.feed
            // Plain indexes of the tables created now are built after the load (`finish()`).
            target = try makeTarget(database, rejects, try database.migrate(to: tables))
            timing.beginReading()
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
        if let rejects { try RejectsFile.check(rejects.path, database: nil, inputs: [path]) }
        let input: InputReader.Input
        do {
            input = try InputReader.file(path, stopsWhenInterrupted: stopsWhenInterrupted)
        } catch {
            // Ctrl-C while a FIFO waits for its writer is the interruption, not a bad input.
            guard options.cancellation?.isCancelled == true else { throw error }
            cancel()
            throw interruptedIfCancelled(error)
        }
        try run(input)
    }

    /// Imports standard input.
    public func importStandardInput() throws(SluiceError) {
        try run(InputReader.standardInput(stopsWhenInterrupted: stopsWhenInterrupted))
    }

    /// Imports bytes held in memory (a `Data`, an array, any collection of bytes).
    public func importBytes(_ bytes: some Collection<UInt8>, name: String = "<memory>") throws(SluiceError) {
        try run(InputReader.bytes(bytes, name: name))
    }

    /// Runs `body` (one input's import) with the input's records mapped to `entity` at `path`.
    func readingOneEntity(_ entity: String, path: String?, _ body: () throws(SluiceError) -> Void) throws(SluiceError) {
        guard !finished else { throw SluiceError(.usage, "the import is over: finish() or cancel() was called before") }
        do throws(SluiceError) {
            guard let target else { preconditionFailure("no target after finish()") }  // our bug: `finished` is set with it
            reader.oneEntity = try target.plan(forEntity: entity, path: path)
        } catch {
            cancel()
            throw error
        }
        defer { reader.oneEntity = nil }
        try body()
    }

    /// Writes what is left, records the import in `sluice_imports` and commits.
    public func finish() throws(SluiceError) -> ImportReport {
        guard !finished else { throw SluiceError(.usage, "the import is over: finish() or cancel() was called before") }
        timing.beginFinishing(progress: options.progress, bytes: reader.storedBytes, records: reader.records)
        defer { timing.endFinishing() }
        do {
            // Not bound to a local: the target is released below, before the commit.
            guard target != nil else { preconditionFailure("no target before finish()") }  // our bug: `finished` is set with it
            let examples = try target!.finish(sources: reader.sources, enter: { timing.enter($0) }) { timing.update($0) }
            try reader.checkCancellation()
            var report = makeReport()
            report.unresolvedExamples = examples
            report.notes = reader.notes + target!.notes
            try database.log(reader.record(of: report, startedAt: timing.startedAt, modelSHA256: modelSHA256, feed: options.feed))
            if options.analyze {
                timing.enter(.analyzing)
                try database.analyze()
            }
            timing.enter(.committing)
            let dropsTables = target!.dropsTablesLeftEmpty
            target = nil
            if dropsTables { try database.dropCreatedTablesLeftEmpty() }
            // The point of no return: from here a cancellation is ignored and the import
            // finishes whole (an interrupted COMMIT or VACUUM would only be confusing).
            try reader.checkCancellation()
            committing = true
            database.setInterruptCheck(nil)
            try database.commit(vacuum: options.vacuum) { timing.enter(.vacuuming) }
            finished = true
            report.notes += database.notes
            try rejects?.place()
            timing.complete(&report)
            return report
        } catch {
            cancel()
            throw interruptedIfCancelled(error)
        }
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

    /// Reads `input`, then records what was read of it.
    func run(_ input: InputReader.Input) throws(SluiceError) {
        guard !finished else { throw SluiceError(.usage, "the import is over: finish() or cancel() was called before") }
        guard !options.removeFeed else {
            throw SluiceError(.usage, "\(options.optionNames(.removeFeed)) reads no input: it removes the feed's rows")
        }
        do throws(SluiceError) {
            guard let target else { preconditionFailure("no target after finish()") }  // our bug: `finished` is set with it
            try reader.read(input.source, into: target)
        } catch {
            // A batch being written failed before the parser got this far: that comes first.
            var error = error
            if let earlier = target?.close() { error = earlier }
            cancel()
            throw interruptedIfCancelled(error)
        }
        do {
            try reader.finishInput(input)
        } catch {
            cancel()
            throw error
        }
    }

    /// Lets a read blocked on an idle input give up once the import is cancelled.
    private var stopsWhenInterrupted: (@Sendable () -> Bool)? {
        guard let cancellation = options.cancellation else { return nil }
        return { cancellation.isCancelled }
    }

    /// Once cancelled, whatever failed is reported as the interruption: on Ctrl-C the input's
    /// producer dies too, so the input may end early or a statement stop half-way, and that
    /// is not the user's data's fault.
    /// A record named by its input's index (a row the database refused) gets the input's name.
    private func interruptedIfCancelled(_ error: SluiceError) -> SluiceError {
        if options.cancellation?.isCancelled == true && !committing { return .interrupted(database: database.displayName) }
        guard error.source == nil, let input = error.input, reader.sources.indices.contains(input) else { return error }
        var named = error
        named.source = reader.sources[input]
        return named
    }

    /// The report as the inputs and the target left it; its time and memory come last
    /// (`ImportTiming.complete`).
    private func makeReport() -> ImportReport {
        var report = ImportReport(entities: target?.counts ?? [], sources: reader.sources, bytes: reader.bytes,
                                  records: reader.records, seconds: timing.elapsedSeconds, peakMemoryBytes: 0)
        report.replacementCharacters = reader.replacementCharacters
        return report
    }
}
