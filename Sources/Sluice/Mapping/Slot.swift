/// A value being collected for one attribute or relationship while a record's events arrive.
///
/// Slots are reused from record to record without being reset: a slot belongs to the record
/// whose `generation` it carries, and is missing for any other. Resetting every slot of
/// every record cost about a tenth of the mapping's time.
struct Slot<Value> {
    enum State {
        case missing
        case value(Value)
        /// The winning key held a value that does not convert; an error only if it still
        /// wins when the record ends (a better fallback key may come later). The message is
        /// kept aside (its index here), so that a slot of a cell is a plain value.
        case failed(Int)
    }

    /// The fallback index of the key that set it; `Int.max` while missing.
    var priority = Int.max
    var state = State.missing
    /// The record (numbered by the assembler) that set it.
    var generation = 0

    /// What the slot holds for the record numbered `generation`.
    @inline(__always)
    func state(in generation: Int) -> State {
        self.generation == generation ? state : .missing
    }

    /// Whether a value found under the key with this fallback index replaces the current one
    /// of the record numbered `generation`. The first listed key present wins; a repeated
    /// key replaces itself (the last one wins, as in most JSON readers).
    @inline(__always)
    func accepts(priority candidate: Int, in generation: Int) -> Bool {
        self.generation != generation || candidate <= priority
    }
}
