import Foundation
import SluiceTestSupport
import Testing

/// A feed's weekly update into PostgreSQL (issue 53): the real feeds of `Examples/gtfs/feeds/`,
/// then the same feed with trips withdrawn and added, stop times moved and stops renamed by the
/// test, imported with `--delete-missing` into the database holding the first, must equal a
/// cold import of the second row for row and link for link (links by their target's identity),
/// with `--stats` counting exactly the rows the test changed; importing it again writes no row
/// (the server's own counters).
@Suite(.enabled(if: PostgresServer.isAvailable, "no PostgreSQL server binaries on this machine"))
struct PostgresFeedUpdateTests {
    /// The to-ones these feeds fill: table, column, target table, target's identity.
    static let links = [("stop_times", "trip_pk", "trips", "trip_id"), ("stop_times", "stop_pk", "stops", "stop_id"),
                        ("trips", "route_pk", "routes", "route_id"), ("stops", "parent_station_pk", "stops", "stop_id"),
                        ("routes", "agency_pk", "agency", "agency_id"), ("transfers", "from_stop_pk", "stops", "stop_id"),
                        ("transfers", "to_stop_pk", "stops", "stop_id")]

    @Test(arguments: GTFSBuiltInModelTests.feeds)
    func anUpdateEqualsAColdImportAndWritesOnlyWhatChanged(_ feed: String) throws {
        let workspace = Workspace()
        let week2 = workspace.file("week2.zip")
        // "trips:inserted|updated|deleted stops:… stop_times:…", by identity.
        let expected = try GTFSFixture.python(["-c", Self.nextWeek, GTFSFixture.directory + feed, week2])
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let updated = try StoreKind.postgres.makeDatabase(in: workspace)
        let first = try updated.sluiceImport("--model", "gtfs", GTFSFixture.directory + feed)
        try #require(first.status == 0, "\(first)")

        let update = try updated.sluiceImport("--model", "gtfs", "--delete-missing", "--stats", "update.json", week2)
        try #require(update.status == 0, "\(update)")
        let stats = try Self.stats(workspace.file("update.json"))
        let counted = ["trips", "stops", "stop_times"].map { name in
            let entity = stats.entities[name] ?? [:]
            return "\(name):\(entity["inserted"] ?? -1)|\(entity["updated"] ?? -1)|\(entity["deleted"] ?? -1)"
        }.joined(separator: " ")
        #expect(counted == expected)
        // Nothing else changed: the totals are those three entities' (links aside).
        let changedRows = expected.split(separator: " ").flatMap { $0.split(separator: ":")[1].split(separator: "|").map { Int($0)! } }
        #expect((stats.totals["inserted"] ?? 0) + (stats.totals["updated"] ?? 0) + (stats.totals["deleted"] ?? 0)
            == changedRows.reduce(0, +))
        #expect(changedRows.allSatisfy { $0 >= 0 } && changedRows[0] > 0 && changedRows[2] > 0 && changedRows[4] > 0)

        let cold = try StoreKind.postgres.makeDatabase(in: workspace)
        let coldImport = try cold.sluiceImport("--model", "gtfs", week2)
        try #require(coldImport.status == 0, "\(coldImport)")
        let tables = try cold.rows("SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename NOT LIKE 'sluice%' ORDER BY 1")
        #expect(tables.contains("stop_times") && tables.contains("trips"))
        for table in tables {
            let query = Self.rowsWithLinks(of: table)
            let (expectedRows, actualRows) = (try cold.rows(query), try updated.rows(query))
            #expect(expectedRows.count == actualRows.count, "\(table)")
            if let index = expectedRows.indices.first(where: { $0 < actualRows.count && expectedRows[$0] != actualRows[$0] }) {
                Issue.record("\(table): cold \(expectedRows[index]), updated \(actualRows[index])")
            }
        }

