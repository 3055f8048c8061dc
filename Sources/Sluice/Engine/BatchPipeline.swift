#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A second thread that writes batches while the calling thread parses the next one.
///
/// Parsing and mapping cost about as much as SQLite's writing, so overlapping them is what
/// brings an import close to the speed of a bare insert loop. The hand-over is a queue of
/// one: at most three batches exist (one being filled, one waiting, one being written), so
/// memory stays bounded by the batch size. Batches come back emptied for reuse.
///
/// The first failure of `work` is kept: later batches are not written, and the next
/// `submit` or `drain` throws it. `stop()` must be called before the owner goes away (it
/// joins the thread, which holds the pipeline until then).
final class BatchPipeline<Batch: Sendable>: @unchecked Sendable {
    // All state below `lock` is read and written only while holding it.
    private let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let changed = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var waiting: Batch?
    private var writing = false
    private var spare: [Batch] = []
    private var failure: SluiceError?
    private var closing = false
    private var thread: pthread_t?
    /// Writes one batch and empties it. Runs on the pipeline's thread only.
    private let work: (inout Batch) throws(SluiceError) -> Void

    /// Starts the thread. `work` may use objects that belong to one thread at a time (a
    /// connection): the caller must leave them alone until `drain()` or `stop()` returned.
    init(work: @escaping (inout Batch) throws(SluiceError) -> Void) {
        self.work = work
        pthread_mutex_init(lock, nil)
        pthread_cond_init(changed, nil)
        thread = startThread { self.run() }
    }

    deinit {
        pthread_cond_destroy(changed)
        pthread_mutex_destroy(lock)
        changed.deallocate()
        lock.deallocate()
    }

    /// Hands a full batch to the writer thread, waiting while the previous one still waits.
    /// The batch is moved out of `batch` under the lock, so the writer thread owns the only
    /// reference to its arrays and writes them without copying. Returns an emptied batch to
    /// fill next, when one has come back.
    func submit(_ batch: inout Batch?) throws(SluiceError) -> Batch? {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        while waiting != nil && failure == nil { pthread_cond_wait(changed, lock) }
        if let failure { throw failure }
        waiting = batch.take()
        pthread_cond_broadcast(changed)
        return spare.popLast()
    }

    /// Waits until every batch handed over is written; throws the first failure.
    func drain() throws(SluiceError) {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        while (waiting != nil || writing) && failure == nil { pthread_cond_wait(changed, lock) }
        if let failure { throw failure }
    }

    /// Lets the batch being written finish, drops the one waiting, and joins the thread.
    /// Returns the first failure, if any. Harmless when already stopped.
    @discardableResult
    func stop() -> SluiceError? {
        pthread_mutex_lock(lock)
        closing = true
        waiting = nil
        pthread_cond_broadcast(changed)
        let joining = thread
        thread = nil
        pthread_mutex_unlock(lock)
        if let joining { pthread_join(joining, nil) }
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        return failure
    }

    private func run() {
        pthread_mutex_lock(lock)
        while true {
            while waiting == nil && !closing { pthread_cond_wait(changed, lock) }
            guard !closing else { break }
            // Moved, not copied: this thread holds the only reference while it writes.
            var batch = waiting.take()
            writing = true
            let skip = failure != nil
            pthread_cond_broadcast(changed)
            pthread_mutex_unlock(lock)
            var error: SluiceError?
            if !skip {
                do { try work(&batch!) } catch let failed { error = failed }
            }
            pthread_mutex_lock(lock)
            if failure == nil { failure = error }
            writing = false
            spare.append(batch.take()!)
            pthread_cond_broadcast(changed)
        }
        pthread_mutex_unlock(lock)
    }
}

/// What a thread runs, boxed for `pthread_create`, whose C callback can capture nothing.
private final class ThreadBody {
    let run: () -> Void
    init(_ run: @escaping () -> Void) { self.run = run }
}

/// Starts a thread running `body`, which is held until it returns.
private func startThread(_ body: @escaping () -> Void) -> pthread_t {
    var handle = pthread_t()
    let rc = pthread_create(&handle, nil, { context in
        Unmanaged<ThreadBody>.fromOpaque(context!).takeRetainedValue().run()
        return nil
    }, Unmanaged.passRetained(ThreadBody(body)).toOpaque())
    precondition(rc == 0, "cannot start the writer thread (pthread_create: \(rc))")
    return handle
}
