import Foundation
import SluiceTestSupport
import Testing
@testable import Sluice

/// A batch's rows read in key order first (`RowsInKeyOrder`, a re-import's fast path) find
/// exactly what the general lookup by identity finds: the same inputs imported both ways, one
/// after another into the same two databases (`ImportOptions.fastPaths`), leave the same rows
/// and count the same. The inputs are generated: a first import, then the same records again,
/// shuffled, with records inserted, changed, left out (`--delete-missing`) and repeated, and
/// records of another feed in between.
@Suite struct RowsInKeyOrderTests {
    static let model = """
        {"root": {"items": "Item", "owners": "Owner"}, "entities": {
          "Item": {"table": "items", "identity": ["group", "n"],
            "attributes": {"group": "string", "n": "integer", "name": "string", "value": "double"},
            "relationships": {"owner": {"entity": "Owner", "key": "owner"}}},
          "Owner": {"table": "owners", "identity": "id", "attributes": {"id": "string", "city": "string"}}}}
        """

    struct Item {
        var group: String
        var n: Int
        var name: String
        var value: Double
        var owner: String?

        var json: String {
            let owner = self.owner.map { #""\#($0)""# } ?? "null"
            return #"{"group": "\#(group)", "n": \#(n), "name": "\#(name)", "value": \#(value), "owner": \#(owner)}"#
        }
    }

