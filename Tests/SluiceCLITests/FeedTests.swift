import Foundation
import SluiceTestSupport
import Testing
@testable import Sluice

/// Several feeds in one database (`--feed NAME`, `docs/import-semantics.md#feeds`), through the
/// binary: two feeds with the same ids keep their own rows and links, in either order; one
/// feed's `--delete-missing`, `--remove` and `--skip-unchanged` leave the other alone; what a
/// feed cannot be mixed with is refused in one line.
@Suite struct FeedTests {
    static let stores = StoreKind.allCases

    /// A small GTFS feed whose ids every variant shares (agency `1`, stops `S1` `S2`, route
    /// `R1`, trip `T100`), with values of its own: `name` in the names, `hour` in the times.
    /// `withoutLastStop` leaves out stop `S2` and its stop time.
    static func feed(_ name: String, hour: String, withoutLastStop: Bool = false) throws -> [UInt8] {
        var stops = "stop_id,stop_name\nS1,\(name) One\n"
        var times = "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nT100,\(hour):00:00,\(hour):00:00,S1,1\n"
        if !withoutLastStop {
            stops += "S2,\(name) Two\n"
            times += "T100,\(hour):10:00,\(hour):10:00,S2,2\n"
        }
        return try ZipBuilder([
            .init("agency.txt", Array("agency_id,agency_name,agency_url,agency_timezone\n1,\(name),https://\(name).example,UTC\n".utf8)),
            .init("stops.txt", Array(stops.utf8)),
            .init("routes.txt", Array("route_id,agency_id,route_short_name,route_type\nR1,1,\(name)1,3\n".utf8)),
            .init("trips.txt", Array("route_id,service_id,trip_id\nR1,WK,T100\n".utf8)),
            .init("stop_times.txt", Array(times.utf8)),
        ]).bytes()
    }

    /// Every row of the small feeds' tables with its links given by the target's feed and id,
    /// not its pk: what two databases must agree on whatever order they were written in.
    static let canonical = [
        #"SELECT "sluice_feed", "agency_id", "agency_name" FROM "agency" ORDER BY 1, 2"#,
        #"SELECT "sluice_feed", "stop_id", "stop_name" FROM "stops" ORDER BY 1, 2"#,
        #"SELECT r."sluice_feed", r."route_id", r."route_short_name", a."sluice_feed", a."agency_id" FROM "routes" r "#
            + #"LEFT JOIN "agency" a ON a."pk" = r."agency_pk" ORDER BY 1, 2"#,
        #"SELECT t."sluice_feed", t."trip_id", r."sluice_feed", r."route_id" FROM "trips" t "#
            + #"LEFT JOIN "routes" r ON r."pk" = t."route_pk" ORDER BY 1, 2"#,
        #"SELECT st."sluice_feed", st."trip_id", st."stop_sequence", st."arrival_time", t."sluice_feed", t."trip_id", "#
            + #"s."sluice_feed", s."stop_id", s."stop_name" FROM "stop_times" st LEFT JOIN "trips" t ON t."pk" = st."trip_pk" "#
            + #"LEFT JOIN "stops" s ON s."pk" = st."stop_pk" ORDER BY 1, 2, 3"#,
    ]

    static func dump(_ db: StoreDatabase) throws -> [[String]] {
        try canonical.map { try db.rows($0) }
    }

    /// `sluice import --db DB --model gtfs --quiet ARGUMENTS…`, which must succeed.
    @discardableResult
    static func gtfs(_ db: StoreDatabase, _ arguments: String...) throws -> SluiceResult {
        let result = try db.workspace.sluice(["import", "--db", db.target, "--model", "gtfs", "--quiet"] + arguments)
        try #require(result.status == 0, "\(result)")
        return result
    }

