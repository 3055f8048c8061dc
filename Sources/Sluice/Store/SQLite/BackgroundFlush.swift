import Synchronization

/// Writes a new database's file to disk while the import is still writing it, so that the
/// fsync which makes it durable at the end finds little left to do.
///
/// A new database is written with SQLite's journal and syncs off and made durable by one
/// fsync before it is renamed into place (`ImportDatabase`). The kernel starts writing dirty
/// pages back on its own only after about 30 s or a tenth of memory, so on a machine with a
/// few gigabytes free that last fsync wrote the whole file while the user waited: 0.2 s of a
/// 2.6 s import of 3 million rows (`docs/performance.md`). This thread fsyncs the file every
/// quarter of a second instead, the way RocksDB's `bytes_per_sync` and PostgreSQL's
/// `*_flush_after` settings spread their writing: the disk works while the import parses.
///
/// fsync rather than Linux's `sync_file_range`: it exists everywhere and only this thread
/// waits for it. A failure is kept and returned by `stop()`: after a failed fsync the kernel
/// may report the error to no later one, so the commit must not trust the final fsync alone.
final class BackgroundFlush {
    private let flushing: Flushing
    private let thread: PeriodicThread

    /// Starts flushing the file at `path` every `interval` seconds; nil when it cannot be
    /// opened (the final fsync still makes it durable, only later).
    init?(path: String, interval: Double = 0.25) {
        let descriptor = SystemCalls.openForReading(path)
        guard descriptor >= 0 else { return nil }
        let flushing = Flushing(descriptor: descriptor)
        self.flushing = flushing
        // A failed fsync ends the flushing: the commit reports it.
        thread = PeriodicThread(after: interval) { flushing.flush() ? interval : nil }
    }

    deinit {
        stop()
    }

    /// Waits for a flush under way and stops the thread. Returns the errno of the first
    /// fsync that failed, if one did. Harmless when already stopped.
    @discardableResult
    func stop() -> Int32? {
        thread.stop()
        return flushing.state.withLock { $0.failure }
    }

    /// The fsyncs done so far.
    var flushes: Int {
        flushing.state.withLock { $0.flushes }
    }

    /// The file and what its flushes came to, shared by the thread and the owner.
    private final class Flushing: Sendable {
        let descriptor: Int32
        let state = Mutex<(flushes: Int, failure: Int32?)>((0, nil))

        init(descriptor: Int32) {
            self.descriptor = descriptor
        }

        deinit {
            SystemCalls.close(descriptor)
        }

        /// One fsync; false when it failed.
        func flush() -> Bool {
            let error = SystemCalls.fsync(descriptor: descriptor)
            return state.withLock {
                $0.flushes += 1
                $0.failure = error
                return error == nil
            }
        }
    }
}
