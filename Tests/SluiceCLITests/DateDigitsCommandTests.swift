import Foundation
import SluiceTestSupport
import Testing
@testable import Sluice

/// Dates with six and nine fraction digits through the binary into each store: what is stored
/// is every digit the layout keeps (`docs/database-layout.md`, `docs/postgresql.md`,
/// `docs/coredata-store.md#values`), and importing the same input again writes nothing.
@Suite struct DateDigitsCommandTests {
    /// ISO 8601 in `at`, the same instant as Unix seconds in `unix`: microseconds, nanoseconds,
    /// before 1970, a half microsecond before 2001, and milliseconds.
    static let input = """
        [{"id": 1, "at": "2004-10-24T09:38:08.929258Z", "unix": 1098610688.929258},
         {"id": 2, "at": "2004-10-24T11:38:08.929258123+02:00", "unix": 1098610688.929258123},
         {"id": 3, "at": "1969-07-20T20:17:40.123456789Z", "unix": -14182939.876543211},
         {"id": 4, "at": "2000-12-31T23:59:59.9999995Z", "unix": 978307199.9999995},
         {"id": 5, "at": "2004-10-24T09:38:08.929Z", "unix": 1098610688.929}]
        """

    static let model = """
        {"root": "Event", "entities": {"Event": {"table": "events", "identity": "id", "attributes": {
          "id": "integer", "at": "date", "unix": {"type": "date", "dateFormat": "unix"}}}}}
        """

