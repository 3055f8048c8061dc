import Foundation
import SluiceTestSupport
import Testing
@testable import Sluice

/// `--model gtfs`, the built-in model of the GTFS Schedule reference, with the real feeds of
/// `Examples/gtfs/feeds/`: each zip imported as it is (from the file, and from stdin), its CSV
/// files' rows to the entities the model's root names for their file names, and checked
/// against the CSV as Python's csv module reads it.
@Suite struct GTFSBuiltInModelTests {
    static let feeds = ["cairns_gtfs.zip", "nyc_subway_gtfs.zip"]

    /// The `.txt` files of `feed`.
    static func files(of feed: String) throws -> [String] {
        let script = "import sys, zipfile; print('\\n'.join(n for n in zipfile.ZipFile(sys.argv[1]).namelist() if n.endswith('.txt')))"
        return try GTFSFixture.python(["-c", script, GTFSFixture.directory + feed]).split(separator: "\n").map(String.init)
    }

    /// Extracts the `.txt` files of `feed` into `workspace`; returns their names.
    static func extract(_ feed: String, into workspace: Workspace) throws -> [String] {
        let script = """
            import sys, zipfile
            with zipfile.ZipFile(sys.argv[1]) as z:
                names = [n for n in z.namelist() if n.endswith(".txt")]
                for n in names: z.extract(n, sys.argv[2])
            print("\\n".join(names))
            """
        return try GTFSFixture.python(["-c", script, GTFSFixture.directory + feed, workspace.path])
            .split(separator: "\n").map(String.init)
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

    @Test(arguments: feeds)
    func aRealFeedImportsLinkExactAndAgainWritesNothing(_ feed: String) throws {
        let workspace = Workspace()
        let files = try Self.files(of: feed)
        let arguments = ["--model", "gtfs", GTFSFixture.directory + feed]
        let db = try StoreKind.sqlite.makeDatabase(in: workspace)
        let first = try workspace.sluice(["import", "--db", db.target] + arguments)
        try #require(first.status == 0, "\(first)")
        #expect(!first.stderr.contains("unresolved (links left empty)"), "\(first)")
        try checkLinks(of: feed, files: files, in: db)

        // Times stay the feed's text: 24:02:00 is a time of the service day, not a clock time.
        let times = try Self.csv(feed, "stop_times.txt", ["trip_id", "stop_sequence", "arrival_time", "departure_time"])
        #expect(Set(try db.rows(#"SELECT "trip_id", "stop_sequence", "arrival_time", "departure_time" FROM "stop_times""#))
            == Set(times.map(Self.canonicalSequence)))
        #expect(try db.rows(#"SELECT DISTINCT typeof("arrival_time") FROM "stop_times" WHERE "arrival_time" IS NOT NULL"#) == ["text"])

        let tables = files.map { String($0.dropLast(4)) }
        let before = try tables.map { try workspace.database(db.target).dump($0) }
        let second = try workspace.sluice(["import", "--db", db.target] + arguments)
        try #require(second.status == 0, "\(second)")
        #expect(second.entityLines.count == 33, "32 entities and the totals: \(second)")
        for line in second.entityLines {
            // An entity without relationships has no link counts ("-").
            #expect(line.contains(": inserted 0, updated 0, ")
                && (line.hasSuffix(", rejected 0, links 0, unresolved 0") || line.hasSuffix(", rejected 0, links -, unresolved -")), "\(line)")
        }
        #expect(try tables.map { try workspace.database(db.target).dump($0) } == before)
    }

    /// The zip from standard input: found by its magic bytes, read as it streams.
    @Test func aFeedFromStandardInput() throws {
        let feed = "cairns_gtfs.zip"
        let workspace = Workspace()
        let result = try workspace.sluice(["import", "--db", "out.sqlite", "--model", "gtfs"],
                                          stdin: try PackageFiles.bytes("Examples/gtfs/feeds/" + feed))
        #expect(result.status == 0, "\(result)")
        try checkLinks(of: feed, files: try Self.files(of: feed), in: StoreDatabase(kind: .sqlite, target: "out.sqlite",
                                                                                    workspace: workspace, name: ""))
    }

    /// The extracted files, given one by one with `--format csv` (`.txt` is CSV only in a zip).
    @Test func theExtractedFiles() throws {
        let feed = "nyc_subway_gtfs.zip"
        let workspace = Workspace()
        let files = try Self.extract(feed, into: workspace)
        let result = try workspace.sluice(["import", "--db", "db.sqlite", "--model", "gtfs", "--format", "csv"] + files)
        #expect(result.status == 0, "\(result)")
        try checkLinks(of: feed, files: files, in: try StoreKind.sqlite.makeDatabase(in: workspace))
    }

    /// One file from standard input: `--format csv` says it is CSV, `--entity` whose rows they are.
    @Test func oneFileFromStandardInput() throws {
        let feed = "nyc_subway_gtfs.zip"
        let workspace = Workspace()
        _ = try Self.extract(feed, into: workspace)
        let stops = try #require(workspace.bytes(of: "stops.txt"))
        let result = try workspace.sluice(["import", "--db", "out.sqlite", "--model", "gtfs", "--format", "csv", "--entity", "stops"],
                                          stdin: stops)
        #expect(result.status == 0, "\(result)")
        let parents = try Self.csv(feed, "stops.txt", ["stop_id", "parent_station"]).filter { !$0.hasSuffix("|") }
        #expect(parents.count > 100)
        let linked = try workspace.database("out.sqlite").rows(
            #"SELECT s."stop_id", p."stop_id" FROM "stops" s JOIN "stops" p ON s."parent_station_pk" = p."pk""#)
        #expect(linked.map { "\($0[0].text ?? "")|\($0[1].text ?? "")" }.sorted() == parents.sorted())
    }

    /// The same into PostgreSQL (COPY), with a re-import that writes nothing.
    @Test(.enabled(if: PostgresServer.isAvailable, "no PostgreSQL server binaries on this machine"))
    func aRealFeedImportsIntoPostgreSQL() throws {
        let feed = "nyc_subway_gtfs.zip"
        let workspace = Workspace()
        let files = try Self.files(of: feed)
        let db = try StoreKind.postgres.makeDatabase(in: workspace)
        let arguments = ["import", "--db", db.target, "--model", "gtfs", GTFSFixture.directory + feed]
        let first = try workspace.sluice(arguments)
        try #require(first.status == 0, "\(first)")
        try checkLinks(of: feed, files: files, in: db)
        let second = try workspace.sluice(arguments)
        try #require(second.status == 0, "\(second)")
        #expect(second.entityLines.last?.hasPrefix("total: inserted 0, updated 0, ") == true, "\(second)")
        #expect(second.entityLines.last?.hasSuffix(", rejected 0, links 0, unresolved 0") == true, "\(second)")
    }

    /// Every file's row count; every stop time's trip and stop, every trip's route, every stop's
    /// parent station and every transfer's stops, as the CSV names them.
    private func checkLinks(of feed: String, files: [String], in db: StoreDatabase) throws {
        for file in files {
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
