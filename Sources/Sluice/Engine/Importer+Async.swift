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
        try await run(.pathModel(databasePath, model), options, .paths(inputs))
    }

    /// A zero-config import (`init(databasePath:table:options:)`) of `inputs`, as `run(databasePath:model:…)`.
    public static func run(databasePath: String, table: String, options: ImportOptions = ImportOptions(),
                           inputs: [String]) async throws(SluiceError) -> ImportReport {
        try await run(.pathTable(databasePath, table: table), options, .paths(inputs))
    }

    /// Starts importing `inputs` as `run(databasePath:model:options:inputs:)` does, and returns
    /// at once: iterate the run's `progress`, await its `report`, or `cancel()` it.
    public static func start(databasePath: String, model: Model, options: ImportOptions = ImportOptions(),
                             inputs: [String]) -> ImportRun {
        start(.pathModel(databasePath, model), options, .paths(inputs))
    }

    /// A zero-config import of `inputs` started as `start(databasePath:model:…)`.
    public static func start(databasePath: String, table: String, options: ImportOptions = ImportOptions(),
                             inputs: [String]) -> ImportRun {
        start(.pathTable(databasePath, table: table), options, .paths(inputs))
    }

    /// Opens `database`, imports the files at `inputs` (file URLs) in order, and finishes, as
    /// `run(databasePath:model:options:inputs:)` does.
    public static func run(database: Database, model: Model, options: ImportOptions = ImportOptions(),
                           inputs: [URL]) async throws(SluiceError) -> ImportReport {
        try await run(.databaseModel(database, model), options, .urls(inputs))
    }

    /// The import through `modelFile`'s model (`init(database:modelFile:options:)`; Core Data's
    /// store with `.coreDataStore`) of `inputs`, as `run(database:model:options:inputs:)`.
    public static func run(database: Database, modelFile: ModelFile, options: ImportOptions = ImportOptions(),
                           inputs: [URL]) async throws(SluiceError) -> ImportReport {
        try await run(.databaseModelFile(database, modelFile), options, .urls(inputs))
    }

    /// A zero-config import (`init(database:table:options:)`) of `inputs`, as
    /// `run(database:model:options:inputs:)`.
    public static func run(database: Database, table: String, options: ImportOptions = ImportOptions(),
                           inputs: [URL]) async throws(SluiceError) -> ImportReport {
        try await run(.databaseTable(database, table: table), options, .urls(inputs))
    }

    /// Starts importing `inputs` (file URLs) into `database` as `run(database:model:options:inputs:)`
    /// does, and returns at once: iterate the run's `progress`, await its `report`, or `cancel()` it.
    public static func start(database: Database, model: Model, options: ImportOptions = ImportOptions(),
                             inputs: [URL]) -> ImportRun {
        start(.databaseModel(database, model), options, .urls(inputs))
    }

    /// The import through `modelFile`'s model started as `start(database:model:…)`.
    public static func start(database: Database, modelFile: ModelFile, options: ImportOptions = ImportOptions(),
                             inputs: [URL]) -> ImportRun {
        start(.databaseModelFile(database, modelFile), options, .urls(inputs))
    }

    /// A zero-config import of `inputs` started as `start(database:model:…)`.
    public static func start(database: Database, table: String, options: ImportOptions = ImportOptions(),
                             inputs: [URL]) -> ImportRun {
        start(.databaseTable(database, table: table), options, .urls(inputs))
    }

    /// The files of a run, imported in order.
    private enum Inputs: Sendable {
        /// Paths; `-` is standard input (`importFile(_: String)`).
        case paths([String])
        /// File URLs (`importFile(_: URL)`).
        case urls([URL])

        func importAll(into importer: Importer) throws(SluiceError) {
            switch self {
            case .paths(let paths): for path in paths { try importer.importFile(path) }
            case .urls(let urls): for url in urls { try importer.importFile(url) }
            }
        }
    }

    /// The run of the importer `opening` opens, fed `inputs`, then finished.
    private static func start(_ opening: ImporterOpening, _ options: ImportOptions, _ inputs: Inputs) -> ImportRun {
        ImportRun(options: options) { options throws(SluiceError) in
            let importer = try opening.open(options)
            try inputs.importAll(into: importer)
            return try importer.finish()
        }
    }

    /// Awaits the run `start` makes, cancelled with the calling task; a task cancelled already
    /// cancels the import before its thread starts.
    private static func run(_ opening: ImporterOpening, _ options: ImportOptions, _ inputs: Inputs)
        async throws(SluiceError) -> ImportReport
    {
        var options = options
        let cancellation = options.cancellation ?? ImportCancellation()
        options.cancellation = cancellation
        let outcome = await withTaskCancellationHandler { () async -> Result<ImportReport, SluiceError> in
            let run = start(opening, options, inputs)
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