    static let coreDataModel = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
            <entity name="Event" representedClassName="Event">
                <attribute name="id" attributeType="Integer 64"/>
                <attribute name="at" optional="YES" attributeType="Date"/>
                <attribute name="unix" optional="YES" attributeType="Date">
                    <userInfo><entry key="dateFormat" value="unix"/></userInfo>
                </attribute>
                <userInfo><entry key="relatedByAttribute" value="id"/></userInfo>
            </entity>
        </model>
        """

    private func importInput(_ workspace: Workspace, db: String, _ extra: [String]) throws -> SluiceResult {
        try workspace.sluice(["import", "--db", db, "--stats", "stats.json", "-"] + extra, stdin: Array(Self.input.utf8))
    }

    /// The `updated` and `unchanged` totals of the last `--stats` file.
    private func updatedAndUnchanged(_ workspace: Workspace) throws -> [Int] {
        let data = try #require(workspace.bytes(of: "stats.json"))
        let json = try #require(try JSONSerialization.jsonObject(with: Data(data)) as? [String: Any])
        let totals = try #require(json["totals"] as? [String: Any])
        return [totals["updated"] as? Int ?? -1, totals["unchanged"] as? Int ?? -1]
    }

    @Test func sluicesLayoutKeepsNanoseconds() throws {
        let workspace = Workspace()
        try workspace.write(Self.model, to: "model.json")
        let first = try importInput(workspace, db: "e.sqlite", ["--model", "model.json"])
        #expect(first.status == 0, "\(first)")
        let expected: [[ColumnValue]] = [
            [.integer(1), .text("2004-10-24T09:38:08.929258Z")],
            [.integer(2), .text("2004-10-24T09:38:08.929258123Z")],
            [.integer(3), .text("1969-07-20T20:17:40.123456789Z")],
            [.integer(4), .text("2000-12-31T23:59:59.999999500Z")],
            [.integer(5), .text("2004-10-24T09:38:08.929Z")],
        ]
        let db = try workspace.database("e.sqlite")
        #expect(try db.rows(#"SELECT "id", "at" FROM "events" ORDER BY 1"#) == expected)
        #expect(try db.rows(#"SELECT "id", "unix" FROM "events" ORDER BY 1"#) == expected)
        let before = try db.dump("events")

        let again = try importInput(workspace, db: "e.sqlite", ["--model", "model.json"])
        #expect(again.status == 0, "\(again)")
        #expect(try updatedAndUnchanged(workspace) == [0, 5])
        #expect(try db.dump("events") == before)
    }

    /// Seconds since 2001 as the nearest double of the exact instant (the literals here are
    /// the compiler's nearest doubles of the decimal values); a re-import leaves `Z_OPT` at 1.
    @Test func coreDataStoreKeepsTheNearestDouble() throws {
        let workspace = Workspace()
        try workspace.writeCoreDataModel(Self.coreDataModel, to: "Events.xcdatamodel")
        let arguments = ["--layout", "coredata", "--model", "Events.xcdatamodel", "--entity", "Event"]
        let first = try importInput(workspace, db: "Seed.sqlite", arguments)
        #expect(first.status == 0, "\(first)")
        let expected: [[ColumnValue]] = [
            [.integer(1), .real(120_303_488.929258)],
            [.integer(2), .real(120_303_488.929258123)],
            [.integer(3), .real(-992_490_139.876543211)],
            [.integer(4), .real(-0.0000005)],
            [.integer(5), .real(120_303_488.929)],
        ]
        let db = try workspace.database("Seed.sqlite")
        #expect(try db.rows("SELECT ZID, ZAT FROM ZEVENT ORDER BY 1") == expected)
        #expect(try db.rows("SELECT ZID, ZUNIX FROM ZEVENT ORDER BY 1") == expected)
        // Five distinct instants, five distinct doubles (milliseconds made 1, 2 and 5 one).
        #expect(try db.scalar("SELECT count(DISTINCT ZAT) FROM ZEVENT") == .integer(5))

        let again = try importInput(workspace, db: "Seed.sqlite", arguments)
        #expect(again.status == 0, "\(again)")
        #expect(try updatedAndUnchanged(workspace) == [0, 5])
        #expect(try db.rows("SELECT DISTINCT Z_OPT FROM ZEVENT") == [[.integer(1)]])
    }

    /// Microseconds, rounded as the server rounds the same text itself (the half microsecond
    /// before 2001 rounds to even, into the next second); a re-import writes no row.
    @Test(.enabled(if: PostgresServer.isAvailable, "no PostgreSQL server binaries (initdb, pg_ctl) on this machine"))
    func postgreSQLKeepsMicrosecondsAsTheServerRounds() throws {
        let workspace = Workspace()
        try workspace.write(Self.model, to: "model.json")
        let server = try PostgresServer.started()
        let database = try server.makeDatabase()
        let first = try importInput(workspace, db: server.uri(database), ["--model", "model.json"])
        #expect(first.status == 0, "\(first)")
        let expected = [
            "1|1098610688.929258|1098610688.929258", "2|1098610688.929258|1098610688.929258",
            "3|-14182939.876543|-14182939.876543", "4|978307200.000000|978307200.000000",
            "5|1098610688.929000|1098610688.929000",
        ]
        #expect(try server.rows(database, #"SELECT "id", extract(epoch FROM "at"), extract(epoch FROM "unix") FROM "events" ORDER BY 1"#)
            == expected)
        // The server's own reading of each input text is what Sluice stored.
        #expect(try server.rows(database, """
            SELECT count(*) FROM "events" AS e JOIN (VALUES (1, '2004-10-24T09:38:08.929258Z'),
              (2, '2004-10-24T11:38:08.929258123+02:00'), (3, '1969-07-20T20:17:40.123456789Z'),
              (4, '2000-12-31T23:59:59.9999995Z'), (5, '2004-10-24T09:38:08.929Z')) AS v (id, at)
              ON v.id = e."id" AND v.at::timestamptz = e."at"
            """) == ["5"])

        try server.psql(database, """
            CREATE TABLE writes (n integer);
            CREATE FUNCTION count_write() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN INSERT INTO writes VALUES (1); RETURN NULL; END $$;
            CREATE TRIGGER w AFTER INSERT OR UPDATE OR DELETE ON events FOR EACH ROW EXECUTE FUNCTION count_write();
            """)
        let again = try importInput(workspace, db: server.uri(database), ["--model", "model.json"])
        #expect(again.status == 0, "\(again)")
        #expect(try updatedAndUnchanged(workspace) == [0, 5])
        #expect(try server.rows(database, "SELECT count(*) FROM writes") == ["0"])
    }
}
