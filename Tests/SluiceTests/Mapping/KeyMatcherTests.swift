import Testing
@testable import Sluice

/// `KeyMatcher` driven with keys by hand (no parser): what each key of a record's objects
/// matches, whatever their order, and the order it learns to try first.
@Suite struct KeyMatcherTests {
    /// Records of `R`: keys `a`, `b`, `c` (attributes 0-2) and `loc.code` (attribute 3).
    final class Keys {
        let storage: EventPlan.Storage
        var events: EventPlan { storage.plan }
        var root: Int { Int(events.entities[0].rootNode) }

        init() throws {
            let entity = Model.Entity(name: "R", attributes: ["a", "b", "c"].map { .init(name: $0, type: .integer) }
                                          + [.init(name: "d", type: .integer, keys: [JSONKeyPath(parsing: "loc.code")])])
            storage = EventPlan.Storage(try MappingPlan(model: Model(root: .entity("R"), entities: [entity])))
        }

        /// The index in `EventPlan.keys` of `key` among node `node`'s keys.
        func index(_ key: String, in node: Int? = nil) -> Int {
            let node = events.keyNodes[node ?? root]
            return Array(key.utf8).withUnsafeBytes { bytes in
                EventPlan.keyIndex(in: events.keys, keyBytes: events.keyBytes, from: Int(node.firstKey),
                                   count: Int(node.keyCount), bytes, hint: -1)!
            }
        }

        /// The attributes the value at key trie node `node` fills.
        func attributes(at node: Int?) -> [Int] {
            guard let node else { return [] }
            return events.targets(of: events.keyNodes[node]).map { Int($0.index) }
        }
    }

    private func match(_ key: String, _ matcher: inout KeyMatcher, in node: Int) -> Int? {
        Array(key.utf8).withUnsafeBytes { matcher.match($0, in: node) }
    }

    /// The key tried first is the one that came first, or next, in the records before: the
    /// model's order until a record shows another, then the data's.
    @Test func theOrderOfTheRecordsIsLearned() throws {
        let keys = try Keys()
        var matcher = KeyMatcher(keys.events)
        matcher.enter(keys.root)
        #expect(matcher.hint == keys.index("a"))
        _ = match("a", &matcher, in: keys.root)
        #expect(matcher.hint == keys.index("b"))

        // A record lists c, then a: both are learned.
        matcher.enter(keys.root)
        _ = match("c", &matcher, in: keys.root)
        _ = match("a", &matcher, in: keys.root)
        matcher.enter(keys.root)
        #expect(matcher.hint == keys.index("c"))
        _ = match("c", &matcher, in: keys.root)
        #expect(matcher.hint == keys.index("a"))
        _ = match("a", &matcher, in: keys.root)
        #expect(matcher.hint == keys.index("b"))
    }

    /// Keys in the expected order, out of it, repeated or after unknown ones match the same
    /// nodes, whether the learned key is tried first or not.
    @Test(arguments: [true, false]) func anyOrderMatchesTheSameKeys(triesLearnedKey: Bool) throws {
        let keys = try Keys()
        var matcher = KeyMatcher(keys.events, triesLearnedKey: triesLearnedKey)
        for record in [["a", "b", "c"], ["c", "b", "a"], ["b", "x", "a", "a", "c"], ["c"], ["a", "c", "b"]] {
            matcher.enter(keys.root)
            for key in record {
                let matched = keys.attributes(at: match(key, &matcher, in: keys.root))
                #expect(matched == (key == "x" ? [] : [["a": 0, "b": 1, "c": 2][key]!]), "\(key) in \(record)")
            }
        }
    }

    /// A key no attribute maps matches nothing and is kept in the sample of its node; the keys
    /// found are kept for the import's notes.
    @Test func unknownKeysMatchNothingAndAreSampled() throws {
        let keys = try Keys()
        var matcher = KeyMatcher(keys.events)
        matcher.enter(keys.root)
        #expect(match("b", &matcher, in: keys.root) != nil)
        #expect(match("bb", &matcher, in: keys.root) == nil)
        #expect(match("", &matcher, in: keys.root) == nil)
        #expect(match("c", &matcher, in: keys.root) != nil)
        #expect(matcher.unmapped == [keys.root: ["bb", ""]])
        var seen = Array(repeating: false, count: keys.events.keys.count)
        seen[keys.index("b")] = true
        seen[keys.index("c")] = true
        #expect(matcher.seenKeys == seen)
    }

    /// A nested object's keys are matched among its node's keys only; the record's keys after
    /// it match again once the nested object is done.
    @Test func aNestedObjectHasItsOwnKeys() throws {
        let keys = try Keys()
        var matcher = KeyMatcher(keys.events)
        matcher.enter(keys.root)
        _ = match("a", &matcher, in: keys.root)
        guard let loc = match("loc", &matcher, in: keys.root) else {
            Issue.record("loc is a key of the record")
            return
        }
        #expect(keys.attributes(at: loc) == [])
        matcher.enter(loc)
        #expect(matcher.hint == keys.index("code", in: loc))
        #expect(match("a", &matcher, in: loc) == nil)  // the record's key, not the nested object's
        #expect(keys.attributes(at: match("code", &matcher, in: loc)) == [3])
        #expect(match("code", &matcher, in: keys.root) == nil)
        #expect(keys.attributes(at: match("b", &matcher, in: keys.root)) == [1])
        #expect(matcher.unmapped == [loc: ["a"], keys.root: ["code"]])
    }
}
