import Synchronization

/// A second thread that writes batches while the calling thread parses the next one.
///
/// Parsing and mapping cost about as much as SQLite's writing, so overlapping them is what
/// brings an import close to the speed of a bare insert loop. The hand-over (`HandOff`) holds
/// one batch: at most three exist (one being filled, one waiting, one being written), so
/// memory stays bounded by the batch size. Batches come back emptied for reuse.
///
/// What `work` writes with (`State`: the writers) is the thread's own while it runs, a local
/// of its loop passed `inout` to each call, so its per-record state is reached without
/// dynamic exclusivity checks; `stop()` gives it back.
///
/// The first failure of `work` is kept: later batches are not written, and the next
/// `submit` or `drain` throws it. `stop()` must be called before the owner goes away (it
/// joins the thread, which holds the pipeline until then).
final class BatchPipeline<Batch: Sendable, State>: @unchecked Sendable {
    /// Full batches, to the writer thread.
    private let full = HandOff<Batch>(capacity: 1)
    /// Written batches, emptied, back to the caller: never more than two (three exist).
    private let emptied = HandOff<Batch>(capacity: 3)
    private let failure = Mutex<SluiceError?>(nil)
    /// Set once; joined by the owner's thread.
    private var thread: JoinableThread?
    /// Writes one batch and empties it. Runs on the pipeline's thread only.
    private let work: (inout State, inout Batch) throws(SluiceError) -> Void
    /// `work`'s state while no thread has it: until the thread takes it when it starts, and
    /// once it has put it back before ending (read by `stop()` after the join).
    private var parked: State?

    /// Starts the thread, which takes `state`. `work` may use objects that belong to one
    /// thread at a time (a connection): the caller must leave them alone until `drain()` or
    /// `stop()` returned.
    init(state: consuming State, work: @escaping (inout State, inout Batch) throws(SluiceError) -> Void) {
        self.work = work
        parked = state
        thread = JoinableThread { self.run() }
    }

    /// Hands a full batch to the writer thread, waiting while the previous one still waits.
    /// The batch is moved out of `batch`, so the writer thread owns the only reference to its
    /// arrays and writes them without copying. Returns an emptied batch to fill next, when one
    /// has come back.
    func submit(_ batch: inout Batch?) throws(SluiceError) -> Batch? {
        if let failed = failure.withLock({ $0 }) { throw failed }
        full.put(batch.take()!)
        return emptied.poll()
    }

    /// Waits until every batch handed over is written; throws the first failure.
    func drain() throws(SluiceError) {
        full.waitUntilDone()
        if let failed = failure.withLock({ $0 }) { throw failed }
    }

    /// Lets the batch being written finish, drops the one waiting, and joins the thread.
    /// Returns the state `work` wrote with (nil when already stopped) and the first failure.
    @discardableResult
    func stop() -> (state: State?, failure: SluiceError?) {
        full.close(droppingWaiting: true)
        thread.take()?.join()
        return (parked.take(), failure.withLock { $0 })
    }

    private func run() {
        var state = parked.take()!
        while var batch = full.take() {
            if failure.withLock({ $0 == nil }) {
                do throws(SluiceError) {
                    try work(&state, &batch)
                } catch {
                    failure.withLock { $0 = $0 ?? error }
                }
            }
            emptied.put(batch)
            full.done()
        }
        parked = consume state
    }
}
