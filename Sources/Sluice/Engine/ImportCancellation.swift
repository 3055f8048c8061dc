import Synchronization

/// Stops an import from outside: another thread, or a signal handler.
///
/// Give one to `ImportOptions.cancellation`; `cancel()` makes the import stop at its next
/// check and throw `SluiceError.Kind.interrupted` after rolling back, so the database is as it
/// was (a new one is not created). The import checks between input chunks (1 MiB), between
/// batches, every few thousand SQLite VM steps inside a long statement (SQLite's progress
/// handler), and `UnknownCSV.keep` every 64 KiB and zip entry of its read-ahead, so it stops
/// within milliseconds whatever it is doing. A `read` blocked on an
/// idle pipe or terminal gives up when a signal interrupts it (`EINTR`) and the import is
/// cancelled: the `sluice` CLI installs its handlers without `SA_RESTART` for that.
///
/// Once the import has begun to commit, a cancellation is too late and is ignored: the
/// import finishes, whole.
///
/// `cancel()` only stores to an atomic flag: no lock, no allocation, no SQLite call, so it is
/// async-signal-safe and may be called from a `SIGINT`/`SIGTERM` handler (the library never
/// installs signal handlers itself; the `sluice` CLI does, and calls this).
public final class ImportCancellation: Sendable {
    private let flag = Atomic<Bool>(false)

    /// A cancellation that has not been asked for.
    public init() {}

    /// Asks the import to stop. Harmless when called again or after the import ended.
    public func cancel() {
        flag.store(true, ordering: .relaxed)
    }

    /// Whether `cancel()` was called.
    public var isCancelled: Bool {
        flag.load(ordering: .relaxed)
    }
}
