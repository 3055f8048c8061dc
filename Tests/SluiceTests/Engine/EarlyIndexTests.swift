import SluiceTestSupport
import Testing
@testable import Sluice

/// The index of a new table's to-one column is made with the table and kept while no record
/// links through the column, then dropped and built after the load once a batch does
/// (`SecondaryIndexes.early`): each index ends up holding exactly the rows that link
/// something, and only the filled columns' indexes are built at the end.
@Suite struct EarlyIndexTests {
    static let model: Model = try! Model.parse(Array("""
        { "root": { "boxes": "Box", "items": "Item" },
          "entities": {
            "Item": { "table": "items", "identity": "id", "attributes": { "id": "integer" },
                      "relationships": { "box": { "entity": "Box", "key": "box" },
                                         "shelf": { "entity": "Box", "key": "shelf" },
                                         "crate": { "entity": "Box", "key": "crate" } } },
            "Box": { "table": "boxes", "identity": "id", "attributes": { "id": "integer" },
                     "relationships": { "contents": { "entity": "Item", "toMany": true, "key": "contents",
                                                      "inverse": "crate" } } } } }
        """.utf8), sourceName: "model")

    /// 7 boxes, then 100 items in batches of 10: every item names a box; only those from the
    /// sixth batch on name a shelf; a crate is only ever `null`.
    static func input(crates: Bool = false) -> [UInt8] {
        let boxes = (0..<7).map { crates && $0 == 3 ? "{\"id\": \($0), \"contents\": [1, 2, 95]}" : "{\"id\": \($0)}" }
        let items = (0..<100).map { id in
            "{\"id\": \(id), \"box\": \(id % 7)" + (id >= 50 ? ", \"shelf\": \(id % 5)" : "") + (id % 3 == 0 ? ", \"crate\": null" : "") + "}"
        }
        return Array("{\"boxes\": [\(boxes.joined(separator: ","))], \"items\": [\(items.joined(separator: ","))]}".utf8)
    }

    /// Imports `input` in batches of 10; returns the indexes built after the load, in order.
    static func importing(_ input: [UInt8], into path: String, model: Model = model, fastPaths: Bool = true) throws -> [String] {
        let calls = ImportProgressTests.Calls()
        var options = ImportOptions()
        options.batchSize = 10
        options.fastPaths = fastPaths
        options.progress = { calls.append($0) }
        let importer = try Importer(databasePath: path, model: model, options: options)
        try importer.importBytes(input)
        _ = try importer.finish()
        var built: [String] = []
        for call in calls.all {
            if case .indexing(let name) = call.stage, built.last != name { built.append(name) }
        }
        return built
    }

    /// Per to-one column of `items`: the rows its index holds, and the rows that link something.
    static func indexed(_ db: String) throws -> [[ColumnValue]] {
        try ["box", "shelf", "crate"].map { name in
            let column = "\(name)_pk"
            return try query(db, """
                SELECT (SELECT count(*) FROM items INDEXED BY items_\(column) WHERE \(column) IS NOT NULL),
                       (SELECT count(*) FROM items NOT INDEXED WHERE \(column) IS NOT NULL)
                """)[0]
        }
    }

    @Test func onlyTheFilledColumnsIndexesAreBuiltAfterTheLoad() throws {
        let directory = TemporaryDirectory()
        let db = directory.file("t.sqlite")
        // The shelves are first named in the sixth batch of items; no crate is ever named.
        #expect(try Self.importing(Self.input(), into: db) == ["items_box_pk", "items_shelf_pk"])
        #expect(try Self.indexed(db) == [[.integer(100), .integer(100)], [.integer(50), .integer(50)], [.integer(0), .integer(0)]])
        #expect(try query(db, "SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'items' ORDER BY name")
                == [[.text("items_box_pk")], [.text("items_crate_pk")], [.text("items_identity")], [.text("items_shelf_pk")]])
        #expect(try query(db, "PRAGMA integrity_check") == [[.text("ok")]])
    }

    @Test func aToManyThatFillsTheColumnDropsItsIndexToo() throws {
        let directory = TemporaryDirectory()
        let db = directory.file("t.sqlite")
        // Box 3's contents fill the items' crate column through its inverse.
        #expect(try Self.importing(Self.input(crates: true), into: db).sorted() == ["items_box_pk", "items_crate_pk", "items_shelf_pk"])
        #expect(try Self.indexed(db) == [[.integer(100), .integer(100)], [.integer(50), .integer(50)], [.integer(3), .integer(3)]])
        #expect(try query(db, "PRAGMA integrity_check") == [[.text("ok")]])
    }

    @Test func anExistingTablesIndexIsKeptUpAsBefore() throws {
        let directory = TemporaryDirectory()
        let db = directory.file("t.sqlite")
        _ = try Self.importing(Self.input(), into: db)
        // The tables exist now: nothing is deferred, and the crates fill an index that exists.
        #expect(try Self.importing(Self.input(crates: true), into: db) == [])
        #expect(try Self.indexed(db) == [[.integer(100), .integer(100)], [.integer(50), .integer(50)], [.integer(3), .integer(3)]])
        #expect(try query(db, "PRAGMA integrity_check") == [[.text("ok")]])
    }
}
