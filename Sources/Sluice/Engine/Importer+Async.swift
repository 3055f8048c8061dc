#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Imports from async code (`docs/library.md#async`): the whole import runs on a thread of its
/// own, so no thread of Swift's cooperative pool waits on SQLite or on the input, and
/// cancelling the calling task cancels the import.
extension Importer {
    /// Opens `destination`, imports `inputs` (file paths; `-` is standard input) in order, and
    /// finishes. Cancelling the calling task stops the import within milliseconds: it rolls
    /// back and throws `.interrupted`, the database as it was (`ImportCancellation`; a
    /// cancellation already in `options` works too).
    public static func run(_ destination: Destination, options: ImportOptions = ImportOptions(),
                           inputs: [String]) async throws(SluiceError) -> ImportReport {
        try await run(destination, options, .paths(inputs))
    }

    /// The import of the files at `inputs` (file URLs), as `run(_:options:inputs:)` with paths.
    public static func run(_ destination: Destination, options: ImportOptions = ImportOptions(),
                           inputs: [URL]) async throws(SluiceError) -> ImportReport {
        try await run(destination, options, .urls(inputs))
    }

    /// Starts importing `inputs` as `run(_:options:inputs:)` does, and returns at once: iterate
    /// the run's `progress`, await its `report`, or `cancel()` it.
    public static func start(_ destination: Destination, options: ImportOptions = ImportOptions(),
                             inputs: [String]) -> ImportRun {
        start(destination, options, .paths(inputs))
    }

    /// Starts importing the files at `inputs` (file URLs), as `start(_:options:inputs:)` with paths.
    public static func start(_ destination: Destination, options: ImportOptions = ImportOptions(),
                             inputs: [URL]) -> ImportRun {
        start(destination, options, .urls(inputs))
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

    /// The run of the importer `destination` opens, fed `inputs`, then finished.
    private static func start(_ destination: Destination, _ options: ImportOptions, _ inputs: Inputs) -> ImportRun {
        ImportRun(options: options) { options throws(SluiceError) in
            let importer = try destination.open(options)
            try inputs.importAll(into: importer)
            return try importer.finish()
        }
    }

    /// Awaits the run `start` makes, cancelled with the calling task; a task cancelled already
    /// cancels the import before its thread starts.
    private static func run(_ destination: Destination, _ options: ImportOptions, _ inputs: Inputs)
        async throws(SluiceError) -> ImportReport
    {
        var options = options
        let cancellation = options.cancellation ?? ImportCancellation()
        options.cancellation = cancellation
        let outcome = await withTaskCancellationHandler { () async -> Result<ImportReport, SluiceError> in
            let run = start(destination, options, inputs)
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
