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
    private let shared: Shared
    private var thread: JoinableThread?

    /// Starts flushing the file at `path` every `interval` seconds; nil when it cannot be
    /// opened (the final fsync still makes it durable, only later).
    init?(path: String, interval: Double = 0.25) {
        let descriptor = SystemCalls.openForReading(path)
        guard descriptor >= 0 else { return nil }
        let shared = Shared(descriptor: descriptor, interval: interval)
        self.shared = shared
        thread = JoinableThread { shared.run() }
    }

    deinit {
        stop()
    }

    /// Waits for a flush under way and stops the thread. Returns the errno of the first
    /// fsync that failed, if one did. Harmless when already stopped.
    @discardableResult
    func stop() -> Int32? {
        shared.lock.lock()
        shared.stopping = true
        shared.lock.broadcast()
        shared.lock.unlock()
        thread.take()?.join()
        return shared.failure
    }

    /// The fsyncs done so far.
    var flushes: Int {
        shared.lock.lock()
        defer { shared.lock.unlock() }
        return shared.flushes
    }

    /// The thread's state: the variables are read and written under `lock`.
    private final class Shared: @unchecked Sendable {
        let lock = Monitor()
        let descriptor: Int32
        let interval: Double
        var stopping = false
        var flushes = 0
        var failure: Int32?

        init(descriptor: Int32, interval: Double) {
            self.descriptor = descriptor
            self.interval = interval
        }

        deinit {
            SystemCalls.close(descriptor)
        }

        func run() {
            lock.lock()
            // A failed fsync ends the flushing: the commit reports it.
            while !stopping && failure == nil {
                lock.wait(seconds: interval)
                guard !stopping else { break }
                lock.unlock()
                let error = SystemCalls.fsync(descriptor: descriptor)
                lock.lock()
                failure = error
                flushes += 1
            }
            lock.unlock()
        }
    }
}
