/// The keys of the objects inside records, matched against the plan's key trie: a part of
/// `RecordAssembler`, tested on its own (`KeyMatcherTests`). An object of a trie node opens
/// (`enter`), then each of its keys is matched to the child node that says what its value is
/// (`match`), or to nothing when no attribute or relationship maps it.
///
/// It learns the order records list their keys in as they stream past: which key of a node
/// came first last time, and which key followed each one; matching tries that key first
/// (`EventPlan.keyIndex(in:keyBytes:from:count:_:hint:)`). Why learned, not taken from the
/// model: data lists its keys in its own order, and an optional key present in some records
/// only moves the ones after it. Trying "the key after the last one found" in the model's
/// order missed once a record or more in W1 (its first key, and the key after an absent
/// optional one), each miss a scan with a `memcmp` for the long keys. A wrong guess costs one
/// comparison and is learned over; the key found is the same.
///
/// It also keeps which keys were found and a sample of those that were not, for the import's
/// notes (`KeySightings`). Noncopyable: it owns its buffers; its state is private.
struct KeyMatcher: ~Copyable {
    private let nodes: UnsafeBufferPointer<EventPlan.Node>
    private let keys: UnsafeBufferPointer<EventPlan.Key>
    private let keyBytes: UnsafeBufferPointer<UInt8>
    /// Whether the learned key is tried first (`FastPaths`); when not, every key is looked
    /// for from its node's first.
    private let triesLearnedKey: Bool
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
    private var unmappedBudget = KeyMatcher.unmappedSampleLimit
    static let unmappedSampleLimit = 10_000

    init(_ plan: EventPlan, triesLearnedKey: Bool = true) {
        nodes = plan.keyNodes
        keys = plan.keys
        keyBytes = plan.keyBytes
        self.triesLearnedKey = triesLearnedKey
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
    mutating func enter(_ node: Int) {
        hint = Int(first[node])
        previous = -1 - node
    }

    /// A key of the object of key trie node `node` (the one open, `enter`): the child node its
    /// value stands at, or nil when the plan does not map it (then kept in the sample).
    @inline(__always)  // forced: docs/performance.md#forced-inlining
    mutating func match(_ key: UnsafeRawBufferPointer, in node: Int) -> Int? {
        let keyNode = nodes[node]
        guard let index = EventPlan.keyIndex(in: keys, keyBytes: keyBytes, from: Int(keyNode.firstKey),
                                             count: Int(keyNode.keyCount), key, hint: triesLearnedKey ? hint : -1)
        else {
            if unmappedBudget > 0 { sampleUnmapped(key, node: node) }
            return nil
        }
        found(index)
        return Int(keys[index].node)
    }

    /// The key at `index` was found: it is learned as the successor of the one before, and
    /// the key that followed it last time is guessed next.
    @inline(__always)  // forced: docs/performance.md#forced-inlining
    private mutating func found(_ index: Int) {
        if index != hint {
            if previous >= 0 { next[previous] = Int32(index) } else { first[-1 - previous] = Int32(index) }
        }
        previous = index
        hint = Int(next[index])
        seen[index] = 1
    }

    @inline(never)
    private mutating func sampleUnmapped(_ key: UnsafeRawBufferPointer, node: Int) {
        unmappedBudget -= 1
        unmapped[node, default: []].insert(String(decoding: key, as: UTF8.self))
    }

    /// Whether a key the plan does not map is still sampled (`match` must see it): a caller
    /// that remembers a name's match may skip `match` for a mapped name, and for an unmapped
    /// one once this is false.
    var samplesUnmapped: Bool { unmappedBudget > 0 }

    /// The keys found, indexed like `EventPlan.keys`.
    var seenKeys: [Bool] { seen.map { $0 != 0 } }

    /// Sets `result[index]` for each key found (`seenKeys` without making an array: an import
    /// of thousands of inputs, each with its matcher, adds them all up).
    func markSeenKeys(in result: inout [Bool]) {
        for index in seen.indices where seen[index] != 0 { result[index] = true }
    }
}
