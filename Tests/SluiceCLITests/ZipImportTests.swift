import Foundation
import SluiceTestSupport
import Testing
@testable import Sluice

/// Zip archives through the binary: each entry an input of its own kind, its rows to the
/// entity the model's root names for its file name, read as the archive streams in (standard
/// input included), errors naming archive, entry, line and column.
@Suite struct ZipImportTests {
    /// Stop, Route, Trip and StopTime of GTFS, keyed by the feeds' own column names.
    static let gtfsModel = """
        { "root": { "stops.txt": "Stop", "routes.txt": "Route", "trips.txt": "Trip", "stop_times.txt": "StopTime" },
          "entities": {
            "Stop": { "table": "stops", "identity": "stop_id",
              "attributes": { "stop_id": "string", "stop_name": "string", "parent_station": "string" },
              "relationships": { "parent": { "entity": "Stop", "key": "parent_station" } } },
            "Route": { "table": "routes", "identity": "route_id", "attributes": { "route_id": "string", "route_type": "integer" } },
            "Trip": { "table": "trips", "identity": "trip_id", "attributes": { "trip_id": "string", "route_id": "string" },
              "relationships": { "route": { "entity": "Route", "key": "route_id" } } },
            "StopTime": { "table": "stop_times", "identity": ["trip_id", "stop_sequence"],
              "attributes": { "trip_id": "string", "stop_id": "string", "stop_sequence": "integer", "arrival_time": "string" },
              "relationships": { "trip": { "entity": "Trip", "key": "trip_id" }, "stop": { "entity": "Stop", "key": "stop_id" } } } } }
        """

    /// The named columns of a CSV file in `zip`, read by Python's csv module, one
    /// tab-separated line per row.
    private func csv(_ zip: String, _ file: String, _ columns: [String]) throws -> [String] {
        let script = """
            import csv, io, sys, zipfile
            with zipfile.ZipFile(sys.argv[1]) as z:
                for row in csv.DictReader(io.TextIOWrapper(z.open(sys.argv[2]), encoding="utf-8-sig", newline="")):
                    print("\\t".join(row.get(c) or "" for c in sys.argv[3:]))
            """
        return try GTFSFixture.python(["-c", script, zip, file] + columns)
            .split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
    }

