import SluiceTestSupport
import Testing
@testable import Sluice

/// `KnownIDs` answers as the `Dictionary<ColumnValue, Int64>` it replaced, but for texts equal
/// only as Unicode (which the database, comparing bytes, keeps apart): the same rows for the
/// same ids through growth, replacement, merges and emptying, whatever the kinds of ids.
@Suite struct KnownIDsTests {
    @Test func idsOfEveryKindAreKeptApart() {
        var known = KnownIDs()
        #expect(known.isEmpty && known[.text("1")] == nil)
        known.set(.text("1"), 10)
        known.set(.integer(1), 11)
        known.set(.real(1), 12)
        known.set(.text(""), 13)
        known.set(.text("ü"), 14)
        #expect(known.count == 5)
        #expect(known[.text("1")] == 10 && known[.integer(1)] == 11 && known[.real(1)] == 12)
        // Texts are one id when their bytes are, as in the database: `ü` is not `u` + U+0308.
        #expect(known[.text("")] == 13 && known[.text("ü")] == 14 && known[.text("u\u{308}")] == nil)
        #expect(known[.integer(2)] == nil && known[.null] == nil)
        known.set(.text("1"), 20)
        #expect(known.count == 5 && known[.text("1")] == 20)
        known.removeAll()
        #expect(known.isEmpty && known[.text("1")] == nil)
        known.set(.text("1"), 30)
        #expect(known[.text("1")] == 30 && known.count == 1)
    }

    /// Generated ids (short and long texts sharing prefixes, integers, a few other kinds),
    /// set, merged and emptied in random order, against a dictionary.
    @Test(arguments: 0..<30 as Range<UInt64>)
    func answersAsADictionary(seed: UInt64) {
        var random = PropertyRandom(seed: seed)
        var known = KnownIDs()
        var oracle: [ColumnValue: Int64] = [:]
        func id() -> ColumnValue {
            switch random.below(10) {
            case 0: return .integer(Int64(random.int(-50...50)))
            case 1: return .real(Double(random.int(0...5)) / 2)
            case 2: return .text(String(repeating: "stop-", count: random.int(1...5)) + "\(random.int(0...9))")
            default: return .text("S\(random.int(0...400))")
            }
        }
        for _ in 0..<random.int(1...3_000) {
            switch random.below(100) {
            case 0:
                known.removeAll()
                oracle.removeAll()
            case 1...5:
                var found = KnownIDs()
                for _ in 0..<random.int(0...40) {
                    let key = id(), pk = Int64(random.int(1...1_000))
                    found.set(key, pk)
                    oracle[key] = pk
                }
                known.merge(found)
            case 6...55:
                let key = id(), pk = Int64(random.int(1...1_000))
                known.set(key, pk)
                oracle[key] = pk
            default:
                let key = id()
                #expect(known[key] == oracle[key], "seed \(seed): \(key)")
            }
            #expect(known.count == oracle.count)
        }
        for (key, pk) in oracle { #expect(known[key] == pk) }
        // Many keys at once (`rows(of:)`, groups of reads asked for ahead) answer as one at a
        // time: known and unknown, repeated, a group's length and more or fewer, in any order.
        let knownKeys = oracle.keys.sorted { "\($0)" < "\($1)" }
        for _ in 0..<20 {
            let keys = (0..<random.int(0...100)).map { _ in random.below(3) == 0 && !knownKeys.isEmpty ? random.pick(knownKeys) : id() }
            #expect(known.rows(of: keys) == keys.map { known[$0] }, "seed \(seed): \(keys)")
            #expect(known.rows(of: keys) == keys.map { oracle[$0] }, "seed \(seed): \(keys)")
        }
    }

    /// An empty table knows none of many keys, and no keys ask for nothing.
    @Test func manyKeysOfAnEmptyTableOrNone() {
        var known = KnownIDs()
        #expect(known.rows(of: [.text("a"), .integer(1)]) == [nil, nil])
        known.set(.text("a"), 1)
        #expect(known.rows(of: []) == [])
        #expect(known.rows(of: [.text("a"), .text("b"), .text("a")]) == [1, nil, 1])
    }

    /// An id that is another's text only as Unicode links nothing, whether the other was
    /// looked up in an earlier batch, in the same one, or is a record of the same batch: the
    /// database compares bytes, and so do the ids kept.
    @Test(arguments: [1, 2, 3, 100])
    func anIDEqualOnlyAsUnicodeIsNotTheSameRow(batchSize: Int) throws {
        let model = try Model.parse(Array("""
            { "root": { "stops": "Stop", "times": "Time" },
              "entities": {
                "Stop": { "table": "stops", "identity": "id", "attributes": { "id": "string" } },
                "Time": { "table": "times", "identity": "n", "attributes": { "n": "integer" },
                          "relationships": { "stop": { "entity": "Stop", "key": "stop" } } } } }
            """.utf8), sourceName: "model")
        // Batch 2 finds `ü` (composed); batch 3 names it decomposed.
        let input = #"{"stops": [{"id": "ü"}], "times": [{"n": 1, "stop": "ü"}, {"n": 2, "stop": "ü"}]}"#
        let directory = TemporaryDirectory()
        let db = directory.file("t.sqlite")
        var options = ImportOptions()
        options.batchSize = batchSize
        let importer = try Importer(databasePath: db, model: model, options: options)
        try importer.importBytes(Array(input.utf8))
        let report = try importer.finish()
        #expect(try query(db, "SELECT n, stop_pk FROM times ORDER BY n") == [[.integer(1), .integer(1)], [.integer(2), .null]])
        #expect(report.unresolved == 1)
    }
}
