import Foundation
import Testing
import SluiceTestSupport
@testable import Sluice

/// Entity inheritance end to end (`docs/model.md#inheritance`): `check`, `schema`, an import
/// from standard input and a re-import.
@Suite struct InheritanceCommandTests {
    static let model = StopFamily.model
    static let input = """
        {"stops": [{"id": "a", "type": "bus", "shelter": true}, {"id": "b", "type": "rail", "platforms": 2},
                   {"id": "c", "type": "ferry"}],
         "routes": [{"id": "r", "first": "a", "stops": ["a", "b", {"id": "d", "type": "rail", "platforms": 1}]}]}
        """

    @Test func schemaShowsTheFamilyTable() throws {
        let workspace = Workspace()
        _ = try workspace.write(Self.model, to: "model.json")
        let result = try workspace.sluice("schema", "--model", "model.json")
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.hasPrefix("""
            CREATE TABLE IF NOT EXISTS "stops" (
              "pk" INTEGER PRIMARY KEY,
              "entity" TEXT,
              "id" TEXT,
              "name" TEXT,
              "shelter" INTEGER,
              "platforms" INTEGER
            );
            CREATE UNIQUE INDEX IF NOT EXISTS "stops_identity" ON "stops"("id");
            """), "\(result)")
        #expect(!result.stdout.contains(#""BusStop""#))
    }

    @Test func importFromStandardInputThenReimportWritesNothing() throws {
        let workspace = Workspace()
        _ = try workspace.write(Self.model, to: "model.json")
        let first = try workspace.sluice("import", "--db", "s.sqlite", "--model", "model.json", stdin: Array(Self.input.utf8))
        #expect(first.status == 0, "\(first)")
        #expect(first.entityLines == [
            "Stop: inserted 4, updated 0, unchanged 0, rejected 0, links -, unresolved -",
            "Route: inserted 1, updated 0, unchanged 0, rejected 0, links 4, unresolved 0",
            "total: inserted 5, updated 0, unchanged 0, rejected 0, links 4, unresolved 0",
        ], "\(first)")
        let db = try workspace.database("s.sqlite")
        #expect(try db.rows(#"SELECT "entity", "id", "shelter", "platforms" FROM "stops" ORDER BY "id""#) == [
            [.text("BusStop"), .text("a"), .integer(1), .null], [.text("RailStop"), .text("b"), .null, .integer(2)],
            [.text("Stop"), .text("c"), .null, .null], [.text("RailStop"), .text("d"), .null, .integer(1)],
        ])
        #expect(try db.rows(#"SELECT s."entity" FROM "routes" r JOIN "stops" s ON r."first_pk" = s."pk""#) == [[.text("BusStop")]])
        let again = try workspace.sluice("import", "--db", "s.sqlite", "--model", "model.json", stdin: Array(Self.input.utf8))
        #expect(again.entityLines == [
            "Stop: inserted 0, updated 0, unchanged 4, rejected 0, links -, unresolved -",
            "Route: inserted 0, updated 0, unchanged 1, rejected 0, links 0, unresolved 0",
            "total: inserted 0, updated 0, unchanged 5, rejected 0, links 0, unresolved 0",
        ], "\(again)")
    }

    @Test func checkReportsInheritanceMistakes() throws {
        let workspace = Workspace()
        _ = try workspace.write("""
            {"entities": {"Stop": {"identity": "id", "attributes": {"id": "string"}},
                          "BusStop": {"parent": "Stpo", "table": "bus"},
                          "RailStop": {"parent": "Stop", "attributes": {"id": "integer"}}}}
            """, to: "model.json")
        let result = try workspace.sluice("check", "--model", "model.json")
        #expect(result.status == 64, "\(result)")
        #expect(result.stderrLines == [
            #"sluice: error: model.json: entities.BusStop.parent: unknown entity "Stpo"; the model has: BusStop, RailStop, Stop; did you mean "Stop"?"#,
            "sluice: error: model.json: entities.RailStop.attributes.id: redeclares the inherited attribute of type string with type integer",
        ], "\(result)")
    }
}
