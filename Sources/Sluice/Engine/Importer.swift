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
    private let startedAt: UnixTime
    private let clock = MonotonicClock()
    /// Reads the inputs, and keeps what was read of them.
    private let reader: InputReader
    private var finished = false
    /// Past the point of no return: a cancellation no longer applies.
    private var committing = false
    /// Where the time went so far, the stage running now and when it began.
    private var phases = ImportReport.Phases()
    private var stage = ImportProgress.Stage.reading
    private var stageStartedAt = 0.0
    /// Reports the stages of `finish()` while it runs; nil without `options.progress`.
    private var finishingProgress: FinishingProgress?

    /// Begins the import's transaction, brings `tables` up to date, then makes the target
    /// (`Importer+Opening.swift`: through a model, or zero-config).
    init(name: StoreAddress, model: Model?, options: ImportOptions, modelSHA256: String, tables: [TableDefinition],
         file: LayoutFile?, makeTarget: (any ImportStore, RejectsFile?, SecondaryIndexes) throws(SluiceError) -> any ImportTarget)
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
        reader = InputReader(options: options, clock: clock, databaseName: database.displayName)
        do {
            if let cancellation = options.cancellation {
                database.setInterruptCheck { cancellation.isCancelled }
            }
            try reader.checkCancellation()
            database.feed = options.feed
            // Plain indexes of the tables created now are built after the load (`finish()`).
            target = try makeTarget(database, rejects, try database.migrate(to: tables))
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
        if let progress = options.progress {
            finishingProgress = FinishingProgress(
                first: ImportProgress(bytesRead: reader.storedBytes, totalBytes: reader.storedBytes, records: reader.records,
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
            let examples = try target!.finish(sources: reader.sources, enter: enter) { stage in finishingProgress?.enter(stage) }
            try reader.checkCancellation()
            var report = makeReport()
            report.unresolvedExamples = examples
            report.notes = reader.notes + target!.notes
            try database.log(reader.record(of: report, startedAt: startedAt, modelSHA256: modelSHA256, feed: options.feed))
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
            try reader.checkCancellation()
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

    private func makeReport() -> ImportReport {
        var report = ImportReport(entities: target?.counts ?? [], sources: reader.sources, bytes: reader.bytes,
                                  records: reader.records, seconds: clock.elapsedSeconds, peakMemoryBytes: PeakMemory.residentBytes())
        report.replacementCharacters = reader.replacementCharacters
        return report
    }
}
