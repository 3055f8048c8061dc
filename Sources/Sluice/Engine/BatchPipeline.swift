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
    private let lock = Monitor()
    private var waiting: Batch?
    private var writing = false
    private var spare: [Batch] = []
    private var failure: SluiceError?
    private var closing = false
    private var thread: JoinableThread?
    /// Writes one batch and empties it. Runs on the pipeline's thread only.
    private let work: (inout Batch) throws(SluiceError) -> Void

    /// Starts the thread. `work` may use objects that belong to one thread at a time (a
    /// connection): the caller must leave them alone until `drain()` or `stop()` returned.
    init(work: @escaping (inout Batch) throws(SluiceError) -> Void) {
        self.work = work
        thread = JoinableThread { self.run() }
    }

    /// Hands a full batch to the writer thread, waiting while the previous one still waits.
    /// The batch is moved out of `batch` under the lock, so the writer thread owns the only
    /// reference to its arrays and writes them without copying. Returns an emptied batch to
    /// fill next, when one has come back.
    func submit(_ batch: inout Batch?) throws(SluiceError) -> Batch? {
        lock.lock()
        defer { lock.unlock() }
        while waiting != nil && failure == nil { lock.wait() }
        if let failure { throw failure }
        waiting = batch.take()
        lock.broadcast()
        return spare.popLast()
    }

    /// Waits until every batch handed over is written; throws the first failure.
    func drain() throws(SluiceError) {
        lock.lock()
        defer { lock.unlock() }
        while (waiting != nil || writing) && failure == nil { lock.wait() }
        if let failure { throw failure }
    }

    /// Lets the batch being written finish, drops the one waiting, and joins the thread.
    /// Returns the first failure, if any. Harmless when already stopped.
    @discardableResult
    func stop() -> SluiceError? {
        lock.lock()
        closing = true
        waiting = nil
        lock.broadcast()
        let joining = thread.take()
        lock.unlock()
        if let joining { joining.join() }
        lock.lock()
        defer { lock.unlock() }
        return failure
    }

    private func run() {
        lock.lock()
        while true {
            while waiting == nil && !closing { lock.wait() }
            guard !closing else { break }
            // Moved, not copied: this thread holds the only reference while it writes.
            var batch = waiting.take()
            writing = true
            let skip = failure != nil
            lock.broadcast()
            lock.unlock()
            var error: SluiceError?
            if !skip {
                do { try work(&batch!) } catch let failed { error = failed }
            }
            lock.lock()
            if failure == nil { failure = error }
            writing = false
            spare.append(batch.take()!)
            lock.broadcast()
        }
        lock.unlock()
    }
}
