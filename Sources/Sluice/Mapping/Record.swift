/// One record as the mapping hands it to the engine: its entity, one value per attribute
/// (nil when the record did not mention it) and where it starts in the input.
struct Record {
    var entity: Int
    /// Indexed like `MappingPlan.EntityPlan.attributes`; `.null` is an explicit null.
    var values: [DatabaseValue?]
    var position: TextPosition
}

/// A value being collected for one attribute while a record's events arrive.
struct Slot {
    enum State {
        case missing
        case value(DatabaseValue)
        /// The winning key held a value that does not convert; an error only if it still
        /// wins when the record ends (a better fallback key may come later).
        case failed(String)
    }

    /// The fallback index of the key that set it; `Int.max` while missing.
    var priority = Int.max
    var state = State.missing

    /// Whether a value found under the key with this fallback index replaces the current one.
    /// The first listed key present wins; a repeated key replaces itself (the last one wins,
    /// as in most JSON readers).
    @inline(__always)
    func accepts(priority candidate: Int) -> Bool { candidate <= priority }
}
