import SluiceTestSupport
import Testing
@testable import Sluice

/// Ids a batch names for the first time are looked for among the target rows after the last
/// ones found (`LinkWriter+TargetsInKeyOrder.swift`): one read where records name their targets
/// in writing order, the `IN` lookup for the rest, and the same rows found either way.
@Suite struct TargetsInKeyOrderTests {
    private static let model: Model = try! Model.parse(Array("""
        { "root": { "stops": "Stop", "times": "Time" },
          "entities": {
            "Stop": { "table": "stops", "identity": "id", "attributes": { "id": "string" } },
            "Time": { "table": "times", "identity": "n", "attributes": { "n": "integer" },
                      "relationships": { "stop": { "entity": "Stop", "key": "stop" } } } } }
        """.utf8), sourceName: "model")

    private static func input(stops: [String], times: [String?]) -> String {
        let stops = stops.map { #"{"id": "\#($0)"}"# }.joined(separator: ", ")
        let times = times.enumerated().map { n, stop in
            stop.map { #"{"n": \#(n), "stop": "\#($0)"}"# } ?? #"{"n": \#(n)}"#
        }.joined(separator: ", ")
        return #"{"stops": [\#(stops)], "times": [\#(times)]}"#
    }

    private static func options(batchSize: Int, fastPaths: Bool) -> ImportOptions {
        var options = ImportOptions()
        options.batchSize = batchSize
        options.fastPaths = fastPaths
        return options
    }

    /// Each stop id with the stop's row, per time.
    private static func links(_ db: String) throws -> [[ColumnValue]] {
        try query(db, #"SELECT t.n, s.id FROM times t LEFT JOIN stops s ON s.pk = t.stop_pk ORDER BY t.n"#)
    }

    @Test func idsNamedInWritingOrderAreFoundByReadingOn() throws {
        let stops = (0..<30).map { "S\($0)" }
        let directory = TemporaryDirectory()
        let db = directory.file("t.sqlite")
        let sql = try importTracingSQL(Self.input(stops: stops, times: stops), model: Self.model, into: db,
                                       options: Self.options(batchSize: 10, fastPaths: true))
        #expect(try Self.links(db) == stops.enumerated().map { [.integer(Int64($0)), .text($1)] })
        // One read of ten rows per batch of times; no id looked up by the index.
        #expect(sql.filter { $0.contains(#"FROM "stops" WHERE "pk" > "#) }.count == 3)
        #expect(!sql.contains { $0.contains(#"FROM "stops" WHERE "id" IN ("#) })
    }

    @Test func idsInAnotherOrderAreLookedUpAsBefore() throws {
        let stops = (0..<30).map { "S\($0)" }
        let directory = TemporaryDirectory()
        let db = directory.file("t.sqlite")
        let sql = try importTracingSQL(Self.input(stops: stops, times: stops.reversed()), model: Self.model, into: db,
                                       options: Self.options(batchSize: 10, fastPaths: true))
        #expect(try Self.links(db) == stops.reversed().enumerated().map { [.integer(Int64($0)), .text($1)] })
        // The first read finds nothing of S29…S20: the next batch does not read, and every id
        // is looked up by the index.
        #expect(sql.filter { $0.contains(#"FROM "stops" WHERE "pk" > "#) }.count == 2)
        #expect(sql.filter { $0.contains(#"FROM "stops" WHERE "id" IN ("#) }.count == 3)
    }

    /// A row is taken only for an id equal to it byte for byte: `ü` composed is not `u` and
    /// U+0308, which the database keeps apart too.
    @Test func aRowReadIsTakenOnlyForItsIDByteForByte() throws {
        let directory = TemporaryDirectory()
        let db = directory.file("t.sqlite")
        try importJSON(Self.input(stops: ["\u{FC}", "x"], times: ["u\u{308}", "x"]), model: Self.model, into: db,
                       options: Self.options(batchSize: 2, fastPaths: true))
        #expect(try Self.links(db) == [[.integer(0), .null], [.integer(1), .text("x")]])
    }

    /// Generated stops (ids sharing prefixes, Unicode look-alikes) written in some order, and
    /// times naming them in writing order, shuffled, in runs, or not at all, in batches of 1 to
    /// 7, re-imported: the same links and report as the general path's.
    @Test(arguments: 0..<30 as Range<UInt64>)
    func theRowsFoundAreTheGeneralPaths(seed: UInt64) throws {
        var random = PropertyRandom(seed: seed)
        let pool = (0..<40).map { "S\($0)" } + ["\u{FC}", "u\u{308}", "S", "S0 ", "s1"]
        var stops: [String] = []
        for id in pool where random.chance(60) { stops.append(id) }
        if random.chance(50) { stops.shuffle(using: &random) }
        var times: [String?] = []
        let named = stops + ["missing", "S99"]
        var cursor = 0  // the stops in writing order, some named twice or skipped
        for _ in 0..<random.int(0...60) {
            switch random.below(4) {
            case 0: times.append(random.pick(named))
            case 1: times.append(nil)
            default:
                times.append(stops.isEmpty ? nil : stops[cursor % stops.count])
                cursor += random.int(0...2)
            }
        }
        let json = Self.input(stops: stops, times: times)
        let batchSize = random.int(1...7)
        let directory = TemporaryDirectory()
        var outcomes: [[[ColumnValue]]] = []
        var unresolved: [Int] = []
        for fastPaths in [true, false] {
            let db = directory.file("\(fastPaths).sqlite")
            for _ in 0..<2 {
                let report = try importJSON(json, model: Self.model, into: db,
                                            options: Self.options(batchSize: batchSize, fastPaths: fastPaths))
                unresolved.append(report.unresolved)
            }
            outcomes.append(try Self.links(db))
        }
        #expect(outcomes[0] == outcomes[1], "seed \(seed)")
        #expect(unresolved[0...1] == unresolved[2...3], "seed \(seed)")
    }
}
