/// A thread that wakes now and then to do one small thing until its owner stops it: flush a
/// file being written (`BackgroundFlush`), repeat the latest progress while one long statement
/// runs (`FinishingProgress`), ask a server to cancel once the import is cancelled
/// (`PostgresCancelWatcher`). The one place that sleeps, wakes and joins, so each of those
/// says only what it does when it wakes.
///
/// `tick` runs on the thread, never while the owner's `stop()` has returned, and says when it
/// is next due: in so many seconds, or never again (nil ends the thread). It runs outside the
/// thread's own lock: what it shares with its owner it guards itself.
final class PeriodicThread: @unchecked Sendable {
    // Below: read and written only while holding `lock`.
    private let lock = Monitor()
    private var stopping = false
    private var thread: JoinableThread?

    /// Starts the thread; `tick` first runs after `delay` seconds.
    init(after delay: Double, _ tick: @escaping () -> Double?) {
        thread = JoinableThread { self.run(after: delay, tick) }
    }

    /// Stops the thread, waiting for a `tick` under way; `tick` never runs afterwards.
    /// Harmless when already stopped. The owner must call it: the thread holds this object.
    func stop() {
        lock.lock()
        stopping = true
        lock.broadcast()
        let joining = thread.take()
        lock.unlock()
        joining?.join()
    }

    private func run(after delay: Double, _ tick: () -> Double?) {
        var due: Double? = delay
        lock.lock()
        defer { lock.unlock() }
        while let wait = due, !stopping {
            if wait > 0 {
                lock.wait(seconds: wait)
                // Woken by `stop()`; a spurious wake-up only brings a tick forward, which
                // every tick tolerates (each does what is due, or reports again).
                guard !stopping else { break }
            }
            lock.unlock()
            due = tick()
            lock.lock()
        }
    }
}
