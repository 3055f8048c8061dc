/// The order records list their keys in, learned as they stream past: which key of a node
/// came first last time, and which key followed each one. The key lookup tries that key
/// first (`EventPlan.keyIndex(in:keyBytes:from:count:_:hint:)`).
///
/// Why learned, not taken from the model: data lists its keys in its own order, and an
/// optional key present in some records only moves the ones after it. Trying "the key after
/// the last one found" in the model's order missed once a record or more in W1 (its first
/// key, and the key after an absent optional one), each miss a scan with a `memcmp` for the
/// long keys. A wrong guess costs one comparison and is learned over.
struct KeyOrder: ~Copyable {
    /// Per key (indexed like `EventPlan.keys`): the key found after it last time.
    private let next: UnsafeMutableBufferPointer<Int32>
    /// Per key trie node: the first key found in its object last time.
    private let first: UnsafeMutableBufferPointer<Int32>
    /// The key found last in the current object, or `-1 - node` before its first key.
    private var previous = -1
    /// The key to try first for the next key.
    private(set) var hint = -1
    /// Per key: 1 once it was found in a record. One store per key found, so that an import
    /// can say which of the model's keys never appeared (`ImportNotes`).
    private let seen: UnsafeMutableBufferPointer<UInt8>
    /// Keys of records that no attribute maps, by key trie node: the names a key that never
    /// appeared may have been meant as. Sampled: the first `unmappedSampleLimit` such keys.
    private(set) var unmapped: [Int: Set<String>] = [:]
    private var unmappedBudget = KeyOrder.unmappedSampleLimit
    static let unmappedSampleLimit = 10_000

    init(_ plan: EventPlan) {
        seen = .allocate(capacity: plan.keys.count)
        seen.initialize(repeating: 0)
        next = .allocate(capacity: plan.keys.count)
        for index in next.indices { next[index] = Int32(index + 1) }
        first = .allocate(capacity: plan.keyNodes.count)
        for (index, node) in plan.keyNodes.enumerated() { first[index] = node.firstKey }
    }

    deinit {
        seen.deallocate()
        next.deallocate()
        first.deallocate()
    }

    /// An object of key trie node `node` opens: its first key is guessed.
    @inline(__always)
    mutating func enter(_ node: Int) {
        hint = Int(first[node])
        previous = -1 - node
    }

    /// The key at `index` was found: it is learned as the successor of the one before, and
    /// the key that followed it last time is guessed next.
    @inline(__always)
    mutating func found(_ index: Int) {
        if index != hint {
            if previous >= 0 { next[previous] = Int32(index) } else { first[-1 - previous] = Int32(index) }
        }
        previous = index
        hint = Int(next[index])
        seen[index] = 1
    }

    /// A key of node `node`'s object that the plan does not map: kept while the sample lasts.
    @inline(__always)
    mutating func missed(_ key: UnsafeRawBufferPointer, node: Int) {
        if unmappedBudget > 0 { sampleUnmapped(key, node: node) }
    }

    @inline(never)
    private mutating func sampleUnmapped(_ key: UnsafeRawBufferPointer, node: Int) {
        unmappedBudget -= 1
        unmapped[node, default: []].insert(String(decoding: key, as: UTF8.self))
    }

    /// The keys found, indexed like `EventPlan.keys`.
    var seenKeys: [Bool] { seen.map { $0 != 0 } }
}
