/// The rows of a relationship's targets by id, as `LinkWriter` keeps them from batch to batch
/// (`known`): an open-addressing table whose hash reads a text id's bytes a word at a time,
/// and which compares ids as the database does (text by its bytes).
///
/// A `Dictionary<ColumnValue, Int64>` hashes a `String` with SipHash, and W3's stop times look
/// up a stop id each: the dictionary's search was 79 M of the re-import writer's 1,384 M
/// instructions (callgrind, scale 0.05). The hash here takes a per-process random seed, as
/// Swift's `Hasher` does, so that no input can be made to collide on purpose; the table holds
/// at most `LinkWriter.knownIDsLimit` ids between emptyings.
struct KnownIDs {
    private var keys: [ColumnValue] = []
    private var pks: [Int64] = []
    private var hashes: [UInt64] = []
    /// Per slot: the entry there, or -1. Its count is a power of two, at least twice `count`.
    private var slots: [Int32] = []

    var count: Int { keys.count }
    var isEmpty: Bool { keys.isEmpty }

    /// The row of `key`, nil when it is not known.
    subscript(key: ColumnValue) -> Int64? {
        guard !keys.isEmpty, let entry = probe(key, Self.hash(key)).entry else { return nil }
        return pks[entry]
    }

    /// Knows `key` as the row `pk` (replacing what it knew of `key`).
    mutating func set(_ key: ColumnValue, _ pk: Int64) {
        if (keys.count + 1) * 2 > slots.count { grow() }
        let hash = Self.hash(key)
        let (slot, entry) = probe(key, hash)
        if let entry {
            pks[entry] = pk
            return
        }
        slots[slot] = Int32(keys.count)
        keys.append(key)
        pks.append(pk)
        hashes.append(hash)
    }

    /// Where `key`, of `hash`, is: its entry and slot, or the empty slot it would take.
    @inline(__always)
    private func probe(_ key: ColumnValue, _ hash: UInt64) -> (slot: Int, entry: Int?) {
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        while true {
            let entry = Int(slots[slot])
            if entry < 0 { return (slot, nil) }
            if hashes[entry] == hash, Self.same(keys[entry], key) { return (slot, entry) }
            slot = (slot + 1) & mask
        }
    }

    /// Knows every id of `found`, its row where one was known.
    mutating func merge(_ found: KnownIDs) {
        if isEmpty {
            self = found
            return
        }
        for (key, pk) in zip(found.keys, found.pks) { set(key, pk) }
    }

    mutating func removeAll() {
        keys.removeAll(keepingCapacity: true)
        pks.removeAll(keepingCapacity: true)
        hashes.removeAll(keepingCapacity: true)
        for slot in slots.indices { slots[slot] = -1 }
    }

    private mutating func grow() {
        let capacity = max(64, slots.count * 2)
        slots = Array(repeating: -1, count: capacity)
        let mask = capacity - 1
        for (entry, hash) in hashes.enumerated() {
            var slot = Int(truncatingIfNeeded: hash) & mask
            while slots[slot] >= 0 { slot = (slot + 1) & mask }
            slots[slot] = Int32(entry)
        }
    }

    private static let seed = UInt64.random(in: .min ... .max)

    /// Whether two ids are one as the database compares them: texts by their bytes (Swift's
    /// `==` would take `ü` and `u` + U+0308 for one id, which SQLite's `IN` and the second
    /// pass's join do not), any other kind by value.
    @inline(__always)
    static func same(_ left: ColumnValue, _ right: ColumnValue) -> Bool {
        // Unequal as values (texts as Unicode): unequal bytes. Equal, and other than texts:
        // the database's equality too. Two texts of one representation (the same short text
        // inline, or one string handed out again, as `RecentTextIDs` does) are the same bytes;
        // only two spellings of one text are left to compare byte by byte.
        guard left == right else { return false }
        guard case .text = left, !Self.sameRepresentation(left, right) else { return true }
        return sameBytes(left, right)
    }

    @inline(never)
    private static func sameBytes(_ left: ColumnValue, _ right: ColumnValue) -> Bool {
        guard case .text(var left) = left, case .text(var right) = right else { return false }
        return left.withUTF8 { leftBytes in
            right.withUTF8 { rightBytes in
                leftBytes.count == rightBytes.count
                    && (leftBytes.isEmpty || MemoryBytes.equal(leftBytes.baseAddress!, rightBytes.baseAddress!, count: leftBytes.count))
            }
        }
    }

    @inline(__always)
    private static func sameRepresentation(_ left: borrowing ColumnValue, _ right: borrowing ColumnValue) -> Bool {
        withUnsafeBytes(of: left) { leftBits in
            withUnsafeBytes(of: right) { rightBits in
                MemoryBytes.equal(leftBits.baseAddress!, rightBits.baseAddress!, count: leftBits.count)
            }
        }
    }

    /// The hash of an id: a text's UTF-8 bytes eight at a time, an integer's value; any other
    /// kind (ids are text or integers) through `Hasher`.
    static func hash(_ key: ColumnValue) -> UInt64 {
        switch key {
        case .text(var text):
            // A short id is a small string, held inline: `withUTF8` reads it in place.
            return text.withUTF8 { hash(UnsafeRawBufferPointer($0)) }
        case .integer(let number):
            return mix(seed ^ UInt64(bitPattern: number) ^ 0x5851_F42D_4C95_7F2D)
        default:
            var hasher = Hasher()
            hasher.combine(key)
            return UInt64(bitPattern: Int64(hasher.finalize()))
        }
    }

    private static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var state = seed ^ (UInt64(bytes.count) &* 0x9E37_79B9_7F4A_7C15)
        var offset = 0
        while offset + 8 <= bytes.count {
            state = mix(state ^ bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            offset += 8
        }
        if offset < bytes.count {
            var tail: UInt64 = 0
            for index in offset..<bytes.count { tail = tail << 8 | UInt64(bytes[index]) }
            state = mix(state ^ tail)
        }
        return state
    }

    /// SplitMix64's finaliser: every input bit reaches every output bit.
    @inline(__always)
    private static func mix(_ value: UInt64) -> UInt64 {
        var z = value &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
