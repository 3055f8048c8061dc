import SluiceTestSupport
import Testing
@testable import Sluice

/// A record above the largest identity inserted into a table the import created is new
/// without a lookup (`IdentityCeiling`), and such a table's identity index waits for the end
/// of the load while nothing looks into it (`SecondaryIndexes.deferIdentity`). The ceiling on
/// its own, then imports of generated inputs in every order, both ways (`fastPaths`), which
/// must leave the same rows and counts.
@Suite struct IdentityCeilingTests {
    // MARK: The ceiling on its own

    /// Rows of (text, integer) identities, as a batch holds them.
    static func withRows<T>(_ rows: [[ColumnValue]], _ body: (CellRows) -> T) -> T {
        var arena: [UInt8] = []
        let cells = rows.flatMap { $0.map { Cell($0, in: &arena) } }
        return cells.withUnsafeBufferPointer { cells in
            arena.withUnsafeBytes { arena in body(CellRows(cells: cells, width: 2, arena: arena)) }
        }
    }

    static func ceiling(types: [AttributeType?] = [.string, .integer], hasDefault: [Bool] = [false, false],
                        startedEmpty: Bool = true, fastPaths: Bool = true) -> IdentityCeiling {
        IdentityCeiling(identity: [0, 1], types: types, hasDefault: hasDefault, startedEmpty: startedEmpty, fastPaths: fastPaths)
    }

    /// Which of `probes` are above the ceiling once `inserted` were, batch by batch.
    static func above(_ probes: [(String, Int64)], after inserted: [[(String, Int64)]],
                      _ ceiling: IdentityCeiling = ceiling()) -> [Bool] {
        var ceiling = ceiling
        for batch in inserted {
            withRows(batch.map { [.text($0.0), .integer($0.1)] }) { ceiling.raise(to: Array(batch.indices), in: $0) }
        }
        return withRows(probes.map { [.text($0.0), .integer($0.1)] }) { rows in
            probes.indices.map { ceiling.isAbove($0, in: rows) }
        }
    }

    @Test func everyRecordIsAboveWhileNothingWasInserted() {
        #expect(Self.above([("", 0), ("a", .min)], after: []) == [true, true])
    }

