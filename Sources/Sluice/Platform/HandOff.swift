/// A bounded queue from one thread to another, for work handed over in pieces: batches to the
/// writer thread (`BatchPipeline`), chunks from the reading thread (`ReadAhead`). The one
/// place that locks, waits and wakes for a hand-over, so each of those says only what goes
/// across and what the other thread does with it.
///
/// * `put` waits while `capacity` values wait, so memory stays bounded by it; `take` waits
///   while none does. Values are moved across, never copied.
/// * `close()` ends the hand-over from either side: a `put` waiting or to come returns false,
///   a `take` gets the values already there (none with `droppingWaiting`), then nil.
/// * `done()` after the taker has finished with a value, and `waitUntilDone()` on the other
///   side, for a putter that must know its values were dealt with (as Python's
///   `Queue.task_done` and `join`).
final class HandOff<Value>: @unchecked Sendable {
    private let capacity: Int
    // Below: read and written only while holding `lock`.
    private let lock = Monitor()
    private var values: [Value] = []
    /// Values put and not yet `done()`.
    private var unfinished = 0
    private var closed = false

    init(capacity: Int) {
        precondition(capacity > 0, "a hand-over holds at least one value")
        self.capacity = capacity
        values.reserveCapacity(capacity)
    }

    /// Hands `value` over, waiting while `capacity` values wait; false (and `value` dropped)
    /// once the hand-over is closed.
    @discardableResult
    func put(_ value: consuming Value) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        while values.count >= capacity && !closed { lock.wait() }
        guard !closed else { return false }
        values.append(value)
        unfinished += 1
        lock.broadcast()
        return true
    }

    /// The oldest value waiting, waiting for one; nil once closed and empty.
    func take() -> Value? {
        lock.lock()
        defer { lock.unlock() }
        while values.isEmpty && !closed { lock.wait() }
        guard !values.isEmpty else { return nil }
        lock.broadcast()
        return values.removeFirst()
    }

    /// The oldest value waiting, or nil at once when none does.
    func poll() -> Value? {
        lock.lock()
        defer { lock.unlock() }
        guard !values.isEmpty else { return nil }
        lock.broadcast()
        return values.removeFirst()
    }

    /// The taker has finished with one value it took.
    func done() {
        lock.lock()
        defer { lock.unlock() }
        unfinished -= 1
        lock.broadcast()
    }

    /// Waits until every value put is `done()`, or the hand-over closed.
    func waitUntilDone() {
        lock.lock()
        defer { lock.unlock() }
        while unfinished > 0 && !closed { lock.wait() }
    }

    /// Ends the hand-over (see the type); `droppingWaiting` drops the values not yet taken.
    /// Harmless when already closed.
    func close(droppingWaiting: Bool = false) {
        lock.lock()
        defer { lock.unlock() }
        closed = true
        if droppingWaiting {
            unfinished -= values.count
            values.removeAll()
        }
        lock.broadcast()
    }
}