    @Test(arguments: stores)
    func twoFeedsWithTheSameIdsKeepTheirRowsAndLinksInEitherOrder(_ kind: StoreKind) throws {
        let workspace = Workspace()
        _ = try workspace.write(try Self.feed("Alpha", hour: "08"), to: "a.zip")
        _ = try workspace.write(try Self.feed("Beta", hour: "09"), to: "b.zip")
        let forward = try kind.makeDatabase(in: workspace)
        try Self.gtfs(forward, "--feed", "A", "a.zip")
        try Self.gtfs(forward, "--feed", "B", "b.zip")
        let backward = try kind.makeDatabase(in: Workspace())
        _ = try backward.workspace.write(try Self.feed("Alpha", hour: "08"), to: "a.zip")
        _ = try backward.workspace.write(try Self.feed("Beta", hour: "09"), to: "b.zip")
        try Self.gtfs(backward, "--feed", "B", "b.zip")
        try Self.gtfs(backward, "--feed", "A", "a.zip")

        let dump = try Self.dump(forward)
        #expect(try Self.dump(backward) == dump)
        // Each feed's stop times link its own trip and stops, never the other's.
        #expect(dump[4] == [
            "A|T100|1|08:00:00|A|T100|A|S1|Alpha One", "A|T100|2|08:10:00|A|T100|A|S2|Alpha Two",
            "B|T100|1|09:00:00|B|T100|B|S1|Beta One", "B|T100|2|09:10:00|B|T100|B|S2|Beta Two",
        ])
        #expect(dump[2] == ["A|R1|Alpha1|A|1", "B|R1|Beta1|B|1"])
        #expect(dump[3] == ["A|T100|A|R1", "B|T100|B|R1"])
        #expect(try forward.rows(#"SELECT "feed" FROM "sluice_imports" ORDER BY "id""#) == ["A", "B"])

        // Again, each feed's rows are found, not made twice: nothing written.
        let again = try forward.workspace.sluice(["import", "--db", forward.target, "--model", "gtfs", "--feed", "A", "a.zip"])
        #expect(again.status == 0, "\(again)")
        #expect(again.entityLines.contains("total: inserted 0, updated 0, unchanged 7, rejected 0, links 0, unresolved 0"), "\(again)")
        #expect(try Self.dump(forward) == dump)
    }

    @Test(arguments: stores)
    func deleteMissingOfOneFeedLeavesTheOtherUntouched(_ kind: StoreKind) throws {
        let workspace = Workspace()
        let db = try kind.makeDatabase(in: workspace)
        _ = try workspace.write(try Self.feed("Alpha", hour: "08"), to: "a.zip")
        _ = try workspace.write(try Self.feed("Alpha", hour: "08", withoutLastStop: true), to: "a2.zip")
        _ = try workspace.write(try Self.feed("Beta", hour: "09"), to: "b.zip")
        try Self.gtfs(db, "--feed", "A", "a.zip")
        try Self.gtfs(db, "--feed", "B", "b.zip")
        let before = try Self.dump(db)

        try Self.gtfs(db, "--feed", "A", "--delete-missing", "a2.zip")
        let after = try Self.dump(db)
        for table in after.indices {
            #expect(after[table].filter { $0.hasPrefix("B|") } == before[table].filter { $0.hasPrefix("B|") })
        }
        #expect(after[1] == ["A|S1|Alpha One", "B|S1|Beta One", "B|S2|Beta Two"])
        #expect(after[4].filter { $0.hasPrefix("A|") } == ["A|T100|1|08:00:00|A|T100|A|S1|Alpha One"])
    }

    @Test(arguments: stores)
    func aFeedIsRemovedWholeAndTheOtherStays(_ kind: StoreKind) throws {
        let workspace = Workspace()
        let db = try kind.makeDatabase(in: workspace)
        _ = try workspace.write(try Self.feed("Alpha", hour: "08"), to: "a.zip")
        _ = try workspace.write(try Self.feed("Beta", hour: "09"), to: "b.zip")
        try Self.gtfs(db, "--feed", "A", "a.zip")
        try Self.gtfs(db, "--feed", "B", "b.zip")
        let before = try Self.dump(db)

        let removal = try workspace.sluice(["import", "--db", db.target, "--model", "gtfs", "--feed", "A", "--remove"])
        #expect(removal.status == 0, "\(removal)")
        let name = kind == .sqlite ? db.target : ImportStores.displayName(of: db.target)
        #expect(removal.stderrLines.count == 1, "\(removal)")
        #expect(removal.stderrLines.first?.hasPrefix(
            "sluice: removed feed 'A' from \(name): 7 rows deleted (agency 1, stops 2, routes 1, trips 1, stop_times 2) in ") == true,
            "\(removal)")
        let after = try Self.dump(db)
        #expect(after == before.map { $0.filter { $0.hasPrefix("B|") } })
        #expect(try db.rows(#"SELECT "feed", "records" FROM "sluice_imports" ORDER BY "id""#) == ["A|7", "B|7", "A|0"])

        // The removal is the feed's last import: the same bytes again are imported, not skipped.
        try Self.gtfs(db, "--feed", "A", "--skip-unchanged", "a.zip")
        #expect(try Self.dump(db) == before)

        // A feed the database does not hold: nothing to delete.
        let none = try workspace.sluice(["import", "--db", db.target, "--model", "gtfs", "--feed", "C", "--remove"])
        #expect(none.status == 0, "\(none)")
        #expect(none.stderrLines.first?.hasPrefix("sluice: removed feed 'C' from \(name): 0 rows deleted in ") == true, "\(none)")
    }

    @Test(arguments: stores)
    func skipUnchangedComparesWithTheLastImportOfTheSameFeed(_ kind: StoreKind) throws {
        let workspace = Workspace()
        let db = try kind.makeDatabase(in: workspace)
        _ = try workspace.write(try Self.feed("Alpha", hour: "08"), to: "a.zip")
        try Self.gtfs(db, "--feed", "A", "a.zip")
        // The same bytes as another feed are that feed's first import.
        try Self.gtfs(db, "--feed", "B", "--skip-unchanged", "a.zip")
        #expect(try db.rows(#"SELECT "sluice_feed", "stop_name" FROM "stops" ORDER BY 1, 2"#)
            == ["A|Alpha One", "A|Alpha Two", "B|Alpha One", "B|Alpha Two"])
        let again = try workspace.sluice(["import", "--db", db.target, "--model", "gtfs", "--feed", "A", "--skip-unchanged", "a.zip"])
        #expect(again.status == 0, "\(again)")
        #expect(again.stderrLines.count == 1 && again.stderrLines[0].hasPrefix("sluice: note: a.zip unchanged since import 1 of "),
                "\(again)")
        #expect(try db.count("sluice_imports") == 2)
    }

    /// Any model, JSON input: a to-one linked by a bare id in the second pass (a forward
    /// reference), a to-many in a join table, nested records and `--unresolved stub`, each
    /// within its feed.
    @Test(arguments: stores)
    func aJSONModelsLinksAndStubsStayWithinTheFeed(_ kind: StoreKind) throws {
        let workspace = Workspace()
        let db = try kind.makeDatabase(in: workspace)
        try workspace.write("""
            {"root": {"lines": "Line", "stops": "Stop"},
             "entities": {
               "Stop": {"table": "stops", "identity": "id", "attributes": {"id": "string", "name": "string"}},
               "Line": {"table": "lines", "identity": "id", "attributes": {"id": "integer", "name": "string"},
                        "relationships": {"first": {"entity": "Stop"},
                                          "stops": {"entity": "Stop", "toMany": true},
                                          "depot": {"entity": "Depot"}}},
               "Depot": {"table": "depots", "identity": "code", "attributes": {"code": "string", "name": "string"}}}}
            """, to: "model.json")
        // A name with a quote: it is a literal in the statements that stay within the feed.
        for feed in ["A", "B'"] {
            try workspace.write("""
                {"lines": [{"id": 1, "name": "\(feed) line", "first": "S2", "stops": ["S1", "S2", "S9"], "depot": {"code": "D", "name": "\(feed) depot"}}],
                 "stops": [{"id": "S1", "name": "\(feed) one"}, {"id": "S2", "name": "\(feed) two"}]}
                """, to: "\(feed).json")
        }
        for feed in ["B'", "A"] {
            let result = try workspace.sluice(["import", "--db", db.target, "--model", "model.json", "--feed", feed,
                                               "--unresolved", "stub", "--quiet", "\(feed).json"])
            try #require(result.status == 0, "\(result)")
        }
        #expect(try db.rows(#"SELECT l."sluice_feed", l."name", s."sluice_feed", s."name", d."sluice_feed", d."name" FROM "lines" l "#
            + #"JOIN "stops" s ON s."pk" = l."first_pk" JOIN "depots" d ON d."pk" = l."depot_pk" ORDER BY 1"#)
            == ["A|A line|A|A two|A|A depot", "B'|B' line|B'|B' two|B'|B' depot"])
        #expect(try db.rows(#"SELECT l."sluice_feed", s."sluice_feed", s."id", s."name" FROM "lines_stops" j "#
            + #"JOIN "lines" l ON l."pk" = j."source_pk" JOIN "stops" s ON s."pk" = j."target_pk" ORDER BY 1, 3"#)
            == ["A|A|S1|A one", "A|A|S2|A two", "A|A|S9|", "B'|B'|S1|B' one", "B'|B'|S2|B' two", "B'|B'|S9|"])
    }

    @Test func refusals() throws {
        let workspace = Workspace()
        _ = try workspace.write(try Self.feed("Alpha", hour: "08"), to: "a.zip")
        try #require(try workspace.sluice("import", "--db", "plain.sqlite", "--model", "gtfs", "--quiet", "a.zip").status == 0)
        try #require(try workspace.sluice("import", "--db", "feeds.sqlite", "--model", "gtfs", "--feed", "A", "--quiet", "a.zip").status == 0)
        let model = try workspace.write(#"{"entities": {"Item": {"identity": "id", "attributes": {"id": "integer", "sluice_feed": "string"}}}}"#,
                                        to: "model.json")
        let cases: [([String], String)] = [
            (["--db", "plain.sqlite", "--model", "gtfs", "--feed", "A", "a.zip"],
             "database 'plain.sqlite' was imported without --feed (table \"agency\" has no column sluice_feed): "
                + "import without --feed, or import each feed with --feed into a new database"),
            (["--db", "feeds.sqlite", "--model", "gtfs", "a.zip"],
             "database 'feeds.sqlite' holds named feeds (table \"agency\" has the column sluice_feed): import with --feed NAME"),
            (["--db", "feeds.sqlite", "--model", "gtfs", "--remove"], "--remove needs --feed: it removes the rows of one feed"),
            (["--db", "feeds.sqlite", "--model", "gtfs", "--feed", "A", "--remove", "a.zip"],
             "--remove reads no input: give no FILE (it deletes the rows of --feed A)"),
            (["--db", "x.sqlite", "--feed", "A", "a.json"], "--feed needs --model: without a model, the records go to one table"),
            (["--db", "x.sqlite", "--model", "gtfs", "--feed", "", "a.zip"],
             "--feed must name the feed: a name of at least one character, without NUL"),
            (["--db", "x.sqlite", "--model", model, "--entity", "Item", "--feed", "A", "a.json"],
             "--feed stores the feed in the column sluice_feed, which the attribute sluice_feed of Item already names: rename it in the model"),
        ]
        for (arguments, message) in cases {
            let result = try workspace.sluice(["import"] + arguments)
            #expect(result.status == 64, "\(arguments): \(result)")
            #expect(result.stderrLines == ["sluice: error: " + message], "\(arguments): \(result)")
        }
        #expect(!FileManager.default.fileExists(atPath: workspace.file("x.sqlite")))

        let missing = try workspace.sluice("import", "--db", "missing.sqlite", "--model", "gtfs", "--feed", "A", "--remove")
        #expect(missing.status == 66, "\(missing)")
        #expect(missing.stderrLines == ["sluice: error: database 'missing.sqlite' does not exist: there is no feed to remove"], "\(missing)")
        #expect(!FileManager.default.fileExists(atPath: workspace.file("missing.sqlite")))
    }

    @Test func aCoreDataStoreRefusesAFeed() throws {
        let workspace = Workspace()
        let model = PackageFiles.path(MagicalRecordFixture.model)
        _ = try workspace.write(#"[{"testPrimaryKey": 1}]"#, to: "a.json")
        let result = try workspace.sluice("import", "--db", "App.sqlite", "--layout", "coredata", "--model", model,
                                          "--entity", "SingleEntityWithNoRelationships", "--feed", "A", "--quiet", "a.json")
        #expect(result.status == 64, "\(result)")
        #expect(result.stderrLines == ["sluice: error: --feed needs Sluice's layout or PostgreSQL: a Core Data store's tables have no "
            + "column for the feed; import each feed into a store of its own"], "\(result)")
        #expect(!FileManager.default.fileExists(atPath: workspace.file("App.sqlite")))
    }

    /// The two real feeds of `Examples/gtfs/feeds` side by side: each feed's rows are those it
    /// has alone, every stop time links its own feed's trip and stop, and removing one feed
    /// leaves the other as it was.
    @Test func theTwoBundledFeedsSideBySide() throws {
        let workspace = Workspace()
        let feeds = [("cairns", "cairns_gtfs.zip"), ("nyc", "nyc_subway_gtfs.zip")]
        let tables = ["agency", "stops", "routes", "trips", "stop_times", "shapes", "calendar", "calendar_dates", "transfers"]
        for (feed, file) in feeds {
            let alone = try workspace.sluice("import", "--db", "\(feed).sqlite", "--model", "gtfs", "--quiet", GTFSFixture.directory + file)
            try #require(alone.status == 0, "\(alone)")
            let together = try workspace.sluice("import", "--db", "both.sqlite", "--model", "gtfs", "--feed", feed, "--quiet",
                                                GTFSFixture.directory + file)
            try #require(together.status == 0, "\(together)")
        }
        let both = try workspace.database("both.sqlite")
        for (feed, _) in feeds {
            let alone = try workspace.database("\(feed).sqlite")
            for table in tables where try alone.tables().contains(table) {
                #expect(try both.scalar("SELECT count(*) FROM \"\(table)\" WHERE sluice_feed = ?", [.text(feed)])
                    == alone.scalar("SELECT count(*) FROM \"\(table)\""), "\(feed) \(table)")
            }
            // The same stop times, linked to the same trips and stops (by id).
            let links = #"SELECT count(*), sum(length(t."trip_id")), sum(length(s."stop_id") * st."stop_sequence") "#
                + #"FROM "stop_times" st JOIN "trips" t ON t."pk" = st."trip_pk" AND t."trip_id" = st."trip_id" "#
                + #"JOIN "stops" s ON s."pk" = st."stop_pk" AND s."stop_id" = st."stop_id""#
            #expect(try both.rows(links + #" WHERE st."sluice_feed" = ? AND t."sluice_feed" = ? AND s."sluice_feed" = ?"#,
                                  [.text(feed), .text(feed), .text(feed)]) == alone.rows(links))
        }
        #expect(try both.scalar(#"SELECT count(*) FROM "stop_times" st JOIN "trips" t ON t."pk" = st."trip_pk" "#
            + #"WHERE t."sluice_feed" <> st."sluice_feed""#) == .integer(0))

        let nyc = try tables.map { try both.rows("SELECT * FROM \"\($0)\" WHERE sluice_feed = 'nyc' ORDER BY pk") }
        let removal = try workspace.sluice("import", "--db", "both.sqlite", "--model", "gtfs", "--feed", "cairns", "--remove")
        #expect(removal.status == 0, "\(removal)")
        #expect(removal.stderrLines.first?.hasPrefix("sluice: removed feed 'cairns' from both.sqlite: 62,365 rows deleted (agency 1, "
            + "stops 416, routes 22, trips 1,339, stop_times 37,790, calendar 4, calendar_dates 9, shapes 22,784) in ") == true,
            "\(removal)")
        #expect(try tables.map { try both.rows("SELECT * FROM \"\($0)\" ORDER BY pk") } == nyc)
    }
}
