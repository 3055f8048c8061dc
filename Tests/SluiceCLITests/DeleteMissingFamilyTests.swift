import Foundation
import SluiceTestSupport
import Testing
@testable import Sluice

/// `--delete-missing` with an entity family (`StopFamily`: Stop, BusStop, RailStop in one
/// `stops` table): rows are found by the family's identity, only the members placed at the
/// record locations (and their descendants) may be deleted, and every link to a deleted row
/// goes, on both stores.
@Suite struct DeleteMissingFamilyTests {
    static let stores = StoreKind.allCases

    /// A bus stop, a rail stop and a plain stop, each linked from the route's to-one (b), its
    /// to-many join table (all three) and its to-many of rail stops (b).
    private static let setup = #"""
        {"stops": [{"id": "a", "type": "bus"}, {"id": "b", "type": "rail"}, {"id": "c"}],
         "routes": [{"id": "r", "first": "b", "stops": ["a", "b", "c"], "rails": ["b"]}]}
        """#

    private func database(_ store: StoreKind, in workspace: Workspace) throws -> StoreDatabase {
        try workspace.write(StopFamily.model, to: "model.json")
        let db = try store.makeDatabase(in: workspace)
        let first = try db.sluiceImport("--model", "model.json", "--quiet", stdin: Array(Self.setup.utf8))
        try #require(first.status == 0, "\(first)")
        return db
    }

    private func state(_ db: StoreDatabase) throws -> [String] {
        try db.rows(#"SELECT "entity", "id" FROM "stops" ORDER BY "id""#)
            + db.rows(#"SELECT 'first ' || coalesce(s."id", '-') FROM "routes" r LEFT JOIN "stops" s ON s."pk" = r."first_pk""#)
            + db.rows(#"SELECT 'stops ' || s."id" FROM "routes_stops" j JOIN "stops" s ON s."pk" = j."target_pk" ORDER BY s."id""#)
            + db.rows(#"SELECT 'rails ' || s."id" FROM "routes_rails" j JOIN "stops" s ON s."pk" = j."target_pk" ORDER BY s."id""#)
    }

    /// Records placed as the family's root may be any member: every member's row not
    /// mentioned goes, whatever entity the record that keeps a row names.
    @Test(arguments: stores)
    func atTheRootTheWholeFamilyIsMirrored(_ store: StoreKind) throws {
        let workspace = Workspace()
        let db = try database(store, in: workspace)
        // "b" as a plain stop now: found by the family's identity, kept, and re-typed.
        let result = try db.sluiceImport("--model", "model.json", "--entity", "Stop", "--delete-missing",
                                         stdin: Array(#"[{"id": "b"}]"#.utf8))
        #expect(result.status == 0, "\(result)")
        #expect(result.entityLines.first == "Stop: inserted 0, updated 1, unchanged 0, rejected 0, deleted 2, links -, unresolved -",
                "\(result)")
        #expect(try state(db) == ["Stop|b", "first b", "stops b", "rails b"])
    }

    /// `--entity BusStop`: only bus stops (and their descendants) are candidates; the rail
    /// stop and the plain stop stay, with their links.
    @Test(arguments: stores)
    func aMemberDeletesOnlyItsOwnRows(_ store: StoreKind) throws {
        let workspace = Workspace()
        let db = try database(store, in: workspace)
        let kept = try db.sluiceImport("--model", "model.json", "--entity", "BusStop", "--delete-missing",
                                       stdin: Array(#"[{"id": "a"}]"#.utf8))
        #expect(kept.status == 0, "\(kept)")
        #expect(kept.entityLines.first == "Stop: inserted 0, updated 0, unchanged 1, rejected 0, links -, unresolved -",
                "\(kept)")
        #expect(try state(db) == ["BusStop|a", "RailStop|b", "Stop|c", "first b", "stops a", "stops b", "stops c", "rails b"])

        let none = try db.sluiceImport("--model", "model.json", "--entity", "RailStop", "--delete-missing",
                                       stdin: Array("[]".utf8))
        #expect(none.status == 0, "\(none)")
        #expect(try state(db) == ["BusStop|a", "Stop|c", "first -", "stops a", "stops c"])
    }
}
