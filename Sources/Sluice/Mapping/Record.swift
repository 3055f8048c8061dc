/// One record as the mapping hands it to the engine: its entity, one value per attribute
/// (missing when the record did not mention it) and where it starts in the input.
///
/// The values' bytes live in `bytes`, the assembler's arena, valid only during the sink's
/// `accept` call: a sink copies what it keeps (`EntityBatch.append`).
struct Record {
    var entity: Int
    /// Indexed like `MappingPlan.EntityPlan.attributes`; `.null` is an explicit null. Like
    /// `bytes`, the assembler's memory, valid only during `accept`.
    var values: UnsafeBufferPointer<Cell>
    var bytes: UnsafeRawBufferPointer
    /// Indexed like `MappingPlan.EntityPlan.relationships`; nil when the record did not
    /// mention the relationship (its links are left alone).
    var links: [Link?]
    var position: InputPosition
    /// False for a record nested in another one (it completes before its parent).
    var isTopLevel: Bool
    /// True when `bytes` hold only this record's bytes (a top-level record with no nested
    /// records), so a sink may copy them whole instead of value by value.
    var bytesAreItsOwn = false

    /// An attribute's value as a `ColumnValue`; nil when not mentioned.
    func value(_ attribute: Int) -> ColumnValue? {
        values[attribute].columnValue(in: bytes)
    }
}

/// A zero-config record (`FreeformAssembler`): one value per column known when it
/// completed, nil where the record has no such key.
struct FreeformRecord {
    var values: [ColumnValue?]
    var position: InputPosition
}

/// What a record says about one relationship.
enum Link: Equatable {
    /// `null`: a to-one is unlinked, a to-many loses all its links.
    case clear
    case one(LinkTarget)
    /// A to-many's list, in input order (null elements already skipped).
    case many([LinkTarget])
}

/// The other end of a link: a bare id, or a record of this import.
enum LinkTarget: Hashable {
    /// The target's `relatedBy` value, converted to that attribute's type.
    case key(ColumnValue)
    /// A nested record, as the sink numbered it when it completed.
    case record(RecordHandle)
}

/// How the engine names a record it accepted, so that a parent can link to its nested
/// records: the record's entity and its place in that entity's batch.
struct RecordHandle: Hashable {
    var entity: Int
    var index: Int
}

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
