internal import CPrefetch

/// The rows of a relationship's targets by id, as `LinkWriter` keeps them from batch to batch
/// (`known`): an open-addressing table whose hash reads a text id's bytes a word at a time,
/// and which compares ids as the database does (text by its bytes).
///
/// A `Dictionary<ColumnValue, Int64>` hashes a `String` with SipHash, and W3's stop times look
/// up a stop id each: the dictionary's search was 79 M of the re-import writer's 1,384 M
/// instructions (callgrind, scale 0.05). The hash here is `SeededHash`; the table holds at most
/// `LinkWriter.knownIDsLimit` ids between emptyings.
struct KnownIDs {
    /// The ids known and their rows, in the order they were first set.
    private var entries: [Entry] = []
    /// Open addressing, linear probing: per slot, the high 32 bits of its entry's hash and the
    /// entry's index plus one (0: empty), in one word. Its count is a power of two, at least
    /// twice `count`. Small, so that it stays in the cache: W3's re-import at scale 1 looks a
    /// stop id up per stop time among 13,000, and spent 7–8% of its time waiting for memory
    /// there with ids, hashes and rows each in an array of its own, or all in the slots.
    private var slots: [UInt64] = []

    private struct Entry {
        var key: ColumnValue
        var pk: Int64
    }

    var count: Int { entries.count }
    /// The largest row known, nil when none is.
    var largestPK: Int64? { entries.lazy.map(\.pk).max() }
    var isEmpty: Bool { entries.isEmpty }

    /// The row of `key`, nil when it is not known.
    subscript(key: ColumnValue) -> Int64? {
        guard !entries.isEmpty, let entry = probe(key, Self.hash(key)).entry else { return nil }
        return entries[entry].pk
    }

    /// Knows `key` as the row `pk` (replacing what it knew of `key`).
    mutating func set(_ key: ColumnValue, _ pk: Int64) {
        if (entries.count + 1) * 2 > slots.count { grow() }
        let hash = Self.hash(key)
        let (slot, entry) = probe(key, hash)
        if let entry {
            entries[entry].pk = pk
            return
        }
        entries.append(Entry(key: key, pk: pk))
        slots[slot] = Self.slotValue(hash: hash, entry: entries.count - 1)
    }

    private static func slotValue(hash: UInt64, entry: Int) -> UInt64 {
        hash & 0xFFFF_FFFF_0000_0000 | UInt64(entry + 1)
    }

    /// The rows of `keys` in order, nil where one is not known: what the subscript gives, key
    /// by key (`KnownIDsTests`), found a group of keys at a time. The group's hashes first,
    /// each asking the processor for the key's slot (`sluice_prefetch`), then each slot read
    /// and its entry asked for, then the probes, which find both at hand. By the time the next
    /// batch asks, a table of 13,000 stop ids is no longer in the processor's caches (the
    /// batch's own rows passed through them), and key by key each probe waited for two reads
    /// from memory, the entry's after the slot's: 24% of W3's re-import writer thread, 4% in
    /// groups (`perf`, scale 1, `docs/performance.md`). Reads that do not wait for one another
    /// are waited for together.
    func rows(of keys: [ColumnValue]) -> [Int64?] {
        guard !entries.isEmpty else { return Array(repeating: nil, count: keys.count) }
        var rows: [Int64?] = []
        rows.reserveCapacity(keys.count)
        withUnsafeTemporaryAllocation(of: UInt64.self, capacity: Self.group) { hashes in
            slots.withUnsafeBufferPointer { slots in
                entries.withUnsafeBufferPointer { entries in
                    let mask = slots.count - 1
                    var start = 0
                    while start < keys.count {
                        let end = min(start + Self.group, keys.count)
                        for index in start..<end {
                            let hash = Self.hash(keys[index])
                            hashes[index - start] = hash
                            sluice_prefetch(slots.baseAddress! + (Int(truncatingIfNeeded: hash) & mask))
                        }
                        for index in 0..<end - start {
                            let value = slots[Int(truncatingIfNeeded: hashes[index]) & mask]
                            if value != 0 { sluice_prefetch(entries.baseAddress! + Int(truncatingIfNeeded: value & 0xFFFF_FFFF) - 1) }
                        }
                        for index in start..<end {
                            let entry = Self.probe(keys[index], hashes[index - start], slots: slots, entries: entries).entry
                            rows.append(entry.map { entries[$0].pk })
                        }
                        start = end
                    }
                }
            }
        }
        return rows
    }