    /// The input: items first, so that each owner is a forward reference.
    static func document(_ items: [Item], owners: [String]) -> [UInt8] {
        let ownerObjects = owners.map { #"{"id": "\#($0)", "city": "c\#($0.count)"}"# }
        return Array(#"{"items": [\#(items.map(\.json).joined(separator: ", "))], "owners": [\#(ownerObjects.joined(separator: ", "))]}"#.utf8)
    }

    /// The inputs imported one after another: the first, then variants of it.
    static func inputs(seed: UInt64) -> [(name: String, bytes: [UInt8], deleteMissing: Bool)] {
        var random = PropertyRandom(seed: seed)
        func shuffled<T>(_ items: [T]) -> [T] {
            var items = items
            for index in items.indices.reversed() { items.swapAt(index, random.int(0...index)) }
            return items
        }
        let owners = (0..<random.int(3...12)).map { "o\($0)" }
        var next = 0
        func item(_ group: String) -> Item {
            next += 1
            return Item(group: group, n: next, name: "i\(next)", value: Double(random.int(0...1_000)) / 4,
                        owner: random.chance(90) ? random.pick(owners) : nil)
        }
        let base = (0..<random.int(20...150)).map { _ in item(random.pick(["a", "b", "c"])) }
        var inputs = [("first", document(base, owners: owners), false)]
        inputs.append(("the same again", document(base, owners: owners), false))
        inputs.append(("shuffled", document(shuffled(base), owners: shuffled(owners)), false))
        var changed = base
        for _ in 0..<random.int(1...10) {
            changed.insert(item(random.pick(["a", "b", "d"])), at: random.int(0...changed.count))
        }
        for index in changed.indices where random.chance(15) {
            changed[index].name += "x"
            if random.chance(50) { changed[index].owner = random.pick(owners) }
        }
        for _ in 0..<random.int(0...5) where !changed.isEmpty {
            changed.remove(at: random.below(changed.count))
        }
        inputs.append(("inserted, changed and left out", document(changed, owners: owners), true))
        var repeated = changed
        for _ in 0..<random.int(1...8) {
            var copy = repeated[random.below(repeated.count)]
            if random.chance(50) { copy.name += "y" }
            repeated.insert(copy, at: random.int(0...repeated.count))
        }
        inputs.append(("repeated", document(repeated, owners: owners), false))
        let other = (0..<random.int(5...60)).map { _ in item("z") }
        inputs.append(("another feed", document(other, owners: ["p1"]), false))
        inputs.append(("the first feed's records after the other's", document(changed, owners: owners), false))
        inputs.append(("reversed", document(changed.reversed(), owners: owners), false))
        return inputs
    }

    /// Every table but the import log, its rows in pk order.
    static func dump(_ path: String) throws -> [String: [[ColumnValue]]] {
        let connection = try Connection(path: path, mode: .readOnly)
        var dump: [String: [[ColumnValue]]] = [:]
        for table in try connection.rows(#"SELECT "name" FROM "sqlite_master" WHERE "type" = 'table' AND "name" <> 'sluice_imports'"#) {
            guard case .text(let name) = table[0] else { continue }
            dump[name] = try connection.rows(#"SELECT * FROM "\#(name)" ORDER BY 1"#)
        }
        return dump
    }

    @Test(arguments: [1, 2, 3, 4, 5, 6] as [UInt64])
    func rowsAndCountsAreTheSameAsTheGeneralLookups(_ seed: UInt64) throws {
        let model = try Model.parse(Array(Self.model.utf8), sourceName: "model.json")
        let directory = TemporaryDirectory()
        let batchSize = [1, 3, 7, 50, 5_000][Int(seed) % 5]
        for input in Self.inputs(seed: seed) {
            var reports: [ImportReport] = []
            for fastPaths in [true, false] {
                var options = ImportOptions()
                options.batchSize = batchSize
                options.fastPaths = fastPaths
                options.deleteMissing = input.deleteMissing
                let importer = try Importer(databasePath: directory.file("\(fastPaths).sqlite"), model: model, options: options)
                try importer.importBytes(input.bytes, name: "in.json")
                reports.append(try importer.finish())
            }
            let context = "seed \(seed), batches of \(batchSize), \(input.name)"
            #expect(reports[0].entities == reports[1].entities, "\(context)")
            #expect(try Self.dump(directory.file("true.sqlite")) == Self.dump(directory.file("false.sqlite")), "\(context)")
            if input.name == "the same again" {
                #expect(reports[0].inserted == 0 && reports[0].updated == 0 && reports[0].entities.allSatisfy { $0.links == 0 },
                        "\(context): \(reports[0].entities)")
            }
        }
    }

    /// The store reads the rows after a key in key order, and keeps those the matcher pairs
    /// with a wanted record (both stores; PostgreSQL reads an eighth more than `limit`, none
    /// here at a limit of 2).
    @Test(arguments: ContractStore.allCases)
    func rowsAfterAKeyAreReadInOrderAndMatchedByIdentity(_ kind: ContractStore) throws {
        let db = try ContractDatabase(kind)
        let pks = try db.insert("people", ["ann", "bob", "cy", "dan"])
        // Records cy, zed and bob; bob is not wanted.
        try db.withRows("people", [[.text("cy")], [.text("zed")], [.text("bob")], [.text("dan")]]) { writer, rows in
            var table = IdentityTable()
            table.reset(count: 4)
            for record in 0..<4 {
                let hash = IdentityTable.hash([rows[record, 0]], in: rows.arena)!
                #expect(table.firstOrInsert(record, hash: hash) { _ in false } == nil)
            }
            var existing = ExistingRows(width: rows.width, attributeCount: 2)
            existing.reset(count: 4)
            var matcher = IdentityMatcher(identity: [0], table: table, records: [0, 1, 3], count: 4, width: rows.width)
            var all = ColumnSet(width: rows.width)
            for column in 0..<rows.width { all.insert(column) }
            let read = try writer.findFollowing(pks["ann"], limit: 2, reading: all, of: rows, matching: &matcher, into: &existing)
            // bob and cy read; cy matched, bob not wanted; dan not read.
            #expect(read == 2)
            #expect(matcher.matched == 1)
            let (first, others) = (existing.pk(of: 0), [existing.pk(of: 1), existing.pk(of: 2), existing.pk(of: 3)])
            #expect(first == pks["cy"])
            #expect(others == [nil, nil, nil])
            // From the first row on: ann, bob, cy and dan; cy is not matched twice.
            let all4 = try writer.findFollowing(nil, limit: 10, reading: all, of: rows, matching: &matcher, into: &existing)
            #expect(all4 == 4)
            #expect(matcher.matched == 2)
            let dan = existing.pk(of: 3)
            #expect(dan == pks["dan"])
            let none = try writer.findFollowing(pks["dan"], limit: 10, reading: all, of: rows, matching: &matcher, into: &existing)
            #expect(none == 0)
        }
    }

    /// A read that matches fewer than half of its rows, or reads none, skips the next batches'
    /// reads, twice as many each time it fails again, up to `maxBackoff`; one that matches
    /// starts over.
    @Test func aWrongGuessIsTriedLessAndLessOften() {
        var guess = RowsInKeyOrder(enabled: true)
        func pattern(_ batches: Int, matched: Int) -> String {
            (0..<batches).map { _ in
                guard guess.tries() else { return "-" }
                guess.read(10, matched: matched)
                return "r"
            }.joined()
        }
        #expect(pattern(3, matched: 10) == "rrr")
        #expect(pattern(12, matched: 4) == "r-r--r----r-")
        #expect(pattern(7, matched: 5) == "-------")
        #expect(pattern(3, matched: 5) == "rrr")
        #expect(pattern(3, matched: 0) == "r-r")
        #expect(pattern(3, matched: 10) == "--r")
        // A read of no rows (past the table's last row) fails too.
        guess.read(0, matched: 0)
        #expect(pattern(3, matched: 10) == "-rr")
        #expect(pattern(40, matched: 0) == "r-r--r----r--------r----------------r---")
        #expect(pattern(40, matched: 0) == "-----------------------------r----------")
        guess.written(largestFound: nil, largestInserted: 7)
        #expect(guess.after == 7)
        guess.written(largestFound: 3, largestInserted: 9)
        #expect(guess.after == 3)
        guess.written(largestFound: nil, largestInserted: nil)
        #expect(guess.after == 3)
        guess.read(nil, matched: 0)
        let triesWhenUnsupported = guess.tries()
        #expect(!guess.enabled && !triesWhenUnsupported)
        var off = RowsInKeyOrder(enabled: false)
        let triesWhenOff = off.tries()
        #expect(!triesWhenOff)
    }
}
