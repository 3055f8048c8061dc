import Synchronization

/// Reports `ImportOptions.progress` once the inputs are read: each stage of the finish as it
/// begins, and again at least once a second while it lasts.
///
/// The stages run on the importing thread, mostly as single SQL statements (one
/// `UPDATE … FROM` per relationship, one `CREATE INDEX`, the commit's flush) that can take
/// minutes on a big import; the thread is inside SQLite then and cannot call anything. So a
/// helper thread repeats the latest progress, with the time brought up to date, whenever
/// nothing was reported for `interval`. A thread rather than SQLite's progress handler: the
/// handler runs only between VM instructions, not while one instruction sorts an index or the
/// commit writes pages and syncs, which are the longest waits of all.
///
/// Every call of the callback is made holding `latest`'s lock, so that calls never overlap and a host's
/// drawing needs no lock of its own. `finish()` calls `stop()`, which joins the thread
/// (`PeriodicThread`), on every way out.
final class FinishingProgress: @unchecked Sendable {
    /// Four times a second when nothing else reports: "at least once a second" with room for a
    /// busy machine's scheduling delays.
    static let interval = 0.25

    private let report: @Sendable (ImportProgress) -> Void
    private let clock: MonotonicClock
    /// The latest progress and when it was reported; every call of `report` is made holding it.
    private let latest: Mutex<(progress: ImportProgress, reportedAt: Double)>
    /// Set once, stopped by the owner's thread.
    private var thread: PeriodicThread?

    /// Reports `first` (stage `.finishing`) at once and starts the helper thread.
    init(first: ImportProgress, clock: MonotonicClock, report: @escaping @Sendable (ImportProgress) -> Void) {
        self.report = report
        self.clock = clock
        latest = Mutex((first, first.seconds))
        latest.withLock { report($0.progress) }
        // The thread holds the reporter until `stop()`, which its owner must call.
        thread = PeriodicThread(after: Self.interval) { self.repeatIfDue() }
    }

    /// Reports `stage` now (a new stage, or new counts of the current one).
    func enter(_ stage: ImportProgress.Stage) {
        latest.withLock { state in
            state.progress.stage = stage
            reportNow(&state)
        }
    }

    /// Stops the helper thread; it reports nothing afterwards. Harmless when stopped.
    func stop() {
        thread?.stop()
    }

    private func reportNow(_ state: inout (progress: ImportProgress, reportedAt: Double)) {
        state.progress.seconds = clock.elapsedSeconds
        state.reportedAt = state.progress.seconds
        report(state.progress)
    }

    /// The latest progress again when nothing was reported for `interval`; the seconds until
    /// that is next due.
    private func repeatIfDue() -> Double? {
        latest.withLock { state in
            let due = state.reportedAt + Self.interval - clock.elapsedSeconds
            guard due <= 0 else { return due }
            reportNow(&state)
            return Self.interval
        }
    }
}
