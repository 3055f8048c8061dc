import Foundation
import SluiceTestSupport
import Testing
@testable import Sluice

/// A feed's weekly update (issue 53), through the binary: each real feed of
/// `Examples/gtfs/feeds/` imported, then the same feed with rows changed, withdrawn and added
/// (the second zip written here, `week2(of:in:)`) imported into it with `--delete-missing`. The
/// database then holds what a cold import of the second zip gives (rows without their keys,
/// each link as the row it names), and `--stats` counts exactly the rows the second zip
/// changed, in Sluice's layout (SQLite, PostgreSQL) and in a Core Data store
/// (`LargeFixtures/models/GTFS.xcdatamodel`).
@Suite struct GTFSUpdateTests {
    static let feeds = GTFSBuiltInModelTests.feeds
    static let coreDataModel = "LargeFixtures/models/GTFS.xcdatamodel"
    /// The Core Data model's entity of each file it holds (the others are skipped, with a note).
    static let coreDataEntities = [
        "agency.txt": "Agency", "calendar.txt": "Calendar", "calendar_dates.txt": "CalendarDate", "routes.txt": "Route",
        "stops.txt": "Stop", "trips.txt": "Trip", "stop_times.txt": "StopTime", "shapes.txt": "Shape",
    ]

    /// Writes `week2.zip` into `workspace`: `feed` a week later. Every 25th stop renamed, one
    /// added, and the stop the fewest stop times name withdrawn (their link then names no
    /// row); every 40th trip withdrawn with its stop times, every 20th other trip a minute
    /// later (its stop times' times), a trip added (the first one's stop times again, its
    /// first at the new stop); the first route renamed.
    /// Every other row and file as it was. Returns, per file, the rows week 2 inserted,
    /// updated and deleted, found by comparing the two zips' rows by the built-in model's
    /// identity of each file.
    static func week2(of feed: String, in workspace: Workspace) throws -> [String: [String: Int]] {
        let script = #"""
            import collections, csv, io, json, sys, zipfile
            source, target = sys.argv[1], sys.argv[2]
            z = zipfile.ZipFile(source)
            def table(name):
                rows = list(csv.reader(io.TextIOWrapper(z.open(name), encoding="utf-8-sig", newline="")))
                return rows[0], [dict(zip(rows[0], r)) for r in rows[1:]]
            def text(header, rows):
                out = io.StringIO()
                w = csv.writer(out, lineterminator="\n")
                w.writerow(header)
                for r in rows: w.writerow([r.get(c, "") for c in header])
                return out.getvalue().encode("utf-8")
            def later(time):
                if not time: return time
                h, m, s = (int(p) for p in time.split(":"))
                t = h * 3600 + m * 60 + s + 60
                return "%02d:%02d:%02d" % (t // 3600, t // 60 % 60, t % 60)
            stops_h, stops = table("stops.txt")
            trips_h, trips = table("trips.txt")
            times_h, times = table("stop_times.txt")
            routes_h, routes = table("routes.txt")
            gone = {t["trip_id"] for i, t in enumerate(trips) if i % 40 == 39}
            shifted = {t["trip_id"] for i, t in enumerate(trips) if i % 20 == 5}
            first_trip = trips[0]["trip_id"]
            trips = [t for t in trips if t["trip_id"] not in gone]
            trips.append(dict(trips[0], trip_id="NEW_TRIP_1"))
            added = [dict(r, trip_id="NEW_TRIP_1") for r in times if r["trip_id"] == first_trip]
            added[0]["stop_id"] = "NEW_STOP_1"
            times = [dict(r, arrival_time=later(r["arrival_time"]), departure_time=later(r["departure_time"]))
                     if r["trip_id"] in shifted else r for r in times if r["trip_id"] not in gone] + added
            uses = collections.Counter(r["stop_id"] for r in times)
            parents = {s.get("parent_station", "") for s in stops}
            withdrawn = min((uses[s["stop_id"]], s["stop_id"]) for s in stops if s["stop_id"] not in parents)[1]
            stops = [dict(s, stop_name=s["stop_name"] + " (neu)") if i % 25 == 0 else s
                     for i, s in enumerate(stops) if s["stop_id"] != withdrawn]
            stops.append(dict({c: "" for c in stops_h}, stop_id="NEW_STOP_1", stop_name="Neue Haltestelle",
                              stop_lat="1.5", stop_lon="2.5"))
            routes[0] = dict(routes[0], route_long_name=routes[0]["route_long_name"] + " (neu)")
            changed = {"stops.txt": text(stops_h, stops), "trips.txt": text(trips_h, trips),
                       "stop_times.txt": text(times_h, times), "routes.txt": text(routes_h, routes)}
            with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as out:
                for name in z.namelist():
                    out.writestr(name, changed.get(name) or z.read(name))
            identity = {"agency.txt": ["agency_id"], "calendar.txt": ["service_id"], "calendar_dates.txt": ["service_id", "date"],
                        "routes.txt": ["route_id"], "stops.txt": ["stop_id"], "trips.txt": ["trip_id"],
                        "stop_times.txt": ["trip_id", "stop_sequence"], "shapes.txt": ["shape_id", "shape_pt_sequence"],
                        "transfers.txt": ["from_stop_id", "to_stop_id", "from_trip_id", "to_trip_id", "from_route_id", "to_route_id"]}
            def keyed(path, name):
                with zipfile.ZipFile(path) as f:
                    rows = csv.DictReader(io.TextIOWrapper(f.open(name), encoding="utf-8-sig", newline=""))
                    return {tuple(r.get(c) or "" for c in identity[name]): r for r in rows}
            counts = {}
            for name in z.namelist():
                old, new = keyed(source, name), keyed(target, name)
                counts[name] = {"inserted": len(new.keys() - old.keys()), "deleted": len(old.keys() - new.keys()),
                                "updated": sum(1 for k in new.keys() & old.keys() if new[k] != old[k])}
            print(json.dumps(counts))
            """#
        let output = try GTFSFixture.python(["-c", script, GTFSFixture.directory + feed, workspace.file("week2.zip")])
        return try JSONDecoder().decode([String: [String: Int]].self, from: Data(output.utf8))
    }

    /// The counts of `entity` in a `--stats` file.
    static func counted(_ stats: String, _ entity: String) throws -> [String: Int] {
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: stats))) as? [String: Any]
        let entities = json?["entities"] as? [[String: Any]] ?? []
        let counts = entities.first { $0["entity"] as? String == entity } ?? [:]
        return ["inserted", "updated", "deleted"].reduce(into: [:]) { $0[$1] = counts[$1] as? Int ?? 0 }
    }

    /// Every table of the built-in model in Sluice's layout, its rows without the key, each
    /// to-one as the identity of the row it names (`-` for none), sorted: two databases of
    /// the same rows and links give the same lines whatever keys they issued.
    static func contents(of db: StoreDatabase) throws -> [String: [String]] {
        let model = try ModelFile(builtIn: .gtfs).model
        var contents: [String: [String]] = [:]
        for entity in model.entities {
            var selected = entity.attributes.map { "a.\(quoteIdentifier($0.column))" }
            var joins = ""
            for (index, relationship) in entity.relationships.enumerated() where !relationship.toMany {
                let target = try #require(model.entities.first { $0.name == relationship.entity })
                let alias = "l\(index)"
                selected += target.identity.map { name in
                    "coalesce(CAST(\(alias).\(quoteIdentifier(target.attributes.first { $0.name == name }!.column)) AS TEXT), '-')"
                }
                joins += " LEFT JOIN \(quoteIdentifier(target.table)) \(alias) ON \(alias).\"pk\" = a.\(quoteIdentifier(relationship.name + "_pk"))"
            }
            contents[entity.table] = try db.rows("SELECT \(selected.joined(separator: ", ")) FROM \(quoteIdentifier(entity.table)) a\(joins)")
                .sorted()
        }
        return contents
    }

    @Test(arguments: StoreKind.allCases, feeds)
    func anUpdateEqualsTheColdImportOfTheNewFeedAndCountsWhatChanged(_ kind: StoreKind, _ feed: String) throws {
        let workspace = Workspace()
        let changes = try Self.week2(of: feed, in: workspace)
        #expect(changes["stop_times.txt"]?.values.allSatisfy { $0 > 0 } == true, "\(changes)")
        let updated = try kind.makeDatabase(in: workspace)
        try #require(try updated.sluiceImport("--model", "gtfs", "--quiet", GTFSFixture.directory + feed).status == 0)
        let update = try updated.sluiceImport("--model", "gtfs", "--quiet", "--delete-missing", "--stats", "update.json", "week2.zip")
        try #require(update.status == 0, "\(update)")
        let cold = kind == .sqlite ? StoreDatabase(kind: kind, target: "cold.sqlite", workspace: workspace, name: "")
            : try kind.makeDatabase(in: workspace)
        try #require(try cold.sluiceImport("--model", "gtfs", "--quiet", "week2.zip").status == 0)

        let (expected, actual) = (try Self.contents(of: cold), try Self.contents(of: updated))
        for table in expected.keys.sorted() where expected[table] != actual[table] {
            let missing = Set(expected[table]!).subtracting(actual[table] ?? []).sorted().prefix(3)
            let extra = Set(actual[table] ?? []).subtracting(expected[table]!).sorted().prefix(3)
            Issue.record("\(table): \(actual[table]?.count ?? 0) rows for \(expected[table]!.count); missing \(missing), extra \(extra)")
        }
        for (file, counts) in changes {
            #expect(try Self.counted(workspace.file("update.json"), String(file.dropLast(4))) == counts, "\(file)")
        }
    }

    @Test(arguments: feeds)
    func anUpdateOfACoreDataStoreEqualsTheColdImportOfTheNewFeed(_ feed: String) throws {
        let workspace = Workspace()
        let changes = try Self.week2(of: feed, in: workspace)
        let model = PackageFiles.path(Self.coreDataModel)
        let roots = Self.coreDataEntities.sorted { $0.key < $1.key }.flatMap { ["--root", "\($0.key)=\($0.value)"] }
        func sluiceImport(_ db: String, _ arguments: [String]) throws -> SluiceResult {
            try workspace.sluice(["import", "--db", db, "--layout", "coredata", "--model", model, "--quiet"] + roots + arguments)
        }
        try #require(try sluiceImport("updated.sqlite", [GTFSFixture.directory + feed]).status == 0)
        let update = try sluiceImport("updated.sqlite", ["--delete-missing", "--stats", "update.json", "week2.zip"])
        try #require(update.status == 0, "\(update)")
        try #require(try sluiceImport("cold.sqlite", ["week2.zip"]).status == 0)

        let (cold, updated) = (workspace.file("cold.sqlite"), workspace.file("updated.sqlite"))
        let expected = try StoreExport(store: cold, modelPath: model)
        let actual = try StoreExport(store: updated, modelPath: model, identities: expected.identities)
        #expect(try StoreComparison.objects(expected, actual, expectedPath: cold, actualPath: updated) == nil)
        for (file, counts) in changes {
            guard let entity = Self.coreDataEntities[file] else { continue }
            #expect(try Self.counted(workspace.file("update.json"), entity) == counts, "\(file)")
        }
    }
}
