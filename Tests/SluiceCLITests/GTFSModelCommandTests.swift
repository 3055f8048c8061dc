import Foundation
import SluiceTestSupport
import Testing
@testable import Sluice

/// The built-in GTFS model through every command: printed to extend, checked, its DDL, and
/// what an import says about fields the model does not know and about keyless files.
@Suite struct GTFSModelCommandTests {
    @Test func convertModelPrintsTheModelFileToExtend() throws {
        let workspace = Workspace()
        let printed = try workspace.sluice("convert-model", "gtfs")
        #expect(printed.status == 0, "\(printed)")
        #expect(Array(printed.stdout.utf8) == (try PackageFiles.bytes("Sources/Sluice/Model/BuiltInModels/gtfs.json")))
        #expect(printed.stderr.isEmpty)
        try workspace.write(printed.stdout, to: "gtfs.json")
        #expect(try workspace.sluice("check", "--model", "gtfs.json").stdout == "gtfs.json: ok, 32 entities\n")
    }

    @Test func checkAndSchemaTakeTheName() throws {
        let workspace = Workspace()
        let check = try workspace.sluice("check", "--model", "gtfs")
        #expect(check.status == 0 && check.stdout == "gtfs: ok, 32 entities\n", "\(check)")
        let schema = try workspace.sluice("schema", "--model", "gtfs")
        #expect(schema.status == 0, "\(schema)")
        #expect(schema.stdout.contains(#"CREATE TABLE IF NOT EXISTS "stop_times" ("#))
        #expect(schema.stdout.contains(#""trip_pk" INTEGER REFERENCES "trips"("pk")"#), "\(schema.stdout)")
        #expect(schema.stdout.contains(#"CREATE UNIQUE INDEX IF NOT EXISTS "stop_times_identity" ON "stop_times"("trip_id", "stop_sequence");"#))
    }