    /// Keys per group of `rows(of:)`: enough reads from memory at once to fill the processor's
    /// queue of them, few enough that the first group's lines are still there for the probes.
    private static let group = 32

    /// Where `key`, of `hash`, is: its entry and slot, or the empty slot it would take.
    private func probe(_ key: ColumnValue, _ hash: UInt64) -> (slot: Int, entry: Int?) {
        slots.withUnsafeBufferPointer { slots in
            entries.withUnsafeBufferPointer { entries in Self.probe(key, hash, slots: slots, entries: entries) }
        }
    }

    private static func probe(_ key: ColumnValue, _ hash: UInt64, slots: UnsafeBufferPointer<UInt64>,
                              entries: UnsafeBufferPointer<Entry>) -> (slot: Int, entry: Int?) {
        let mask = slots.count - 1
        let tag = hash & 0xFFFF_FFFF_0000_0000
        var slot = Int(truncatingIfNeeded: hash) & mask
        while true {
            let value = slots[slot]
            if value == 0 { return (slot, nil) }
            let entry = Int(truncatingIfNeeded: value & 0xFFFF_FFFF) - 1
            if value & 0xFFFF_FFFF_0000_0000 == tag, same(entries[entry].key, key) { return (slot, entry) }
            slot = (slot + 1) & mask
        }
    }

    /// Knows every id of `found`, its row where one was known.
    mutating func merge(_ found: KnownIDs) {
        if isEmpty {
            self = found
            return
        }
        for entry in found.entries { set(entry.key, entry.pk) }
    }

    mutating func removeAll() {
        entries.removeAll(keepingCapacity: true)
        for slot in slots.indices { slots[slot] = 0 }
    }

    private mutating func grow() {
        let capacity = max(64, slots.count * 2)
        slots = Array(repeating: 0, count: capacity)
        let mask = capacity - 1
        for (index, entry) in entries.enumerated() {
            let hash = Self.hash(entry.key)
            var slot = Int(truncatingIfNeeded: hash) & mask
            while slots[slot] != 0 { slot = (slot + 1) & mask }
            slots[slot] = Self.slotValue(hash: hash, entry: index)
        }
    }

    /// Whether two ids are one as the database compares them: texts by their bytes (Swift's
    /// `==` would take `ü` and `u` + U+0308 for one id, which SQLite's `IN` and the second
    /// pass's join do not), any other kind by value.
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

    private static func sameRepresentation(_ left: borrowing ColumnValue, _ right: borrowing ColumnValue) -> Bool {
        withUnsafeBytes(of: left) { leftBits in
            withUnsafeBytes(of: right) { rightBits in
                MemoryBytes.equal(leftBits.baseAddress!, rightBits.baseAddress!, count: leftBits.count)
            }
        }
    }

    /// The hash of an id (`SeededHash`): a text's UTF-8 bytes, an integer's value; any other
    /// kind (ids are text or integers) through `Hasher`.
    static func hash(_ key: ColumnValue) -> UInt64 {
        var hash = SeededHash()
        switch key {
        case .text(var text):
            // A short id is a small string, held inline: `withUTF8` reads it in place.
            text.withUTF8 { hash.combine(bytes: UnsafeRawBufferPointer($0)) }
        case .integer(let number):
            hash.combine(UInt64(bitPattern: number) ^ 0x5851_F42D_4C95_7F2D)
        default:
            var hasher = Hasher()
            hasher.combine(key)
            return UInt64(bitPattern: Int64(hasher.finalize()))
        }
        return hash.value
    }
}