    @Test func idsCountingUpWithLeadingZerosAreAboveByTheirBytes() {
        #expect(Self.above([("T10", 1), ("T09", 3), ("T09", 2), ("T09", 1), ("T08", 9)], after: [[("T09", 2), ("T01", 5)]])
                == [true, true, false, false, false])
    }

    @Test func idsCountingUpWithoutLeadingZerosAreAboveShorterFirst() {
        // "T10" sorts before "T9" by bytes, after it shorter first.
        #expect(Self.above([("T10", 0), ("T9", 1), ("T8", 7), ("U", 0)], after: [[("T8", 1), ("T9", 0)]])
                == [true, true, false, true])
    }

    @Test func theLargestIdentityOfEveryBatchCountsWhateverItsPlace() {
        #expect(Self.above([("b", 1), ("b", 2), ("c", 0)], after: [[("b", 1)], [("a", 9), ("b", 1), ("a", 1)]])
                == [false, true, true])
    }

    @Test func aTextIsNeverAboveItselfNorIsAPrefixAboveItsExtension() {
        // By bytes "ab" < "abc"; shorter first too: neither order puts "ab" above "abc".
        #expect(Self.above([("abc", 1), ("ab", 1), ("abd", 1)], after: [[("abc", 1)]]) == [false, false, true])
    }

    @Test func aTableThatHeldRowsAnotherTypeOrADefaultTurnsItOff() {
        let probe = [("z", Int64(1))]
        #expect(Self.above(probe, after: [], Self.ceiling(startedEmpty: false)) == [false])
        #expect(Self.above(probe, after: [], Self.ceiling(fastPaths: false)) == [false])
        #expect(Self.above(probe, after: [], Self.ceiling(types: [.string, .double])) == [false])
        #expect(Self.above(probe, after: [], Self.ceiling(types: [.string, nil])) == [false])  // a to-one's column
        #expect(Self.above(probe, after: [], Self.ceiling(hasDefault: [false, true])) == [false])
    }

    /// Whether the identities went in in the index's order (by bytes), batch after batch.
    static func inIndexOrder(after inserted: [[(String, Int64)]]) -> Bool {
        var ceiling = ceiling()
        for batch in inserted {
            withRows(batch.map { [.text($0.0), .integer($0.1)] }) { ceiling.raise(to: Array(batch.indices), in: $0) }
        }
        return ceiling.inIndexOrder
    }

    @Test func identitiesInTheIndexsOrderAreToldApart() {
        #expect(Self.inIndexOrder(after: [[("T08", 1), ("T08", 2), ("T09", 0)], [("T10", 0)]]))
        #expect(!Self.inIndexOrder(after: [[("T8", 1), ("T9", 0), ("T10", 0)]]))  // shorter first only
        #expect(!Self.inIndexOrder(after: [[("T8", 1), ("T9", 0)], [("T10", 0)]]))  // across batches
        #expect(!Self.inIndexOrder(after: [[("a", 2), ("a", 1)]]))
        #expect(!Self.inIndexOrder(after: [[("b", 1)], [("c", 1), ("a", 1)]]))  // above the ceiling, not in order
        #expect(!Self.inIndexOrder(after: [[("b", 1)], [("b", 1)]]))  // again: not after it
        var off = Self.ceiling(startedEmpty: false)
        Self.withRows([[.text("a"), .integer(1)]]) { off.raise(to: [0], in: $0) }
        #expect(!off.inIndexOrder)
    }

    @Test func aCellOfAnotherKindTurnsItOffForGood() {
        var ceiling = Self.ceiling()
        // An integer attribute's cell that is text (never made by a converter), where the parts
        // before it are equal: the two identities cannot be ordered.
        Self.withRows([[.text("a"), .integer(1)], [.text("a"), .text("2")]]) { ceiling.raise(to: [0, 1], in: $0) }
        #expect(!ceiling.enabled)
        #expect(Self.withRows([[.text("zz"), .integer(9)]]) { ceiling.isAbove(0, in: $0) } == false)
    }

    // MARK: Imports both ways

    static let model = """
        {"root": {"items": "Item", "groups": "Group"}, "entities": {
          "Item": {"table": "items", "identity": ["code", "n"],
            "attributes": {"code": "string", "n": "integer", "name": "string"},
            "relationships": {"group": {"entity": "Group", "key": "group"}}},
          "Group": {"table": "groups", "identity": "id", "attributes": {"id": "string", "label": "string"}}}}
        """

    /// Items in one of several orders, some repeated in later batches (last record wins), some
    /// without a whole identity; groups (linked into, so their index is kept) likewise.
    static func input(seed: UInt64) -> (bytes: [UInt8], order: String) {
        var random = PropertyRandom(seed: seed)
        let count = random.int(1...120)
        let orders = ["bytes", "shorter first", "random", "descending", "one group"]
        let order = orders[random.int(0...orders.count - 1)]
        var keys: [(code: String, n: Int)] = (0..<count).map { index in
            switch order {
            case "bytes": return ("K" + String(String(index + 100_000).dropFirst()), random.int(0...3))
            case "shorter first", "descending": return ("K\(index)", random.int(0...3))
            case "one group": return ("K", index)
            default: return ("K\(random.int(0...40))", random.int(0...5))
            }
        }
        if order == "descending" { keys.reverse() }
        for _ in 0..<random.int(0...6) where !keys.isEmpty {
            keys.insert(random.pick(keys), at: random.int(0...keys.count))  // again, later or earlier
        }
        let items = keys.enumerated().map { offset, key in
            let code = random.chance(5) ? "null" : "\"\(key.code)\""
            let n = random.chance(5) ? "" : ", \"n\": \(key.n)"
            return "{\"code\": \(code)\(n), \"name\": \"v\(offset)\", \"group\": \"g\(random.int(0...4))\"}"
        }
        let groups = (0..<5).map { "{\"id\": \"g\($0)\", \"label\": \"l\(random.int(0...9))\"}" }
        return (Array("{\"items\": [\(items.joined(separator: ","))], \"groups\": [\(groups.joined(separator: ","))]}".utf8), order)
    }

    static func importing(_ bytes: [UInt8], into path: String, fastPaths: Bool, batchSize: Int = 7) throws
        -> (counts: [ImportReport.EntityCounts], built: [String])
    {
        let calls = ImportProgressTests.Calls()
        var options = ImportOptions()
        options.batchSize = batchSize
        options.fastPaths = fastPaths
        options.progress = { calls.append($0) }
        let importer = try Importer(databasePath: path, model: try Model.parse(Array(model.utf8), sourceName: "model"),
                                    options: options)
        try importer.importBytes(bytes)
        let report = try importer.finish()
        var built: [String] = []
        for call in calls.all {
            if case .indexing(let name) = call.stage, built.last != name { built.append(name) }
        }
        return (report.entities, built)
    }

    static func contents(_ db: String) throws -> [[[ColumnValue]]] {
        try [query(db, "SELECT pk, code, n, name, group_pk FROM items ORDER BY pk"),
             query(db, "SELECT pk, id, label FROM groups ORDER BY pk"),
             query(db, "SELECT name, sql FROM sqlite_schema WHERE type = 'index' ORDER BY name"),
             query(db, "PRAGMA integrity_check")]
    }

    @Test(arguments: 0..<40 as Range<UInt64>)
    func importsTheSameRowsAsTheLookupOfEveryRecord(seed: UInt64) throws {
        let directory = TemporaryDirectory()
        let (bytes, order) = Self.input(seed: seed)
        let fast = try Self.importing(bytes, into: directory.file("fast.sqlite"), fastPaths: true)
        let general = try Self.importing(bytes, into: directory.file("general.sqlite"), fastPaths: false)
        #expect(fast.counts == general.counts, "seed \(seed), \(order)")
        #expect(try Self.contents(directory.file("fast.sqlite")) == Self.contents(directory.file("general.sqlite")), "seed \(seed), \(order)")
        #expect(try query(directory.file("fast.sqlite"), "PRAGMA integrity_check") == [[.text("ok")]])
        // Into the tables that now exist, every record is looked up, both ways alike.
        let again = try Self.importing(bytes, into: directory.file("fast.sqlite"), fastPaths: true)
        let generalAgain = try Self.importing(bytes, into: directory.file("general.sqlite"), fastPaths: false)
        #expect(again.counts == generalAgain.counts, "seed \(seed), \(order)")
        #expect(again.built == [])
        #expect(try Self.contents(directory.file("fast.sqlite")) == Self.contents(directory.file("general.sqlite")), "seed \(seed), \(order)")
    }

    @Test func theIdentityIndexOfATableNothingLinksIntoIsBuiltAfterTheLoadFirst() throws {
        let directory = TemporaryDirectory()
        let items = (0..<30).map { "{\"code\": \"K\($0)\", \"n\": 1, \"group\": \"g0\"}" }
        let bytes = Array("{\"items\": [\(items.joined(separator: ","))], \"groups\": [{\"id\": \"g0\"}]}".utf8)
        let fast = try Self.importing(bytes, into: directory.file("fast.sqlite"), fastPaths: true)
        // The groups' identity index, which the items' links use, is made with its table.
        #expect(fast.built == ["items_identity", "items_group_pk"])
        let general = try Self.importing(bytes, into: directory.file("general.sqlite"), fastPaths: false)
        #expect(general.built == ["items_group_pk"])
        #expect(try Self.contents(directory.file("fast.sqlite")) == Self.contents(directory.file("general.sqlite")))
    }

    @Test func anIdentityIndexTheRecordsComeInOrderForIsKeptUpAsTheyGoIn() throws {
        let directory = TemporaryDirectory()
        // K00…K29: in the index's order, each row goes in at its end.
        let items = (0..<30).map { "{\"code\": \"K\(String(String($0 + 100).dropFirst()))\", \"n\": 1, \"group\": \"g0\"}" }
        let bytes = Array("{\"items\": [\(items.joined(separator: ","))], \"groups\": [{\"id\": \"g0\"}]}".utf8)
        let fast = try Self.importing(bytes, into: directory.file("fast.sqlite"), fastPaths: true)
        #expect(fast.built == ["items_group_pk"])
        let general = try Self.importing(bytes, into: directory.file("general.sqlite"), fastPaths: false)
        #expect(try Self.contents(directory.file("fast.sqlite")) == Self.contents(directory.file("general.sqlite")))
        #expect(fast.counts == general.counts)
    }

    @Test func aRecordBelowTheCeilingIsLookedUpInTheIndexBuiltForIt() throws {
        let directory = TemporaryDirectory()
        // K0…K19, then K3 again three batches later: below the ceiling, it updates its row.
        let items = (0..<20).map { "{\"code\": \"K\($0)\", \"n\": 1, \"name\": \"first\"}" }
            + ["{\"code\": \"K3\", \"n\": 1, \"name\": \"again\"}"]
        let bytes = Array("{\"items\": [\(items.joined(separator: ","))]}".utf8)
        let fast = try Self.importing(bytes, into: directory.file("fast.sqlite"), fastPaths: true)
        #expect(fast.counts[0].inserted == 20)
        #expect(fast.counts[0].updated == 1)
        // Built when the lookup needed it, so not after the load (no item links a group).
        #expect(fast.built == [])
        #expect(try query(directory.file("fast.sqlite"), "SELECT name FROM items WHERE code = 'K3'") == [[.text("again")]])
        #expect(try query(directory.file("fast.sqlite"), "SELECT count(*) FROM items INDEXED BY items_identity") == [[.integer(20)]])
    }
}

