import Foundation
import SluiceTestSupport
import Testing
@testable import Sluice

/// The real GTFS feeds of `Examples/gtfs/feeds/` (CSV in a zip), converted to one JSON
/// document with stop_times first, so that every reference points forward (`docs/import-semantics.md`), imported
/// through stdin and checked link by link against the CSV itself.
@Suite struct GTFSFeedTests {
    static let feeds = ["cairns_gtfs.zip", "nyc_subway_gtfs.zip"]

    @Test(arguments: feeds)
    func everyLinkOfARealFeedMatchesItsCSV(_ feed: String) throws {
        let workspace = Workspace()
        let (zip, input, model) = try converted(feed, in: workspace)

        let first = try workspace.sluice("import", "--db", "gtfs.sqlite", "--model", model, stdin: input)
        try #require(first.status == 0, "\(first)")
        #expect(first.stderr.contains("unresolved (links left empty)") == false, "\(first)")
        let db = try workspace.database("gtfs.sqlite")

        // Every stop time is linked to the trip and the stop its CSV row names.
        let stopTimes = try csv(zip, "stop_times.txt", ["trip_id", "stop_sequence", "stop_id"])
        let linkedStopTimes = try db.rows("""
            SELECT t."tripID", st."sequence", s."stopID" FROM "stop_times" st
            JOIN "trips" t ON st."trip_pk" = t."pk" JOIN "stops" s ON st."stop_pk" = s."pk"
            """).map { row in "\(row[0].text ?? "")\t\(row[1].integer ?? -1)\t\(row[2].text ?? "")" }
        #expect(stopTimes.count > 30_000)
        #expect(Set(linkedStopTimes) == Set(stopTimes))
        #expect(linkedStopTimes.count == stopTimes.count)

        // Every trip to its route.
        let trips = try csv(zip, "trips.txt", ["trip_id", "route_id"])
        let linkedTrips = try db.rows("""
            SELECT t."tripID", r."routeID" FROM "trips" t JOIN "routes" r ON t."route_pk" = r."pk"
            """).map { "\($0[0].text ?? "")\t\($0[1].text ?? "")" }
        #expect(Set(linkedTrips) == Set(trips))
        #expect(linkedTrips.count == trips.count)

        // Every stop with a parent station to that station; the others to none.
        let parents = try csv(zip, "stops.txt", ["stop_id", "parent_station"]).filter { !$0.hasSuffix("\t") }
        let linkedParents = try db.rows("""
            SELECT s."stopID", p."stopID" FROM "stops" s JOIN "stops" p ON s."parent_pk" = p."pk"
            """).map { "\($0[0].text ?? "")\t\($0[1].text ?? "")" }
        #expect(Set(linkedParents) == Set(parents))
        #expect(try db.count("stops") == Int64(try csv(zip, "stops.txt", ["stop_id"]).count))

        // Importing the same feed again changes nothing.
        let before = try ["stops", "routes", "trips", "stop_times"].map { try db.dump($0) }
        let second = try workspace.sluice("import", "--db", "gtfs.sqlite", "--model", model, stdin: input)
        try #require(second.status == 0, "\(second)")
        #expect(second.entityLines.count == 5, "four entities and the totals: \(second)")
        for line in second.entityLines {
            #expect(line.contains(": inserted 0, updated 0, ") && line.hasSuffix(", rejected 0, links 0, unresolved 0"), "\(line)")
        }
        let after = try ["stops", "routes", "trips", "stop_times"].map { try workspace.database("gtfs.sqlite").dump($0) }
        #expect(after == before)
    }

    /// The same feeds into PostgreSQL, every link checked against the CSV, and a re-import
    /// that writes nothing.
    @Test(.enabled(if: PostgresServer.isAvailable, "no PostgreSQL server binaries on this machine"), arguments: feeds)
    func everyLinkOfARealFeedMatchesItsCSVInPostgreSQL(_ feed: String) throws {
        let workspace = Workspace()
        let (zip, input, model) = try converted(feed, in: workspace)
        let db = try StoreKind.postgres.makeDatabase(in: workspace)

        let first = try db.sluiceImport("--model", model, stdin: input)
        try #require(first.status == 0, "\(first)")
        #expect(first.stderr.contains("unresolved (links left empty)") == false, "\(first)")
        func tabbed(_ sql: String) throws -> [String] { try db.rows(sql).map { $0.replacing("|", with: "\t") } }

        let stopTimes = try csv(zip, "stop_times.txt", ["trip_id", "stop_sequence", "stop_id"])
        let linkedStopTimes = try tabbed("""
            SELECT t."tripID", st."sequence", s."stopID" FROM "stop_times" st
            JOIN "trips" t ON st."trip_pk" = t."pk" JOIN "stops" s ON st."stop_pk" = s."pk"
            """)
        #expect(Set(linkedStopTimes) == Set(stopTimes))
        #expect(linkedStopTimes.count == stopTimes.count)
        let trips = try csv(zip, "trips.txt", ["trip_id", "route_id"])
        let linkedTrips = try tabbed(#"SELECT t."tripID", r."routeID" FROM "trips" t JOIN "routes" r ON t."route_pk" = r."pk""#)
        #expect(Set(linkedTrips) == Set(trips))
        let parents = try csv(zip, "stops.txt", ["stop_id", "parent_station"]).filter { !$0.hasSuffix("\t") }
        let linkedParents = try tabbed(#"SELECT s."stopID", p."stopID" FROM "stops" s JOIN "stops" p ON s."parent_pk" = p."pk""#)
        #expect(Set(linkedParents) == Set(parents))

        let second = try db.sluiceImport("--model", model, stdin: input)
        try #require(second.status == 0, "\(second)")
        for line in second.entityLines {
            #expect(line.contains(": inserted 0, updated 0, ") && line.hasSuffix(", rejected 0, links 0, unresolved 0"), "\(line)")
        }
    }

    /// The feed's zip, the feed as one JSON document (stop times first), and the model.
    private func converted(_ feed: String, in workspace: Workspace) throws -> (zip: String, input: [UInt8], model: String) {
        let zip = PackageFiles.root + "/Examples/gtfs/feeds/" + feed
        let json = workspace.file("feed.json")
        try GTFSFixture.python([PackageFiles.path("LargeFixtures/gtfs_to_json.py"), zip, "-o", json])
        return (zip, Array(try Data(contentsOf: URL(fileURLWithPath: json))), PackageFiles.path("LargeFixtures/models/document.json"))
    }

    /// The named columns of a CSV file in the zip, one tab-separated line per row.
    private func csv(_ zip: String, _ file: String, _ columns: [String]) throws -> [String] {
        let script = """
            import csv, io, sys, zipfile
            with zipfile.ZipFile(sys.argv[1]) as z:
                rows = csv.DictReader(io.TextIOWrapper(z.open(sys.argv[2]), encoding="utf-8-sig"))
                for row in rows:
                    print("\\t".join((row.get(c) or "").strip() for c in sys.argv[3:]))
            """
        let output = try GTFSFixture.python(["-c", script, zip, file] + columns)
        return output.split(separator: "\n", omittingEmptySubsequences: true).map { line in
            // stop_sequence: compare as an integer, as imported.
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            if columns == ["trip_id", "stop_sequence", "stop_id"], let sequence = Int(fields[1]) {
                return "\(fields[0])\t\(sequence)\t\(fields[2])"
            }
            return fields.joined(separator: "\t")
        }
    }
}
