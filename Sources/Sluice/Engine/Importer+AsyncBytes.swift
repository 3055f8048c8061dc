/// Imports bytes as async code receives them (`docs/library.md#async`): a download, a socket,
/// a decompressor of its own, without the whole input in memory or in a file first.
extension Importer {
    /// Opens `destination`, imports the bytes of `chunks` as one input named `name` (in errors
    /// and `sluice_imports`) as they arrive, and finishes. A record may be split anywhere
    /// across chunks; gzip is detected by its first bytes, as for a file. The import runs on a
    /// thread of its own while `chunks` is iterated in a child task of the caller's, one chunk
    /// ahead at most.
    ///
    /// Cancelling the calling task cancels the import (rolled back, `.interrupted`); so does
    /// an error thrown by `chunks` (as `.io`: `read error on 'name': …`), and an import that
    /// fails stops iterating `chunks` (its task is cancelled). `chunks` should end its
    /// iteration when its task is cancelled, as `AsyncStream` does.
    public static func run<Chunks: AsyncSequence & Sendable>(
        _ destination: Destination, options: ImportOptions = ImportOptions(), chunks: Chunks,
        name: String = "<stream>") async throws(SluiceError) -> ImportReport where Chunks.Element == [UInt8]
    {
        let channel = ChunkChannel()
        var options = options
        let cancellation = options.cancellation ?? ImportCancellation()
        options.cancellation = cancellation
        let outcome = await withTaskCancellationHandler { () async -> Result<ImportReport, SluiceError> in
            let run = ImportRun(options: options, stopInput: { channel.close() }) { options throws(SluiceError) in
                // However the import ends, the sender stops.
                defer { channel.close() }
                let importer = try destination.open(options)
                try importer.run(InputReader.decoding(ChunkChannelSource(channel, name: name)))
                return try importer.finish()
            }
            return await withTaskGroup(of: Void.self) { group in
                group.addTask {
                    do {
                        for try await chunk in chunks {
                            guard await channel.send(chunk) else { return }
                        }
                        channel.end()
                    } catch {
                        channel.end(failure: SluiceError(.io, "read error on '\(name)': \(error)"))
                    }
                }
                let result: Result<ImportReport, SluiceError>
                do throws(SluiceError) {
                    result = .success(try await run.report)
                } catch {
                    result = .failure(error)
                }
                group.cancelAll()
                return result
            }
        } onCancel: {
            cancellation.cancel()
            channel.close()
        }
        return try outcome.get()
    }
}
