#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

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
public final class Importer {
    public let model: Model
    public let options: ImportOptions
    private let plan: MappingPlan
    private let database: ImportDatabase
    /// Owns the prepared statements; released before the commit so the file closes with it.
    private var writer: BatchWriter?
    private let modelSHA256: String
    private let startedAt: UnixTime
    private let clock = MonotonicClock()
    private var sources: [String] = []
    private var bytes: Int64 = 0
    private var records = 0
    private var finished = false

    /// The connection the import writes through (for tests that trace its SQL).
    var connection: Connection { database.connection }

    /// Opens (or prepares to create) the database and brings its schema up to the model.
    /// - Parameter modelSHA256: recorded in `sluice_imports`; by default the digest of the model
    ///   file's bytes as loaded by `ModelFile`, or empty.
    public init(databasePath: String, model: Model, options: ImportOptions = ImportOptions(), modelSHA256: String = "")
        throws(SluiceError)
    {
        self.model = model
        self.options = options
        self.modelSHA256 = modelSHA256
        startedAt = UnixTime.now()
        do {
            plan = try MappingPlan(model: model, locations: .init(entity: options.entity, path: options.path.map(KeyPath.init(parsing:))))
        } catch {
            throw SluiceError(error)
        }
        database = try ImportDatabase.begin(path: databasePath)
        do {
            try SchemaMigration.migrate(database.connection, to: DatabaseLayout(model).tables)
            var writers: [EntityWriter] = []
            for entity in plan.entities {
                writers.append(try EntityWriter(plan: entity, connection: database.connection, databaseName: databasePath))
            }
            writer = BatchWriter(writers: writers, batchSize: options.batchSize, onError: options.onError)
        } catch {
            writer = nil
            database.rollback()
            throw error
        }
    }

    deinit {
        if !finished { database.rollback() }
    }

    /// Imports a file; `-` is standard input. Gzip is detected by its magic bytes.
    public func importFile(_ path: String) throws(SluiceError) {
        try run(InputOpener.open(path: path))
    }

    /// Imports standard input.
    public func importStandardInput() throws(SluiceError) {
        try run(InputOpener.decompressing(FileSource.standardInput()))
    }

    /// Imports bytes held in memory (a `Data`, an array, any collection of bytes).
    public func importBytes(_ bytes: some Collection<UInt8>, name: String = "<memory>") throws(SluiceError) {
        try run(InputOpener.decompressing(MemorySource(bytes, name: name)))
    }

    /// Writes what is left, records the import in `sluice_imports` and commits.
    public func finish() throws(SluiceError) -> ImportReport {
        precondition(!finished, "finish() called twice")
        guard let writer else { preconditionFailure("finish() after cancel()") }
        do {
            try writer.flush()
            let report = makeReport(writer)
            let log = ImportRecord(
                startedAt: startedAt.iso8601, finishedAt: UnixTime.now().iso8601,
                sources: sources.joined(separator: "\n"), bytes: bytes, records: Int64(records),
                inserted: Int64(report.inserted), updated: Int64(report.updated), unchanged: Int64(report.unchanged),
                rejected: Int64(report.rejected), unresolved: 0, modelSHA256: modelSHA256)
            try ImportLog.insert(log, into: database.connection)
            if options.analyze { try execute("ANALYZE") }
            self.writer = nil
            try database.commit(vacuum: options.vacuum)
            finished = true
            return report
        } catch {
            cancel()
            throw error
        }
    }

    /// Abandons the import: the database is left as it was, a new one is not created.
    public func cancel() {
        guard !finished else { return }
        finished = true
        writer = nil
        database.rollback()
    }

    private func run(_ source: ByteSource) throws(SluiceError) {
        precondition(!finished, "import after finish() or cancel()")
        guard let writer else { preconditionFailure("import after cancel()") }
        do {
            sources.append(source.name)
            let stream = RecordStream(plan: plan, sink: writer)
            var parserOptions = JSONParser.Options()
            parserOptions.maxValueBytes = options.maxValueBytes
            let parser = JSONParser(sourceName: source.name, handler: stream, options: parserOptions)
            stream.parser = parser
            var reader = ChunkReader(source: source, chunkSize: options.chunkSize)
            while let chunk = try reader.next() {
                try parser.parse(chunk)
            }
            try parser.finish()
            bytes += reader.bytesRead
            records += stream.recordCount
        } catch {
            cancel()
            throw error
        }
    }

    private func execute(_ sql: String) throws(SluiceError) {
        do {
            try database.connection.execute(sql)
        } catch {
            throw error.sluiceError(database: database.path)
        }
    }

    private func makeReport(_ writer: BatchWriter) -> ImportReport {
        ImportReport(entities: writer.writers.map(\.counts), sources: sources, bytes: bytes, records: records,
                     seconds: clock.elapsedSeconds, peakMemoryBytes: PeakMemory.residentBytes())
    }
}