    @Test(arguments: ["cairns_gtfs.zip", "nyc_subway_gtfs.zip"])
    func aRealFeedFromStandardInputLinksExactlyAsItsCSVAndAReimportWritesNothing(_ feed: String) throws {
        let workspace = Workspace()
        _ = try workspace.write(Self.gtfsModel, to: "model.json")
        let zip = GTFSFixture.directory + feed
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: zip)))
        let first = try workspace.sluice(["import", "--db", "gtfs.sqlite", "--model", "model.json"], stdin: bytes)
        try #require(first.status == 0, "\(first)")
        #expect(first.noteLines.contains("sluice: note: <stdin>:agency.txt: skipped: the model's root names no entity for "
            + "'agency.txt' (map it with --root agency.txt=ENTITY or in the root)"), "\(first)")
        let db = try workspace.database("gtfs.sqlite")

        for (table, file, column) in [("stops", "stops.txt", "stop_id"), ("routes", "routes.txt", "route_id"),
                                      ("trips", "trips.txt", "trip_id"), ("stop_times", "stop_times.txt", "trip_id")] {
            #expect(try db.count(table) == Int64(try csv(zip, file, [column]).count), "\(table)")
        }
        let stopTimes = try csv(zip, "stop_times.txt", ["trip_id", "stop_sequence", "stop_id", "arrival_time"]).map { line in
            var fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            fields[1] = Int(fields[1]).map(String.init) ?? fields[1]
            return fields.joined(separator: "\t")
        }
        let linked = try db.rows("""
            SELECT t."trip_id", st."stop_sequence", s."stop_id", st."arrival_time" FROM "stop_times" st
            JOIN "trips" t ON st."trip_pk" = t."pk" JOIN "stops" s ON st."stop_pk" = s."pk"
            """).map { "\($0[0].text ?? "")\t\($0[1].integer ?? -1)\t\($0[2].text ?? "")\t\($0[3].text ?? "")" }
        #expect(stopTimes.count > 30_000)
        #expect(linked.count == stopTimes.count)
        #expect(Set(linked) == Set(stopTimes))
        let trips = try csv(zip, "trips.txt", ["trip_id", "route_id"])
        let linkedTrips = try db.rows(#"SELECT t."trip_id", r."route_id" FROM "trips" t JOIN "routes" r ON t."route_pk" = r."pk""#)
            .map { "\($0[0].text ?? "")\t\($0[1].text ?? "")" }
        #expect(Set(linkedTrips) == Set(trips) && linkedTrips.count == trips.count)
        let parents = try csv(zip, "stops.txt", ["stop_id", "parent_station"]).filter { !$0.hasSuffix("\t") }
        let linkedParents = try db.rows(#"SELECT s."stop_id", p."stop_id" FROM "stops" s JOIN "stops" p ON s."parent_pk" = p."pk""#)
            .map { "\($0[0].text ?? "")\t\($0[1].text ?? "")" }
        #expect(Set(linkedParents) == Set(parents) && linkedParents.count == parents.count)

        let before = try ["stops", "routes", "trips", "stop_times"].map { try db.dump($0) }
        let second = try workspace.sluice(["import", "--db", "gtfs.sqlite", "--model", "model.json", zip])
        #expect(second.status == 0, "\(second)")
        #expect(second.entityLines.last?.hasPrefix("total: inserted 0, updated 0, ") == true, "\(second)")
        #expect(try ["stops", "routes", "trips", "stop_times"].map { try db.dump($0) } == before)
    }

    /// A zip written by Python's zipfile to a pipe: every entry deflated with its sizes in a
    /// data descriptor, zip64 ones for one entry; a gzip'd CSV, a JSON file (mapped by
    /// `--root` with its file name), a folder and entries that are no input among them.
    @Test func aStreamedArchiveOfMixedEntries() throws {
        let workspace = Workspace()
        _ = try workspace.write(Self.gtfsModel, to: "model.json")
        let script = """
            import gzip, sys, zipfile
            class Pipe:
                def __init__(self, out): self.out = out
                def write(self, b): self.out.write(b); return len(b)
                def flush(self): self.out.flush()
            with zipfile.ZipFile(Pipe(sys.stdout.buffer), "w", zipfile.ZIP_DEFLATED) as z:
                z.writestr("feed/", b"")
                z.writestr("__MACOSX/feed/._stops.txt", b"junk")
                z.writestr("feed/desktop.ini", b"[x]")
                with z.open("feed/stops.txt", "w", force_zip64=True) as f:
                    f.write(b"stop_id,stop_name,parent_station\\r\\nS1,One,\\r\\nS2,Two,S1\\r\\n")
                z.writestr("feed/routes.txt.gz", gzip.compress(b"route_id,route_type\\nR1,3\\n"))
                z.writestr("feed/trips.json", b'[{"trip_id": "T1", "route_id": "R1"}]')
                z.writestr("feed/stop_times.txt", b"trip_id,stop_id,stop_sequence,arrival_time\\nT1,S1,1,25:10:00\\nT1,S2,2,\\n")
            """
        let path = workspace.file("feed.zip")
        try GTFSFixture.python(["-c", script.replacingOccurrences(of: "Pipe(sys.stdout.buffer)", with: "Pipe(open(sys.argv[1], 'wb'))"), path])
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        let result = try workspace.sluice(["import", "--db", "out.sqlite", "--model", "model.json", "--root", "trips.json=Trip"],
                                          stdin: bytes)
        #expect(result.status == 0, "\(result)")
        #expect(result.noteLines == [
            "sluice: note: <stdin>:__MACOSX/feed/._stops.txt: skipped: macOS metadata",
            "sluice: note: <stdin>:feed/desktop.ini: skipped: not CSV (.csv, .txt), TSV (.tsv) or JSON (.json, .ndjson, .jsonl)",
        ], "\(result)")
        #expect(result.entityLines.last == "total: inserted 6, updated 0, unchanged 0, rejected 0, links 6, unresolved 0", "\(result)")
        let db = try workspace.database("out.sqlite")
        #expect(try db.rows(#"SELECT st."arrival_time", s."stop_name" FROM "stop_times" st JOIN "stops" s ON s."pk" = st."stop_pk" ORDER BY 2"#)
            .map { "\($0[0].text ?? "NULL")|\($0[1].text ?? "")" } == ["25:10:00|One", "NULL|Two"])
        #expect(try db.scalar(#"SELECT r."route_type" FROM "trips" t JOIN "routes" r ON r."pk" = t."route_pk""#)?.integer == 3)
    }

    @Test func anErrorInAnEntryNamesTheArchiveTheEntryTheLineAndTheColumn() throws {
        let workspace = Workspace()
        _ = try workspace.write(Self.gtfsModel, to: "model.json")
        _ = try workspace.write(try ZipBuilder([
            .init("stops.txt", Array("stop_id,stop_name\nS1,One\nS2,Two,three\n".utf8)),
        ]).bytes(), to: "feed.zip")
        let result = try workspace.sluice("import", "--db", "out.sqlite", "--model", "model.json", "feed.zip")
        #expect(result.status == 65)
        #expect(result.stderrLines == [
            "sluice: error: feed.zip:stops.txt:3:1: Stop: a row has more fields than the header's 2 at line 3, column 8",
        ])
        var damaged = ZipBuilder.Entry("stops.txt", Array("stop_id\nS1\n".utf8))
        damaged.crc = 7
        _ = try workspace.write(try ZipBuilder([damaged]).bytes(), to: "feed.zip")
        let crc = try workspace.sluice("import", "--db", "out.sqlite", "--model", "model.json", "feed.zip")
        #expect(crc.status == 65)
        #expect(crc.stderrLines == ["sluice: error: feed.zip:stops.txt: invalid zip archive: CRC-32 mismatch (the archive is damaged)"])
        #expect(!FileManager.default.fileExists(atPath: workspace.file("out.sqlite")))
    }

    @Test func zeroConfigPutsEachEntryInATableNamedAfterItsFile() throws {
        let workspace = Workspace()
        _ = try workspace.write(try ZipBuilder([
            .init("gtfs/stops.txt", Array("stop_id,stop_name\nS1,One\nS2,Two\n".utf8)),
            .init("gtfs/routes.txt", Array("route_id,route_type\nR1,3\n".utf8), method: .stored),
            .init("gtfs/extra.json", Array(#"[{"a": 1}, {"a": 2, "b": "x"}]"#.utf8)),
        ]).bytes(), to: "feed.zip")
        let result = try workspace.sluice("import", "--db", "out.sqlite", "feed.zip")
        #expect(result.status == 0, "\(result)")
        let db = try workspace.database("out.sqlite")
        #expect(try db.rows(#"SELECT "stop_id", "stop_name" FROM "stops" ORDER BY "pk""#).map { $0.map { $0.text ?? "" } }
            == [["S1", "One"], ["S2", "Two"]])
        #expect(try db.rows(#"SELECT "route_id", "route_type" FROM "routes""#).map { $0.map { $0.text ?? "" } } == [["R1", "3"]])
        #expect(try db.count("extra") == 2)
        // The import's own table (named after the archive) holds nothing: it is not made.
        #expect(try db.tables().sorted() == ["extra", "routes", "sluice_imports", "stops"])
        #expect(result.entityLines.map { $0.split(separator: ":")[0] } == ["stops", "routes", "extra", "total"], "\(result)")
    }

    /// An archive cut inside its central directory, or inside the end record after it, is
    /// truncated: exit 65, nothing written, as for one cut inside an entry. (Sluice stopped at
    /// the central directory's first signature and imported it with exit 0.)
    @Test func anArchiveCutInsideItsCentralDirectoryIsAnInputError() throws {
        let workspace = Workspace()
        let archive = try ZipBuilder([.init("stops.txt", Array("stop_id\nS1\n".utf8))]).bytes()
        // The builder ends with a central directory header (46 bytes and the name's 9) and the
        // end record (22).
        for cut in [1, 10, 22, 23, 40, 22 + 46 + 9 - 4] {
            let result = try workspace.sluice(["import", "--db", "out.sqlite", "-"], stdin: Array(archive.dropLast(cut)))
            #expect(result.status == 65, "cut \(cut): \(result)")
            #expect(result.stderrLines == [
                "sluice: error: <stdin>: invalid zip archive: the archive ends inside its central directory (truncated?)",
            ], "cut \(cut)")
            #expect(!FileManager.default.fileExists(atPath: workspace.file("out.sqlite")))
        }
        let whole = try workspace.sluice(["import", "--db", "out.sqlite", "-"], stdin: archive)
        #expect(whole.status == 0, "\(whole)")
        #expect(try workspace.database("out.sqlite").count("stops") == 1)
    }

    /// Two entries of one path are refused, naming it (unzip keeps one of them; Sluice read
    /// both into one table). With `--model gtfs` too, where the headers are read ahead.
    @Test(arguments: [false, true])
    func twoEntriesOfOnePathAreAnInputErrorNamingIt(gtfs: Bool) throws {
        let workspace = Workspace()
        _ = try workspace.write(try ZipBuilder([
            .init("stops.txt", Array("stop_id,stop_name\nS1,One\n".utf8)),
            .init("routes.txt", Array("route_id,route_type\nR1,3\n".utf8)),
            .init("stops.txt", Array("stop_id,stop_name\nS2,Two\n".utf8), method: .stored),
        ]).bytes(), to: "feed.zip")
        let result = try workspace.sluice(["import", "--db", "out.sqlite"] + (gtfs ? ["--model", "gtfs"] : []) + ["feed.zip"])
        #expect(result.status == 65, "\(result)")
        #expect(result.stderrLines == [
            "sluice: error: feed.zip:stops.txt: invalid zip archive: a second entry of this name (an archive holds each "
                + "path once; unzip would keep only one of them)",
        ], "\(result)")
        #expect(!FileManager.default.fileExists(atPath: workspace.file("out.sqlite")))
    }

    /// What the archive says of an entry in two places must agree (issue 52's zip findings):
    /// a data descriptor with the local header where it gives the CRC-32 and sizes too, and
    /// every entry with its central directory record, which readers that seek take (unzip,
    /// ZIPFoundation); an entry the central directory does not list is hidden from them. A
    /// stored entry of unknown size whose data begins with a descriptor's signature is refused
    /// (it was read as empty, and its data as what followed). Each is exit 65 naming the entry,
    /// and nothing is written, with `--model gtfs` too (the headers read ahead).
    @Test(arguments: [false, true])
    func whatTheArchiveSaysTwiceMustAgree(gtfs: Bool) throws {
        let stops = Array("stop_id,stop_name\nS1,One\n".utf8)
        let crc = hex(Gzip.crc32(stops))
        var centralCRC = ZipBuilder.Entry("stops.txt", stops)
        centralCRC.centralCRC = 1
        var centralSize = ZipBuilder.Entry("stops.txt", stops, descriptor: .withSignature, zip64: true)
        centralSize.centralSize = 99
        var headerCRC = ZipBuilder.Entry("stops.txt", stops, descriptor: .withoutSignature)
        headerCRC.headerSizes = true
        headerCRC.headerCRC = 1
        var unlisted = ZipBuilder.Entry("stops.txt", stops, method: .stored)
        unlisted.listed = false
        let signature: [UInt8] = [0x50, 0x4B, 0x07, 0x08]
        let cases: [(ZipBuilder.Entry, String)] = [
            (centralCRC, "stops.txt: invalid zip archive: its central directory says CRC-32 0x00000001, the entry's is \(crc)"),
            (centralSize, "stops.txt: invalid zip archive: its central directory says it holds 99 bytes, the entry 25"),
            (headerCRC, "stops.txt: invalid zip archive: its local header says CRC-32 0x00000001, its data descriptor \(crc)"),
            (unlisted, "stops.txt: invalid zip archive: its central directory does not list this entry (readers that go by it "
                + "would not see it)"),
            (.init("stops.txt", signature + stops, method: .stored, descriptor: .withSignature),
             "stops.txt: the entry is stored with its size after its data, which cannot be read as a stream"),
        ]
        let workspace = Workspace()
        for (entry, message) in cases {
            _ = try workspace.write(try ZipBuilder([.init("routes.txt", Array("route_id,route_type\nR1,3\n".utf8)), entry])
                .bytes(), to: "feed.zip")
            let result = try workspace.sluice(["import", "--db", "out.sqlite"] + (gtfs ? ["--model", "gtfs"] : []) + ["feed.zip"])
            #expect(result.status == 65, "\(result)")
            #expect(result.stderrLines == ["sluice: error: feed.zip:" + message], "\(result)")
            #expect(!FileManager.default.fileExists(atPath: workspace.file("out.sqlite")))
        }
        // The same entries, told the same everywhere, import.
        _ = try workspace.write(try ZipBuilder([
            .init("stops.txt", stops, descriptor: .withSignature, zip64: true),
            .init("routes.txt", Array("route_id,route_type\nR1,3\n".utf8), method: .stored, descriptor: .none),
        ]).bytes(), to: "feed.zip")
        let result = try workspace.sluice(["import", "--db", "out.sqlite"] + (gtfs ? ["--model", "gtfs"] : []) + ["feed.zip"])
        #expect(result.status == 0, "\(result)")
    }

    private func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return "0x" + String(repeating: "0", count: 8 - digits.count) + digits
    }

    /// A zero-config import of an archive of many small entries: each entry's table is made
    /// with its columns in one schema change (`PRAGMA schema_version` counts them), so the work
    /// per entry does not grow with the tables before it. It took three (a bare table, one
    /// `ADD COLUMN`, the rest), each of which parses the whole schema again: 5,000 entries
    /// took 154 s.
    @Test func zeroConfigMakesEachEntrysTableInOneSchemaChange() throws {
        let workspace = Workspace()
        let count = 300
        try workspace.write(try ZipBuilder((0..<count).map { .init("f\($0).txt", Array("a,b,c\n\($0),2,3\n".utf8), method: .stored) })
            .bytes(), to: "feed.zip")
        let result = try workspace.sluice("import", "--quiet", "--db", "out.sqlite", "feed.zip")
        #expect(result.status == 0, "\(result)")
        let db = try workspace.database("out.sqlite")
        // Each entry's table, and sluice_imports.
        #expect(try db.scalar("PRAGMA schema_version")?.integer == Int64(count + 1))
        #expect(try db.tables().count == count + 1)
        #expect(try db.rows(#"SELECT "a", "b", "c" FROM "f299""#).map { $0.map { $0.text ?? "" } } == [["299", "2", "3"]])
    }
}
