import Foundation
import SluiceTestSupport
import Testing
@testable import Sluice

/// `--model gtfs`, the built-in model of the GTFS Schedule reference, with the real feeds of
/// `Examples/gtfs/feeds/`: each file's rows as one JSON document keyed as the model's root
/// (`{"stops": {"txt": [...]}}`: `stops.txt` is a key path), empty fields left out as the CSV
/// reader leaves them, imported through stdin and checked against the CSV itself.
@Suite struct GTFSBuiltInModelTests {
    static let feeds = ["cairns_gtfs.zip", "nyc_subway_gtfs.zip"]

    /// Every file of `feed` as the JSON document the model's root reads.
    static func document(_ feed: String) throws -> [UInt8] {
        let script = """
            import csv, io, json, sys, zipfile
            doc = {}
            with zipfile.ZipFile(sys.argv[1]) as z:
                for name in z.namelist():
                    if name.endswith(".txt"):
                        rows = csv.DictReader(io.TextIOWrapper(z.open(name), encoding="utf-8-sig"))
                        doc[name[:-4]] = {"txt": [{k: v for k, v in row.items() if v} for row in rows]}
            json.dump(doc, sys.stdout)
            """
        return Array(try GTFSFixture.python(["-c", script, GTFSFixture.directory + feed]).utf8)
    }

    /// The named columns of `file` in `feed`, one line per row, `|`-separated as the store's rows.
    static func csv(_ feed: String, _ file: String, _ columns: [String]) throws -> [String] {
        let script = """
            import csv, io, sys, zipfile
            with zipfile.ZipFile(sys.argv[1]) as z:
                if sys.argv[2] in z.namelist():
                    for row in csv.DictReader(io.TextIOWrapper(z.open(sys.argv[2]), encoding="utf-8-sig")):
                        print("|".join(row.get(c) or "" for c in sys.argv[3:]))
            """
        let output = try GTFSFixture.python(["-c", script, GTFSFixture.directory + feed, file] + columns)
        return output.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    }

    static func files(of feed: String) throws -> [String] {
        let script = "import sys, zipfile; print('\\n'.join(n for n in zipfile.ZipFile(sys.argv[1]).namelist() if n.endswith('.txt')))"
        return try GTFSFixture.python(["-c", script, GTFSFixture.directory + feed]).split(separator: "\n").map(String.init)
    }

    @Test(arguments: feeds)
    func aRealFeedImportsLinkExactAndAgainWritesNothing(_ feed: String) throws {
        let workspace = Workspace()
        let input = try Self.document(feed)
        let db = try StoreKind.sqlite.makeDatabase(in: workspace)
        let first = try db.sluiceImport("--model", "gtfs", stdin: input)
        try #require(first.status == 0, "\(first)")
        #expect(!first.stderr.contains("unresolved (links left empty)"), "\(first)")
        try checkLinks(of: feed, in: db)

        // Times stay the feed's text: 24:02:00 is a time of the service day, not a clock time.
        let times = try Self.csv(feed, "stop_times.txt", ["trip_id", "stop_sequence", "arrival_time", "departure_time"])
        #expect(Set(try db.rows(#"SELECT "trip_id", "stop_sequence", "arrival_time", "departure_time" FROM "stop_times""#))
            == Set(times.map(Self.canonicalSequence)))
        #expect(try db.rows(#"SELECT DISTINCT typeof("arrival_time") FROM "stop_times" WHERE "arrival_time" IS NOT NULL"#) == ["text"])

        let tables = try Self.files(of: feed).map { String($0.dropLast(4)) }
        let before = try tables.map { try workspace.database(db.target).dump($0) }
        let second = try db.sluiceImport("--model", "gtfs", stdin: input)
        try #require(second.status == 0, "\(second)")
        #expect(second.entityLines.count == 33, "32 entities and the totals: \(second)")
        for line in second.entityLines {
            // An entity without relationships has no link counts ("-").
            #expect(line.contains(": inserted 0, updated 0, ")
                && (line.hasSuffix(", rejected 0, links 0, unresolved 0") || line.hasSuffix(", rejected 0, links -, unresolved -")), "\(line)")
        }
        #expect(try tables.map { try workspace.database(db.target).dump($0) } == before)
    }

    /// The same into PostgreSQL (COPY), with a re-import that writes nothing.
    @Test(.enabled(if: PostgresServer.isAvailable, "no PostgreSQL server binaries on this machine"))
    func aRealFeedImportsIntoPostgreSQL() throws {
        let feed = "nyc_subway_gtfs.zip"
        let workspace = Workspace()
        let input = try Self.document(feed)
        let db = try StoreKind.postgres.makeDatabase(in: workspace)
        let first = try db.sluiceImport("--model", "gtfs", stdin: input)
        try #require(first.status == 0, "\(first)")
        try checkLinks(of: feed, in: db)
        let second = try db.sluiceImport("--model", "gtfs", stdin: input)
        try #require(second.status == 0, "\(second)")
        #expect(second.entityLines.last?.hasPrefix("total: inserted 0, updated 0, ") == true, "\(second)")
        #expect(second.entityLines.last?.hasSuffix(", rejected 0, links 0, unresolved 0") == true, "\(second)")
    }

    /// Every file's row count; every stop time's trip and stop, every trip's route, every stop's
    /// parent station and every transfer's stops, as the CSV names them.
    private func checkLinks(of feed: String, in db: StoreDatabase) throws {
        for file in try Self.files(of: feed) {
            let table = String(file.dropLast(4))
            #expect(try db.count(table) == (try Self.csv(feed, file, ["x"])).count, "\(file)")
        }
        let stopTimes = try Self.csv(feed, "stop_times.txt", ["trip_id", "stop_sequence", "stop_id"]).map(Self.canonicalSequence)
        #expect(stopTimes.count > 30_000)
        #expect(Set(try db.rows("""
            SELECT t."trip_id", st."stop_sequence", s."stop_id" FROM "stop_times" st
            JOIN "trips" t ON st."trip_pk" = t."pk" JOIN "stops" s ON st."stop_pk" = s."pk"
            """)) == Set(stopTimes))
        #expect(try db.count("stop_times") == stopTimes.count)
        let trips = try Self.csv(feed, "trips.txt", ["trip_id", "route_id"])
        #expect(try db.rows(#"SELECT t."trip_id", r."route_id" FROM "trips" t JOIN "routes" r ON t."route_pk" = r."pk""#).sorted()
            == trips.sorted())
        let parents = try Self.csv(feed, "stops.txt", ["stop_id", "parent_station"]).filter { !$0.hasSuffix("|") }
        #expect(try db.rows(#"SELECT s."stop_id", p."stop_id" FROM "stops" s JOIN "stops" p ON s."parent_station_pk" = p."pk""#).sorted()
            == parents.sorted())
        let transfers = try Self.csv(feed, "transfers.txt", ["from_stop_id", "to_stop_id"])
        #expect(try db.rows("""
            SELECT f."stop_id", t."stop_id" FROM "transfers" x
            JOIN "stops" f ON x."from_stop_pk" = f."pk" JOIN "stops" t ON x."to_stop_pk" = t."pk"
            """).sorted() == transfers.sorted())
    }

    /// `stop_sequence` as the integer column prints it (`01` → `1`).
    static func canonicalSequence(_ line: String) -> String {
        var fields = line.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
        if let number = Int(fields[1]) { fields[1] = String(number) }
        return fields.joined(separator: "|")
    }
}
