/// Finds, among a batch's records, the first with the same identity as another: an open
/// addressing table of record numbers whose identities are hashed and compared as the
/// batch's cells, in place. (A key value per record, a `String` per text part and an array
/// per composite identity, was most of a re-import's writer time.)
///
/// Identities are compared after conversion, so `"42"` and `42` are one integer identity.
struct IdentityTable {
    /// Record number + 1 per slot; 0 is empty.
    private var slots: [Int32] = []
    private var mask = 0
    private var filled = 0
    private var limit = 0

    /// Empties the table for up to `count` records.
    mutating func reset(count: Int) {
        var size = 16
        while size < count * 2 { size *= 2 }
        if slots.count == size {
            for index in slots.indices { slots[index] = 0 }
        } else {
            slots = Array(repeating: 0, count: size)
        }
        mask = size - 1
        filled = 0
        limit = count
    }

    /// The record already in the table whose identity `same` says equals `record`'s (both
    /// hashing to `hash`); nil after adding `record`.
    mutating func firstOrInsert(_ record: Int, hash: Int, same: (Int) -> Bool) -> Int? {
        precondition(filled < limit, "more records than the table was reset for")
        var index = hash & mask
        while slots[index] != 0 {
            let other = Int(slots[index]) - 1
            if same(other) { return other }
            index = (index + 1) & mask
        }
        slots[index] = Int32(record + 1)
        filled += 1
        return nil
    }

    /// The record in the table that hashes to `hash` and that `matches` accepts, if any; adds
    /// nothing.
    func first(hash: Int, where matches: (Int) -> Bool) -> Int? {
        guard !slots.isEmpty else { return nil }
        var index = hash & mask
        while slots[index] != 0 {
            let record = Int(slots[index]) - 1
            if matches(record) { return record }
            index = (index + 1) & mask
        }
        return nil
    }

    /// The hash of the identity made of `cells` (bytes in `arena`), or nil when a part is
    /// missing or null: such a record is inserted as new.
    static func hash(_ cells: some Sequence<Cell>, in arena: UnsafeRawBufferPointer) -> Int? {
        var hash = SeededHash()
        for cell in cells {
            hash.combine(UInt64(cell.kind.rawValue))
            switch cell.kind {
            case .missing, .null:
                return nil
            case .integer:
                hash.combine(cell.bits)
            case .real:
                // -0.0 equals 0.0 (`Cell.equals`), so both hash alike.
                hash.combine(cell.real == 0 ? 0 : cell.bits)
            case .text, .blob:
                hash.combine(bytes: cell.bytes(in: arena))
            }
        }
        return Int(truncatingIfNeeded: hash.value)
    }
}
