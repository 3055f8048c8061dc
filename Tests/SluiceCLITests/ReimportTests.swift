import Foundation
import SluiceTestSupport
import Testing
@testable import Sluice

/// Importing into a database that already holds the data: find-or-create by identity, writing
/// only what changed (`docs/import-semantics.md`).
@Suite struct ReimportTests {
    static let dataTables = ["stops", "routes", "trips", "stop_times"]

    private func dumpDataTables(_ db: TestDatabase) throws -> [String: [[ColumnValue]]] {
        var dump: [String: [[ColumnValue]]] = [:]
        for table in Self.dataTables { dump[table] = try db.dump(table) }
        return dump
    }

    @Test func reimportingTheSameInputChangesNothing() throws {
        let workspace = Workspace()
        let sample = try PackageFiles.bytes(Fixtures.transitSample)
        let model = PackageFiles.path(Fixtures.transitModel)

        let first = try workspace.sluice("import", "--db", "t.sqlite", "--model", model, stdin: sample)
        try #require(first.status == 0, "\(first)")
        let before = try dumpDataTables(workspace.database("t.sqlite"))

        let second = try workspace.sluice("import", "--db", "t.sqlite", "--model", model, stdin: sample)

        #expect(second.status == 0, "\(second)")
        #expect(second.summaryLine?.hasPrefix("sluice: imported 155 records (") == true, "\(second)")
        #expect(second.entityLines == [
            "Stop: inserted 0, updated 0, unchanged 76, rejected 0, links 0, unresolved 0",
            "Route: inserted 0, updated 0, unchanged 1, rejected 0, links 0, unresolved 0",
            "Trip: inserted 0, updated 0, unchanged 2, rejected 0, links 0, unresolved 0",
            "StopTime: inserted 0, updated 0, unchanged 76, rejected 0, links 0, unresolved 0",
            "total: inserted 0, updated 0, unchanged 155, rejected 0, links 0, unresolved 0",
        ], "\(second)")
        let db = try workspace.database("t.sqlite")
        #expect(try dumpDataTables(db) == before)
        let log = try db.rows(#"SELECT "inserted", "updated", "unchanged", "rejected" FROM "sluice_imports" ORDER BY "id""#)
        #expect(log == [
            [.integer(155), .integer(0), .integer(0), .integer(0)],
            [.integer(0), .integer(0), .integer(155), .integer(0)],
        ])
        #expect(workspace.contents == ["t.sqlite"])
    }

    @Test func oneChangedValueUpdatesExactlyThatRow() throws {
        let workspace = Workspace()
        let sample = try PackageFiles.bytes(Fixtures.transitSample)
        let model = PackageFiles.path(Fixtures.transitModel)
        for _ in 0..<2 {
            let result = try workspace.sluice("import", "--db", "t.sqlite", "--model", model, stdin: sample)
            try #require(result.status == 0, "\(result)")
        }
        let before = try dumpDataTables(workspace.database("t.sqlite"))

        let text = String(decoding: sample, as: UTF8.self)
        let original = #""stop_id": "127S", "stop_name": "Times Sq-42 St""#
        try #require(text.components(separatedBy: original).count == 2)
        let changed = text.replacingOccurrences(of: original, with: #""stop_id": "127S", "stop_name": "Times Square-42 St""#)

        let third = try workspace.sluice("import", "--db", "t.sqlite", "--model", model, stdin: Array(changed.utf8))

        #expect(third.status == 0, "\(third)")
        #expect(third.entityLines == [
            "Stop: inserted 0, updated 1, unchanged 75, rejected 0, links 0, unresolved 0",
            "Route: inserted 0, updated 0, unchanged 1, rejected 0, links 0, unresolved 0",
            "Trip: inserted 0, updated 0, unchanged 2, rejected 0, links 0, unresolved 0",
            "StopTime: inserted 0, updated 0, unchanged 76, rejected 0, links 0, unresolved 0",
            "total: inserted 0, updated 1, unchanged 154, rejected 0, links 0, unresolved 0",
        ], "\(third)")
        let after = try dumpDataTables(workspace.database("t.sqlite"))
        for table in Self.dataTables where table != "stops" {
            #expect(after[table] == before[table], "table \(table)")
        }
        let oldStops = try #require(before["stops"])
        let newStops = try #require(after["stops"])
        try #require(oldStops.count == newStops.count)
        let differing = zip(oldStops, newStops).filter { $0 != $1 }
        try #require(differing.count == 1)
        let (old, new) = differing[0]
        #expect(old.contains(.text("127S")) && new.contains(.text("127S")))
        #expect(old.contains(.text("Times Sq-42 St")))
        #expect(new.contains(.text("Times Square-42 St")))
        #expect(zip(old, new).filter { $0 != $1 }.count == 1, "only the name column differs")
    }

    // MARK: Identity conversion

    @Test func stringAndNumberIdentitiesAreTheSameRowInOneStream() throws {
        let workspace = Workspace()
        try workspace.write(Fixtures.itemModel, to: "model.json")
        let input = "{\"id\": \"42\", \"n\": \"a\"}\n{\"id\": 42, \"n\": \"b\"}\n"

        let result = try workspace.sluice("import", "--db", "out.sqlite", "--model", "model.json", stdin: Array(input.utf8))

        #expect(result.status == 0, "\(result)")
        #expect(result.entityLines == ["T: inserted 1, updated 1, unchanged 0, rejected 0"], "\(result)")
        let rows = try workspace.database("out.sqlite").rows(#"SELECT "id", "n" FROM "t""#)
        #expect(rows == [[.integer(42), .text("b")]])
    }

    @Test func stringAndNumberIdentitiesAreTheSameRowAcrossImports() throws {
        let workspace = Workspace()
        try workspace.write(Fixtures.itemModel, to: "model.json")

        let first = try workspace.sluice("import", "--db", "out.sqlite", "--model", "model.json",
                                         stdin: Array(#"{"id": "42", "n": "a"}"#.utf8))
        #expect(first.status == 0, "\(first)")
        let second = try workspace.sluice("import", "--db", "out.sqlite", "--model", "model.json",
                                          stdin: Array(#"{"id": 42.0, "n": "b"}"#.utf8))
        #expect(second.status == 0, "\(second)")
        #expect(second.entityLines == ["T: inserted 0, updated 1, unchanged 0, rejected 0"], "\(second)")
        let third = try workspace.sluice("import", "--db", "out.sqlite", "--model", "model.json",
                                         stdin: Array(#"{"id": 42, "n": "b"}"#.utf8))
        #expect(third.entityLines == ["T: inserted 0, updated 0, unchanged 1, rejected 0"], "\(third)")

        let rows = try workspace.database("out.sqlite").rows(#"SELECT "id", "n" FROM "t""#)
        #expect(rows == [[.integer(42), .text("b")]])
    }

    @Test func missingAttributeLeavesTheStoredValueOnUpdate() throws {
        let workspace = Workspace()
        try workspace.write(Fixtures.itemModel, to: "model.json")
        _ = try workspace.sluice("import", "--db", "out.sqlite", "--model", "model.json",
                                 stdin: Array(#"{"id": 1, "n": "kept"}"#.utf8))

        let result = try workspace.sluice("import", "--db", "out.sqlite", "--model", "model.json",
                                          stdin: Array(#"{"id": 1}"#.utf8))

        #expect(result.status == 0, "\(result)")
        #expect(result.entityLines == ["T: inserted 0, updated 0, unchanged 1, rejected 0"], "\(result)")
        let rows = try workspace.database("out.sqlite").rows(#"SELECT "id", "n" FROM "t""#)
        #expect(rows == [[.integer(1), .text("kept")]])
    }

    @Test func nullClearsTheStoredValue() throws {
        let workspace = Workspace()
        try workspace.write(Fixtures.itemModel, to: "model.json")
        _ = try workspace.sluice("import", "--db", "out.sqlite", "--model", "model.json",
                                 stdin: Array(#"{"id": 1, "n": "gone"}"#.utf8))

        let result = try workspace.sluice("import", "--db", "out.sqlite", "--model", "model.json",
                                          stdin: Array(#"{"id": 1, "n": null}"#.utf8))

        #expect(result.status == 0, "\(result)")
        #expect(result.entityLines == ["T: inserted 0, updated 1, unchanged 0, rejected 0"], "\(result)")
        let rows = try workspace.database("out.sqlite").rows(#"SELECT "id", "n" FROM "t""#)
        #expect(rows == [[.integer(1), .null]])
    }
}
