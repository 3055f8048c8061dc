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
        try await run(options: options, inputs: inputs) { options throws(SluiceError) in
            try Importer(databasePath: databasePath, model: model, options: options)
        }
    }

    /// A zero-config import (`init(databasePath:table:options:)`) of `inputs`, as `run(databasePath:model:…)`.
    public static func run(databasePath: String, table: String, options: ImportOptions = ImportOptions(),
                           inputs: [String]) async throws(SluiceError) -> ImportReport {
        try await run(options: options, inputs: inputs) { options throws(SluiceError) in
            try Importer(databasePath: databasePath, table: table, options: options)
        }
    }

    private static func run(options: ImportOptions, inputs: [String],
                            open: @escaping @Sendable (ImportOptions) throws(SluiceError) -> Importer)
        async throws(SluiceError) -> ImportReport
    {
        var options = options
        let cancellation = options.cancellation ?? ImportCancellation()
        options.cancellation = cancellation
        let outcome = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<ImportReport, SluiceError>, Never>) in
                startDetachedThread { [options] in
                    continuation.resume(returning: Result { () throws(SluiceError) -> ImportReport in
                        let importer = try open(options)
                        for input in inputs { try importer.importFile(input) }
                        return try importer.finish()
                    })
                }
            }
        } onCancel: {
            cancellation.cancel()
        }
        return try outcome.get()
    }
}
