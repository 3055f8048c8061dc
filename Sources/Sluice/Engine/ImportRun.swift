import Synchronization

/// An import started from async code (`Importer.start`), running on a thread of its own: its
/// progress as an `AsyncSequence`, its report to await, and a way to stop it.
///
/// ```swift
/// let run = Importer.start(.file("transit.sqlite", model: model), inputs: ["stops.json"])
/// for await progress in run.progress { print(progress.records) }
/// let report = try await run.report
/// ```
///
/// The import goes on whether anyone iterates `progress` or awaits `report`; it ends when it
/// has committed or failed (rolled back), and `progress` ends with it.
public final class ImportRun: Sendable {
    /// The import's progress, the values `ImportOptions.progress` gets, in order. It keeps only
    /// the newest value not yet taken (`bufferingNewest(1)`): a consumer slower than the import
    /// skips values, never falls behind them, and memory stays one value. The last value is the
    /// final one (every input read, `records` the final count); the sequence ends when the
    /// import does, committed, failed or cancelled. Iterate it from one task.
    public let progress: AsyncStream<ImportProgress>

    private let outcome: Task<Result<ImportReport, SluiceError>, Never>
    private let cancellation: ImportCancellation
    /// Called by `cancel()` besides the cancellation: ends an input that waits for bytes.
    private let stopInput: (@Sendable () -> Void)?
    /// Receivers of every progress value besides `progress` (a Foundation `Progress`), and the
    /// latest value, which a receiver added late starts from.
    private let receivers = Receivers()

    /// Starts `body` on a thread of its own with `options`, its progress and cancellation set up.
    init(options: ImportOptions, stopInput: (@Sendable () -> Void)? = nil,
         body: @escaping @Sendable (ImportOptions) throws(SluiceError) -> ImportReport)
    {
        var options = options
        let cancellation = options.cancellation ?? ImportCancellation()
        options.cancellation = cancellation
        self.cancellation = cancellation
        self.stopInput = stopInput
        let (stream, continuation) = AsyncStream<ImportProgress>.makeStream(bufferingPolicy: .bufferingNewest(1))
        progress = stream
        let receivers = receivers
        let callback = options.progress
        options.progress = { value in
            continuation.yield(value)
            callback?(value)
            let list = receivers.state.withLock { state in
                state.latest = value
                return state.list
            }
            for receiver in list { receiver(value) }
        }
        outcome = Task.detached { [options] in
            await withCheckedContinuation { (done: CheckedContinuation<Result<ImportReport, SluiceError>, Never>) in
                startDetachedThread {
                    let result = Result { () throws(SluiceError) -> ImportReport in try body(options) }
                    // The sequence ends before `report` returns.
                    continuation.finish()
                    done.resume(returning: result)
                }
            }
        }
    }

    /// What `finish()` returned once the import has committed; or its error, the import rolled
    /// back. Cancelling the task that awaits it cancels the import (`.interrupted`).
    public var report: ImportReport {
        get async throws(SluiceError) {
            let outcome = outcome
            let result = await withTaskCancellationHandler {
                await outcome.value
            } onCancel: {
                self.cancel()
            }
            return try result.get()
        }
    }

    /// Stops the import as `ImportCancellation.cancel()` does: it rolls back and `report`
    /// throws `.interrupted`; too late once the commit has begun. Harmless when repeated.
    public func cancel() {
        cancellation.cancel()
        stopInput?()
    }

    /// Calls `receiver` with every progress value from now on, starting with the latest one.
    func addReceiver(_ receiver: @escaping @Sendable (ImportProgress) -> Void) {
        let latest = receivers.state.withLock { state in
            state.list.append(receiver)
            return state.latest
        }
        if let latest { receiver(latest) }
    }
}

/// `ImportRun`'s receivers, in a class so the progress callback can hold them.
private final class Receivers: Sendable {
    let state = Mutex<(latest: ImportProgress?, list: [@Sendable (ImportProgress) -> Void])>((nil, []))
}