extension IdentityCeilingTests {
    /// Core Data's store: a new store's tables are made with the file, and the stop times'
    /// uniqueness constraint (their identity) waits for the end of the load as Sluice's own
    /// identity index does; a stop time below the ceiling finds its row through it.
    @Test func aNewCoreDataStoreTakesTheSameRowsAndBuildsItsUniquenessConstraintAfterTheLoad() throws {
        let directory = TemporaryDirectory()
        let file = try ModelFile.load(path: PackageFiles.path("LargeFixtures/models/Document.xcdatamodel"))
        // Trips T8, T9, T10: counting up shorter first, not in the index's order (by bytes).
        var stopTimes = (0..<12).map { #"{"trip_id": "T\#(8 + $0 / 4)", "stop_sequence": \#($0 % 4), "arrival_time": "a\#($0)"}"# }
        stopTimes.append(#"{"trip_id": "T9", "stop_sequence": 2, "arrival_time": "again"}"#)
        let bytes = Array(#"{"stop_times": [\#(stopTimes.joined(separator: ","))]}"#.utf8)
        func importing(fastPaths: Bool, into path: String, batchSize: Int) throws -> (report: ImportReport, built: [String]) {
            let calls = ImportProgressTests.Calls()
            var options = ImportOptions()
            options.layout = .coreData
            options.roots = [Model.RootOverride(key: "stop_times", entity: "StopTime")]
            options.batchSize = batchSize
            options.fastPaths = fastPaths
            options.progress = { calls.append($0) }
            let importer = try Importer(databasePath: path, modelFile: file, options: options)
            try importer.importBytes(bytes)
            let report = try importer.finish()
            var built: [String] = []
            for call in calls.all {
                if case .indexing(let name) = call.stage, built.last != name { built.append(name) }
            }
            return (report, built)
        }
        let rows = "SELECT Z_PK, Z_ENT, Z_OPT, ZTRIPID, ZSEQUENCE, ZARRIVAL FROM ZSTOPTIME ORDER BY Z_PK"
        // In one batch, the repeated stop time is merged; nothing is looked up.
        let one = try importing(fastPaths: true, into: directory.file("one.sqlite"), batchSize: 100)
        #expect(one.built.first == "Z_StopTime_UNIQUE_tripID_sequence")
        // In batches of 5, the last one is below the ceiling: looked up, its index built first.
        let fast = try importing(fastPaths: true, into: directory.file("fast.sqlite"), batchSize: 5)
        let general = try importing(fastPaths: false, into: directory.file("general.sqlite"), batchSize: 5)
        #expect(!fast.built.contains("Z_StopTime_UNIQUE_tripID_sequence"))
        #expect(fast.report.entities == general.report.entities)
        #expect(fast.report.entities.first { $0.entity == "StopTime" }?.updated == 1)
        #expect(try query(directory.file("fast.sqlite"), rows) == query(directory.file("general.sqlite"), rows))
        #expect(try query(directory.file("one.sqlite"), "SELECT ZARRIVAL FROM ZSTOPTIME WHERE ZTRIPID = 'T9' AND ZSEQUENCE = 2")
                == [[.text("again")]])
        for name in ["one", "fast", "general"] {
            #expect(try query(directory.file("\(name).sqlite"), "PRAGMA integrity_check") == [[.text("ok")]])
            #expect(try query(directory.file("\(name).sqlite"),
                              "SELECT sql FROM sqlite_schema WHERE name = 'Z_StopTime_UNIQUE_tripID_sequence'").count == 1)
        }
    }
}