    /// A field the reference does not have is named in a note, never dropped silently; the
    /// reference's fields a feed lacks are not (a feed holds few of them).
    @Test func fieldsTheModelDoesNotKnowAreNamedInANote() throws {
        let workspace = Workspace()
        let input = #"{"stops": {"txt": [{"stop_id": "a", "stop_name": "A", "platform_name": "1", "x_ref": "9"}, {"stop_id": "b"}]}}"#
        let result = try workspace.sluice(["import", "--db", "out.sqlite", "--model", "gtfs"], stdin: Array(input.utf8))
        #expect(result.status == 0, "\(result)")
        let notes = result.stderrLines.filter { $0.hasPrefix("sluice: note:") }
        #expect(notes == [#"sluice: note: stops: the 2 stops records held keys the model does not know, not imported: "platform_name", "x_ref"; to keep them, add attributes to a copy of the model"#],
                "\(result)")
        #expect(try workspace.database("out.sqlite").rows(#"SELECT "stop_id", "stop_name" FROM "stops" ORDER BY "pk""#)
            == [[.text("a"), .text("A")], [.text("b"), .null]])
    }

    /// Files without a key of their own (`fare_rules.txt`: all its fields) and key fields left
    /// empty (`transfers.txt`): the identity is whole all the same, so a re-import finds the rows.
    @Test func keylessFilesAndEmptyKeyFieldsImportOnce() throws {
        let workspace = Workspace()
        let input = #"""
            {"fare_rules": {"txt": [{"fare_id": "F1"}, {"fare_id": "F1", "route_id": "R"}, {"fare_id": "F2", "origin_id": "Z1"}]},
             "feed_info": {"txt": [{"feed_publisher_name": "P", "feed_publisher_url": "https://p.example", "feed_lang": "en"}]},
             "transfers": {"txt": [{"from_stop_id": "a", "to_stop_id": "b", "transfer_type": "2", "min_transfer_time": "180"}]},
             "fare_transfer_rules": {"txt": [{"fare_transfer_type": "0"}]},
             "stops": {"txt": [{"stop_id": "a"}, {"stop_id": "b"}]}}
            """#
        for run in 1...2 {
            let result = try workspace.sluice(["import", "--db", "out.sqlite", "--model", "gtfs", "--stats", "s\(run).json"],
                                              stdin: Array(input.utf8))
            #expect(result.status == 0, "\(result)")
            let stats = try #require(try JSONSerialization.jsonObject(with: Data(workspace.bytes(of: "s\(run).json") ?? [])) as? [String: Any])
            let totals = try #require(stats["totals"] as? [String: Any])
            #expect(totals["inserted"] as? Int == (run == 1 ? 8 : 0), "\(result)")
            #expect(totals["unchanged"] as? Int == (run == 1 ? 0 : 8), "\(result)")
        }
        let database = try workspace.database("out.sqlite")
        #expect(try database.rows(#"SELECT "fare_id", "route_id", "origin_id" FROM "fare_rules" ORDER BY "pk""#)
            == [[.text("F1"), .text(""), .text("")], [.text("F1"), .text("R"), .text("")], [.text("F2"), .text(""), .text("Z1")]])
        #expect(try database.rows(#"SELECT "from_trip_id", "min_transfer_time", "from_stop_pk", "to_stop_pk" FROM "transfers""#)
            == [[.text(""), .integer(180), .integer(1), .integer(2)]])
        #expect(try database.rows(#"SELECT "transfer_count", "duration_limit" FROM "fare_transfer_rules""#) == [[.integer(0), .integer(0)]])
    }

    /// locations.geojson is JSON: its FeatureCollection's `features` are the `locations` rows.
    @Test func locationsGeoJSONFeaturesAreLocations() throws {
        let workspace = Workspace()
        let geojson = #"""
            {"type": "FeatureCollection", "features": [
              {"type": "Feature", "id": "zone1", "properties": {"stop_name": "Zone 1", "stop_desc": "north"},
               "geometry": {"type": "Polygon", "coordinates": [[[0, 0], [1, 0], [1, 1], [0, 0]]]}}]}
            """#
        try workspace.write(geojson, to: "locations.geojson")
        let result = try workspace.sluice("import", "--db", "out.sqlite", "--model", "gtfs", "locations.geojson")
        #expect(result.status == 0, "\(result)")
        #expect(try workspace.database("out.sqlite").rows(#"SELECT "id", "stop_name", "stop_desc", "geometry" FROM "locations""#)
            == [[.text("zone1"), .text("Zone 1"), .text("north"), .text(#"{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,0]]]}"#)]])
    }

    /// A feed in a zip with what the reference does not have: a field and a file (kept, and
    /// named in a note: `GTFSUnknownCSVTests`), locations.geojson (its features are
    /// `locations`), and a stray entry that is no input at all.
    @Test func aZipWithExtensionsAndStrayEntries() throws {
        let workspace = Workspace()
        let geojson = #"{"type": "FeatureCollection", "features": [{"type": "Feature", "id": "z1", "properties": {"stop_name": "Zone"}, "geometry": {"type": "Point", "coordinates": [1, 2]}}]}"#
        let zip = try ZipBuilder([
            .init("feed/stops.txt", Array("stop_id,stop_name,platform_name\r\ns1,One,A\r\ns2,\"Two, Main\",\r\n".utf8)),
            .init("feed/vehicles.txt", Array("vehicle_id\nv1\n".utf8)),
            .init("feed/locations.geojson", Array(geojson.utf8), method: .stored),
            .init("feed/desktop.ini", Array("[x]\n".utf8)),
            .init("feed/stop_times.txt", Array("trip_id,stop_sequence,stop_id,arrival_time\nt1,1,s2,25:10:00\n".utf8)),
        ]).bytes()
        try workspace.write(zip, to: "feed.zip")
        let result = try workspace.sluice("import", "--db", "out.sqlite", "--model", "gtfs", "feed.zip")
        #expect(result.status == 0, "\(result)")
        let notes = result.stderrLines.filter { $0.hasPrefix("sluice: note:") }
        #expect(notes.contains("sluice: note: kept 1 field the model does not know, as text columns: stops.platform_name"), "\(result)")
        #expect(notes.contains { $0.contains("kept 1 file") && $0.hasSuffix("feed.zip:feed/vehicles.txt → vehicles") }, "\(result)")
        #expect(notes.contains { $0.contains("desktop.ini") && $0.contains("skipped") }, "\(result)")
        let database = try workspace.database("out.sqlite")
        #expect(try database.rows(#"SELECT "stop_id", "stop_name", "platform_name" FROM "stops" ORDER BY "pk""#)
            == [[.text("s1"), .text("One"), .text("A")], [.text("s2"), .text("Two, Main"), .null]])
        #expect(try database.rows(#"SELECT "vehicle_id" FROM "vehicles""#) == [[.text("v1")]])
        #expect(try database.rows(#"SELECT "id", "stop_name" FROM "locations""#) == [[.text("z1"), .text("Zone")]])
        #expect(try database.rows(#"SELECT st."arrival_time", s."stop_id" FROM "stop_times" st JOIN "stops" s ON s."pk" = st."stop_pk""#)
            == [[.text("25:10:00"), .text("s2")]])
        // The trip is in no file: its link is left empty and counted, not guessed.
        #expect(result.entityLines.contains { $0.hasPrefix("stop_times: inserted 1,") && $0.hasSuffix("unresolved 1") }, "\(result)")
    }

    /// Any model: an identity attribute whose default is used when its key is missing keeps
    /// the identity whole, so the note does not say its records are inserted again.
    @Test func anIdentityKeyWithADefaultIsNotSaidToBeInsertedAgain() throws {
        let workspace = Workspace()
        try workspace.write("""
            { "entities": { "Rule": { "identity": ["fare", "route"], "attributes": {
                "fare": "string", "route": { "type": "string", "default": "", "defaultWhenMissing": true } } } } }
            """, to: "model.json")
        let result = try workspace.sluice(["import", "--db", "out.sqlite", "--model", "model.json"], stdin: Array(#"[{"fare": "F"}]"#.utf8))
        #expect(result.status == 0, "\(result)")
        #expect(result.stderrLines.filter { $0.hasPrefix("sluice: note:") }
            == [#"sluice: note: Rule.route: key "route" is in none of the 1 Rule record"#], "\(result)")
    }
}
