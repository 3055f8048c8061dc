#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Imports from async code (`docs/library.md#async`): the whole import runs on a thread of its
/// own, so no thread of Swift's cooperative pool waits on SQLite or on the input, and
/// cancelling the calling task cancels the import.
extension Importer {
    /// Opens the database, imports `inputs` (file paths; `-` is standard input) in order, and
    /// finishes. Cancelling the calling task stops the import within milliseconds: it rolls
    /// back and throws `.interrupted`, the database as it was (`ImportCancellation`; a
    /// cancellation already in `options` works too).
    public static func run(databasePath: String, model: Model, options: ImportOptions = ImportOptions(),
                           inputs: [String]) async throws(SluiceError) -> ImportReport {
        try await run(options) { options in start(databasePath: databasePath, model: model, options: options, inputs: inputs) }
    }

    /// A zero-config import (`init(databasePath:table:options:)`) of `inputs`, as `run(databasePath:model:…)`.
    public static func run(databasePath: String, table: String, options: ImportOptions = ImportOptions(),
                           inputs: [String]) async throws(SluiceError) -> ImportReport {
        try await run(options) { options in start(databasePath: databasePath, table: table, options: options, inputs: inputs) }
    }

    /// Starts importing `inputs` as `run(databasePath:model:options:inputs:)` does, and returns
    /// at once: iterate the run's `progress`, await its `report`, or `cancel()` it.
    public static func start(databasePath: String, model: Model, options: ImportOptions = ImportOptions(),
                             inputs: [String]) -> ImportRun {
        ImportRun(options: options) { options throws(SluiceError) in
            let importer = try Importer(databasePath: databasePath, model: model, options: options)
            for input in inputs { try importer.importFile(input) }
            return try importer.finish()
        }
    }

    /// A zero-config import of `inputs` started as `start(databasePath:model:…)`.
    public static func start(databasePath: String, table: String, options: ImportOptions = ImportOptions(),
                             inputs: [String]) -> ImportRun {
        ImportRun(options: options) { options throws(SluiceError) in
            let importer = try Importer(databasePath: databasePath, table: table, options: options)
            for input in inputs { try importer.importFile(input) }
            return try importer.finish()
        }
    }

    /// Opens `database`, imports the files at `inputs` (file URLs) in order, and finishes, as
    /// `run(databasePath:model:options:inputs:)` does.
    public static func run(database: Database, model: Model, options: ImportOptions = ImportOptions(),
                           inputs: [URL]) async throws(SluiceError) -> ImportReport {
        try await run(options) { options in start(database: database, model: model, options: options, inputs: inputs) }
    }

    /// The import through `modelFile`'s model (`init(database:modelFile:options:)`; Core Data's
    /// store with `.coreDataStore`) of `inputs`, as `run(database:model:options:inputs:)`.
    public static func run(database: Database, modelFile: ModelFile, options: ImportOptions = ImportOptions(),
                           inputs: [URL]) async throws(SluiceError) -> ImportReport {
        try await run(options) { options in start(database: database, modelFile: modelFile, options: options, inputs: inputs) }
    }

    /// A zero-config import (`init(database:table:options:)`) of `inputs`, as
    /// `run(database:model:options:inputs:)`.
    public static func run(database: Database, table: String, options: ImportOptions = ImportOptions(),
                           inputs: [URL]) async throws(SluiceError) -> ImportReport {
        try await run(options) { options in start(database: database, table: table, options: options, inputs: inputs) }
    }

    /// Starts importing `inputs` (file URLs) into `database` as `run(database:model:options:inputs:)`
    /// does, and returns at once: iterate the run's `progress`, await its `report`, or `cancel()` it.
    public static func start(database: Database, model: Model, options: ImportOptions = ImportOptions(),
                             inputs: [URL]) -> ImportRun {
        start(options: options, inputs: inputs) { options throws(SluiceError) in
            try Importer(database: database, model: model, options: options)
        }
    }

    /// The import through `modelFile`'s model started as `start(database:model:…)`.
    public static func start(database: Database, modelFile: ModelFile, options: ImportOptions = ImportOptions(),
                             inputs: [URL]) -> ImportRun {
        start(options: options, inputs: inputs) { options throws(SluiceError) in
            try Importer(database: database, modelFile: modelFile, options: options)
        }
    }

    /// A zero-config import of `inputs` started as `start(database:model:…)`.
    public static func start(database: Database, table: String, options: ImportOptions = ImportOptions(),
                             inputs: [URL]) -> ImportRun {
        start(options: options, inputs: inputs) { options throws(SluiceError) in
            try Importer(database: database, table: table, options: options)
        }
    }

    /// The run of the importer `open` makes, fed the files at `inputs` in order, then finished.
    private static func start(options: ImportOptions, inputs: [URL],
                              open: @escaping @Sendable (ImportOptions) throws(SluiceError) -> Importer) -> ImportRun {
        ImportRun(options: options) { options throws(SluiceError) in
            let importer = try open(options)
            for input in inputs { try importer.importFile(input) }
            return try importer.finish()
        }
    }

    /// Awaits the run `start` makes, cancelled with the calling task; a task cancelled already
    /// cancels the import before its thread starts.
    private static func run(_ options: ImportOptions, start: (ImportOptions) -> ImportRun) async throws(SluiceError)
        -> ImportReport
    {
        var options = options
        let cancellation = options.cancellation ?? ImportCancellation()
        options.cancellation = cancellation
        let outcome = await withTaskCancellationHandler { () async -> Result<ImportReport, SluiceError> in
            let run = start(options)
            do throws(SluiceError) {
                return .success(try await run.report)
            } catch {
                return .failure(error)
            }
        } onCancel: {
            cancellation.cancel()
        }
        return try outcome.get()
    }
}
