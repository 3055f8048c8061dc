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
    func state(in generation: Int) -> State {
        self.generation == generation ? state : .missing
    }

    /// Whether a value found under the key with this fallback index replaces the current one
    /// of the record numbered `generation`. The first listed key present wins; a repeated
    /// key replaces itself (the last one wins, as in most JSON readers).
    func accepts(priority candidate: Int, in generation: Int) -> Bool {
        self.generation != generation || candidate <= priority
    }
}

/// `Slot<Cell>` laid flat, for the attributes' values: the cell itself, with a failure as an
/// index beside it instead of an enum around it, so that completing a record copies each
/// cell with one compare (`cell(in:)`) and no switch.
struct CellSlot {
    var cell = Cell.missing
    /// The fallback index of the key that set it (`Slot.priority`).
    var priority = Int32.max
    /// The index of its message in `ValueSlots`'s failures when the winning key's value
    /// did not convert; -1 otherwise.
    var failure: Int32 = -1
    /// The record (numbered by the assembler) that set it; 0 is no record's.
    var generation = 0

    init() {}

    init(_ state: Slot<Cell>.State, priority: Int, generation: Int) {
        switch state {
        case .missing: break
        case .value(let cell): self.cell = cell
        case .failed(let failure): self.failure = Int32(failure)
        }
        self.priority = Int32(truncatingIfNeeded: priority)
        self.generation = generation
    }

    /// What the slot holds for the record numbered `generation`.
    func state(in generation: Int) -> Slot<Cell>.State {
        guard self.generation == generation else { return .missing }
        return failure >= 0 ? .failed(Int(failure)) : .value(cell)
    }

    /// The cell of the record numbered `generation`, missing if the slot is another record's;
    /// meaningful only when no slot of the record failed.
    func cell(in generation: Int) -> Cell {
        self.generation == generation ? cell : .missing
    }

    /// `Slot.accepts(priority:in:)`.
    func accepts(priority candidate: Int, in generation: Int) -> Bool {
        self.generation != generation || candidate <= Int(priority)
    }

    /// Missing for every record.
    mutating func clear() {
        generation = 0
    }
}