        // The same feed again: the server writes one row, the import's own log.
        let before = try Self.rowsWritten(updated)
        let again = try updated.sluiceImport("--model", "gtfs", "--delete-missing", "--stats", "again.json", week2)
        try #require(again.status == 0, "\(again)")
        let totals = try Self.stats(workspace.file("again.json")).totals
        #expect(["inserted", "updated", "deleted", "links"].map { totals[$0] ?? -1 } == [0, 0, 0, 0])
        #expect(try Self.rowsWritten(updated) - before == 1)
    }

    /// A table's rows as JSON without their pks, each to-one as its target's identity, sorted.
    static func rowsWithLinks(of table: String) -> String {
        let links = Self.links.filter { $0.0 == table }
        let dropped = (["pk"] + links.map(\.1)).map { "'\($0)'" }.joined(separator: ", ")
        let targets = links.enumerated().map { " || '|' || coalesce(l\($0.offset).\"\($0.element.3)\", '')" }.joined()
        let joins = links.enumerated().map { " LEFT JOIN \"\($0.element.2)\" l\($0.offset) ON l\($0.offset).\"pk\" = s.\"\($0.element.1)\"" }
            .joined()
        return "SELECT (to_jsonb(s) - ARRAY[\(dropped)])::text\(targets) FROM \"\(table)\" s\(joins) ORDER BY 1"
    }

    /// Rows the server counts as inserted, updated or deleted in the database's tables, once
    /// every other session of it has ended (a backend sends its counts as it ends).
    static func rowsWritten(_ db: StoreDatabase) throws -> Int {
        for _ in 0..<100 {
            let others = try db.rows("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()")
            if others == ["0"] { break }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return Int(try db.rows("SELECT coalesce(sum(n_tup_ins + n_tup_upd + n_tup_del), 0) FROM pg_stat_user_tables").first ?? "") ?? -1
    }

    static func stats(_ path: String) throws -> (totals: [String: Int], entities: [String: [String: Int]]) {
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any]
        let totals = (object?["totals"] as? [String: Any] ?? [:]).compactMapValues { $0 as? Int }
        var entities: [String: [String: Int]] = [:]
        for entity in object?["entities"] as? [[String: Any]] ?? [] {
            if let name = entity["entity"] as? String { entities[name] = entity.compactMapValues { $0 as? Int } }
        }
        return (totals, entities)
    }

    /// The feed a week later (argv: the feed, the zip to write): every 50th trip withdrawn with
    /// its stop times, every 100th copied as a new trip, every 20th trip's departures a minute
    /// later, every 50th stop renamed; the other files as they are. Prints what changed per
    /// file by identity (inserted|updated|deleted), as `--stats` should count it.
    static let nextWeek = """
        import csv, io, sys, zipfile
        source = zipfile.ZipFile(sys.argv[1])
        def read(name):
            reader = csv.reader(io.TextIOWrapper(source.open(name), encoding="utf-8-sig", newline=""))
            header = next(reader)
            return header, [row + [""] * (len(header) - len(row)) for row in reader if row]
        def later(time):
            if not time.strip(): return time
            h, m, s = (int(x) for x in time.strip().split(":"))
            t = h * 3600 + m * 60 + s + 60
            return "%02d:%02d:%02d" % (t // 3600, t // 60 % 60, t % 60)
        trips_header, trips = read("trips.txt")
        times_header, times = read("stop_times.txt")
        stops_header, stops = read("stops.txt")
        trip, stop, name = trips_header.index("trip_id"), stops_header.index("stop_id"), stops_header.index("stop_name")
        owner, sequence, departure = times_header.index("trip_id"), times_header.index("stop_sequence"), times_header.index("departure_time")
        ids = [row[trip] for row in trips]
        gone = {t for i, t in enumerate(ids) if i % 50 == 7}
        moved = {t for i, t in enumerate(ids) if i % 20 == 3} - gone
        copied = {t for i, t in enumerate(ids) if i % 100 == 11} - gone
        new_trips = [row for row in trips if row[trip] not in gone]
        new_trips += [row[:trip] + [row[trip] + "_new"] + row[trip + 1:] for row in trips if row[trip] in copied]
        new_times = []
        for row in times:
            if row[owner] in gone: continue
            new_times.append(row[:departure] + [later(row[departure])] + row[departure + 1:] if row[owner] in moved else row)
        new_times += [row[:owner] + [row[owner] + "_new"] + row[owner + 1:] for row in times if row[owner] in copied]
        new_stops = [row[:name] + [row[name] + " (neu)"] + row[name + 1:] if i % 50 == 5 else row for i, row in enumerate(stops)]
        def text(header, rows):
            out = io.StringIO()
            writer = csv.writer(out, lineterminator="\\n")
            writer.writerow(header)
            writer.writerows(rows)
            return out.getvalue().encode("utf-8")
        changed = {"trips.txt": (trips_header, new_trips), "stop_times.txt": (times_header, new_times), "stops.txt": (stops_header, new_stops)}
        with zipfile.ZipFile(sys.argv[2], "w", zipfile.ZIP_DEFLATED) as out:
            for entry in source.namelist():
                out.writestr(entry, text(*changed[entry]) if entry in changed else source.read(entry))
        def keyed(rows, key):
            return {key(row): row for row in rows}
        counts = []
        for label, old, new, key in [("trips", trips, new_trips, lambda r: r[trip]), ("stops", stops, new_stops, lambda r: r[stop]),
                                     ("stop_times", times, new_times, lambda r: (r[owner], int(r[sequence])))]:
            before, after = keyed(old, key), keyed(new, key)
            counts.append("%s:%d|%d|%d" % (label, len(after.keys() - before.keys()),
                                           sum(1 for k in after.keys() & before.keys() if after[k] != before[k]),
                                           len(before.keys() - after.keys())))
        print(" ".join(counts))
        """
}
