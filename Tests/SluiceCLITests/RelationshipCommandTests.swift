import Foundation
import SluiceTestSupport
import Testing
@testable import Sluice

/// Relationship options of `sluice import` end to end: `--unresolved` and `--delete-missing`,
/// into SQLite and into PostgreSQL (`StoreKind`).
@Suite struct RelationshipCommandTests {
    /// Stops with a parent station, as the transit model has it.
    static let model = """
        {
          "root": "Stop",
          "entities": {
            "Stop": {
              "table": "stops", "identity": "id",
              "attributes": { "id": { "type": "string", "key": "stop_id" } },
              "relationships": { "parent": { "entity": "Stop", "key": "parent_station" } }
            }
          }
        }
        """
    static let input = """
        {"stop_id": "P1", "parent_station": "S1"}
        {"stop_id": "P2", "parent_station": "GONE"}
        {"stop_id": "S1"}

        """

    static let stores = StoreKind.allCases

    @Test(arguments: stores)
    func unresolvedNullReportsTheMissingReference(_ store: StoreKind) throws {
        let workspace = Workspace()
        _ = try workspace.write(Self.model, to: "model.json")
        let db = try store.makeDatabase(in: workspace)
        let result = try db.sluiceImport("--model", "model.json", stdin: Array(Self.input.utf8))
        #expect(result.status == 0, "\(result)")
        #expect(result.entityLines == ["Stop: inserted 3, updated 0, unchanged 0, rejected 0, links 1, unresolved 1"])
        #expect(result.stderrLines.last
            == #"sluice: 1 reference left unresolved (links left empty), first: Stop.parent "GONE" at <stdin>:2:1"#)
        #expect(try db.rows(#"SELECT s."id", p."id" FROM "stops" s LEFT JOIN "stops" p ON s."parent_pk" = p."pk" ORDER BY s."pk""#)
            == ["P1|S1", "P2|", "S1|"])
        #expect(try db.rows(#"SELECT "unresolved" FROM "sluice_imports""#) == ["1"])
    }

    @Test(arguments: stores)
    func unresolvedFailStopsWithThePositionAndLeavesNothing(_ store: StoreKind) throws {
        let workspace = Workspace()
        _ = try workspace.write(Self.model, to: "model.json")
        let db = try store.makeDatabase(in: workspace)
        let result = try db.sluiceImport("--model", "model.json", "--unresolved", "fail", stdin: Array(Self.input.utf8))
        #expect(result.status == 65, "\(result)")
        #expect(result.stderrLines == [#"sluice: error: <stdin>:2:1: Stop.parent: unresolved reference "GONE""#])
        switch store {
        case .sqlite: #expect(workspace.contents == ["model.json"])
        case .postgres: #expect(try db.rows("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'") == ["0"])
        }
    }

    @Test(arguments: stores)
    func unresolvedStubCreatesTheTarget(_ store: StoreKind) throws {
        let workspace = Workspace()
        _ = try workspace.write(Self.model, to: "model.json")
        let db = try store.makeDatabase(in: workspace)
        let result = try db.sluiceImport("--model", "model.json", "--unresolved", "stub", stdin: Array(Self.input.utf8))
        #expect(result.status == 0, "\(result)")
        #expect(result.entityLines == ["Stop: inserted 4, updated 0, unchanged 0, rejected 0, links 2, unresolved 0"])
        #expect(try db.rows(#"SELECT "id" FROM "stops" ORDER BY "pk""#) == ["P1", "P2", "S1", "GONE"])
    }

    @Test(arguments: stores)
    func deleteMissingRemovesRowsNotInTheInputAndTheirLinks(_ store: StoreKind) throws {
        let workspace = Workspace()
        _ = try workspace.write(Self.model, to: "model.json")
        let db = try store.makeDatabase(in: workspace)
        let first = try db.sluiceImport("--model", "model.json", stdin: Array(Self.input.utf8))
        #expect(first.status == 0, "\(first)")
        let second = try db.sluiceImport("--model", "model.json", "--delete-missing",
                                         stdin: Array("{\"stop_id\": \"P1\"}\n{\"stop_id\": \"P2\"}\n".utf8))
        #expect(second.status == 0, "\(second)")
        #expect(second.entityLines == ["Stop: inserted 0, updated 0, unchanged 2, rejected 0, deleted 1, links 0, unresolved 0"])
        #expect(try db.rows(#"SELECT "id", "parent_pk" FROM "stops" ORDER BY "pk""#) == ["P1|", "P2|"])
    }
}
