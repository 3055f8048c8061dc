import Foundation
import SluiceTestSupport
import Testing
@testable import Sluice

/// What each import records of its inputs (`sluice_imports.inputs`; a Core Data store's
/// metadata) and `--skip-unchanged`, through the binary: an input byte for byte what the last
/// committed import read, through the same model, ends the import with one note, exit 0, the
/// database as it was.
@Suite struct SkipUnchangedTests {
    static let stores = StoreKind.allCases

    /// A small GTFS feed: two stops, and `feed_info.txt` with `version` (none: no such file).
    static func feed(version: String?, stopName: String = "Central") throws -> [UInt8] {
        var entries = [ZipBuilder.Entry("stops.txt", Array("stop_id,stop_name\nS1,\(stopName)\nS2,Harbour\n".utf8))]
        if let version {
            entries.append(.init("feed_info.txt", Array("""
                feed_publisher_name,feed_publisher_url,feed_lang,feed_version\r
                Transit Co,https://example.org,en,"\(version.replacingOccurrences(of: "\"", with: "\"\""))"\r

                """.utf8)))
        }
        return try ZipBuilder(entries).bytes()
    }

    /// The hex SHA-256 of a file, by Python's hashlib (not the digest under test).
    static func sha256(_ path: String) throws -> String {
        try GTFSFixture.python(["-c", "import hashlib, sys; print(hashlib.sha256(open(sys.argv[1], 'rb').read()).hexdigest())", path])
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    static func size(_ path: String) throws -> Int {
        try Data(contentsOf: URL(fileURLWithPath: path)).count
    }

    static func bytes(_ path: String) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: path))
    }

    @Test func theInputsColumnRecordsEachFileAsReadWithItsFeedVersion() throws {
        let workspace = Workspace()
        _ = try workspace.write(try Self.feed(version: "2026-11 \"w48\""), to: "a.zip")
        _ = try workspace.write(try Self.feed(version: nil), to: "b.zip")
        let (withVersion, without) = (workspace.file("a.zip"), workspace.file("b.zip"))
        let result = try workspace.sluice("import", "--db", "t.sqlite", "--model", "gtfs", "--quiet", "a.zip", "b.zip")
        try #require(result.status == 0, "\(result)")
        let inputs = try workspace.database("t.sqlite").scalar("SELECT inputs FROM sluice_imports")
        #expect(inputs == .text("""
            [{"name":"a.zip","bytes":\(try Self.size(withVersion)),"sha256":"\(try Self.sha256(withVersion))",\
            "feed_version":"2026-11 \\"w48\\""},\
            {"name":"b.zip","bytes":\(try Self.size(without)),"sha256":"\(try Self.sha256(without))"}]
            """))
    }

    /// A gzip file's digest is of the file (compressed), and standard input is digested as it
    /// streams.
    @Test func aGzipFileAndStandardInputAreDigestedAsRead() throws {
        let workspace = Workspace()
        let json = Array(#"[{"id": 1, "name": "a"}]"#.utf8)
        _ = try workspace.write(try Gzip.compress(json), to: "items.json.gz")
        let gzip = workspace.file("items.json.gz")
        let first = try workspace.sluice("import", "--db", "t.sqlite", "--quiet", "--table", "items", "items.json.gz")
        try #require(first.status == 0, "\(first)")
        let second = try workspace.sluice(["import", "--db", "t.sqlite", "--quiet", "--table", "items"], stdin: json)
        try #require(second.status == 0, "\(second)")
        _ = try workspace.write(json, to: "stdin.json")
        let stdinFile = workspace.file("stdin.json")
        #expect(try workspace.database("t.sqlite").rows("SELECT inputs FROM sluice_imports ORDER BY id") == [
            [.text(#"[{"name":"items.json.gz","bytes":\#(try Self.size(gzip)),"sha256":"\#(try Self.sha256(gzip))"}]"#)],
            [.text(#"[{"name":"<stdin>","bytes":\#(json.count),"sha256":"\#(try Self.sha256(stdinFile))"}]"#)],
        ])
    }

    @Test(arguments: stores)
    func anUnchangedFeedIsSkippedWritingNothing(_ kind: StoreKind) throws {
        let workspace = Workspace()
        let db = try kind.makeDatabase(in: workspace)
        _ = try workspace.write(try Self.feed(version: "1"), to: "feed.zip")
        let first = try db.sluiceImport("--model", "gtfs", "--quiet", "feed.zip")
        try #require(first.status == 0, "\(first)")
        let finished = try #require(try db.rows("SELECT id, finished_at FROM sluice_imports").first)
        let before = kind == .sqlite ? try Self.bytes(workspace.file(db.target)) : Data()

        let again = try db.sluiceImport("--model", "gtfs", "--skip-unchanged", "feed.zip")
        #expect(again.status == 0, "\(again)")
        let parts = finished.split(separator: "|").map(String.init)
        let note = "sluice: note: feed.zip unchanged since import \(parts[0]) of "
        if kind == .sqlite {
            #expect(again.stderrLines == [note + "\(parts[1]): nothing written"])
        } else {
            // psql prints a timestamptz its own way (`2026-11-29 12:41:15.57+00`): the note's time must be the same instant.
            let line = try #require(again.stderrLines.first, "\(again)")
            #expect(again.stderrLines.count == 1 && line.hasPrefix(note) && line.hasSuffix(": nothing written"), "\(again)")
            let time = line.dropFirst(note.count).dropLast(": nothing written".count)
            #expect(try db.rows("SELECT finished_at = '\(time)'::timestamptz FROM sluice_imports") == ["t"], "\(time)")
        }
        #expect(try db.count("sluice_imports") == 1)
        if kind == .sqlite { #expect(try Self.bytes(workspace.file(db.target)) == before) }

        // Without the option the same feed is imported as always (and recorded).
        let plain = try db.sluiceImport("--model", "gtfs", "--quiet", "feed.zip")
        #expect(plain.status == 0, "\(plain)")
        #expect(try db.count("sluice_imports") == 2)
    }

    @Test(arguments: stores)
    func aFeedOneByteChangedIsImported(_ kind: StoreKind) throws {
        let workspace = Workspace()
        let db = try kind.makeDatabase(in: workspace)
        _ = try workspace.write(try Self.feed(version: "1", stopName: "Central"), to: "feed.zip")
        try #require(try db.sluiceImport("--model", "gtfs", "--quiet", "feed.zip").status == 0)
        // Same size, one byte changed.
        _ = try workspace.write(try Self.feed(version: "1", stopName: "Centrak"), to: "feed.zip")
        let again = try db.sluiceImport("--model", "gtfs", "--skip-unchanged", "--quiet", "feed.zip")
        #expect(again.status == 0, "\(again)")
        #expect(again.stderr == "")
        #expect(try db.count("sluice_imports") == 2)
        #expect(try db.rows("SELECT stop_name FROM stops ORDER BY stop_id") == ["Centrak", "Harbour"])
    }

    /// Only committed imports count: a failed import of a file leaves the last committed one
    /// as it was, and the file is imported (and fails) again rather than skipped.
    @Test(arguments: stores)
    func aFailedImportIsNotWhatTheInputsAreComparedWith(_ kind: StoreKind) throws {
        let workspace = Workspace()
        let db = try kind.makeDatabase(in: workspace)
        _ = try workspace.write(#"[{"id": 1, "n": 1}]"#, to: "good.json")
        _ = try workspace.write(#"[{"id": 2, "n": "two"}]"#, to: "bad.json")
        _ = try workspace.write(#"{"entities": {"Item": {"table": "items", "identity": "id", "attributes": {"id": "integer", "n": "integer"}}}}"#,
                                to: "model.json")
        try #require(try db.sluiceImport("--model", "model.json", "--entity", "Item", "--quiet", "good.json").status == 0)
        for _ in 0..<2 {
            let bad = try db.sluiceImport("--model", "model.json", "--entity", "Item", "--skip-unchanged", "--quiet", "bad.json")
            #expect(bad.status == 65, "\(bad)")
            #expect(bad.stderrLines.count == 1 && bad.stderrLines[0].hasPrefix("sluice: error: bad.json:1:"), "\(bad)")
        }
        #expect(try db.count("sluice_imports") == 1)
        let good = try db.sluiceImport("--model", "model.json", "--entity", "Item", "--skip-unchanged", "good.json")
        #expect(good.status == 0, "\(good)")
        #expect(good.stderrLines.count == 1 && good.stderrLines[0].hasPrefix("sluice: note: good.json unchanged since import 1 of "),
                "\(good)")
    }

    @Test func aChangedModelImportsTheSameFeed() throws {
        let workspace = Workspace()
        _ = try workspace.write(#"[{"id": 1, "n": 1}]"#, to: "items.json")
        let model = #"{"entities": {"Item": {"table": "items", "identity": "id", "attributes": {"id": "integer", "n": "integer"}}}}"#
        _ = try workspace.write(model, to: "model.json")
        let arguments = ["import", "--db", "t.sqlite", "--model", "model.json", "--entity", "Item", "--skip-unchanged", "--quiet", "items.json"]
        try #require(try workspace.sluice(arguments).status == 0)
        _ = try workspace.write(model + "\n", to: "model.json")
        let again = try workspace.sluice(arguments)
        #expect(again.status == 0, "\(again)")
        #expect(again.stderr == "")
        #expect(try workspace.database("t.sqlite").count("sluice_imports") == 2)
    }

    /// Standard input is read once: deciding would mean holding it all, so it is never skipped.
    @Test func standardInputIsAlwaysImported() throws {
        let workspace = Workspace()
        let json = Array(#"[{"id": 1}]"#.utf8)
        for _ in 0..<2 {
            let result = try workspace.sluice(["import", "--db", "t.sqlite", "--table", "items", "--skip-unchanged"], stdin: json)
            #expect(result.status == 0, "\(result)")
            #expect(result.noteLines.contains("sluice: note: --skip-unchanged: standard input is always imported (it is read once)"))
        }
        #expect(try workspace.database("t.sqlite").count("sluice_imports") == 2)
    }

    /// A Core Data store has no `sluice_imports`: the last import is a key of its metadata.
    @Test func aCoreDataStoreKeepsTheLogInItsMetadataAndSkipsAnUnchangedInput() throws {
        let workspace = Workspace()
        try workspace.writeCoreDataModel(CoreDataImportTests.model, to: "Transit.xcdatamodel")
        _ = try workspace.write(CoreDataImportTests.input, to: "input.json")
        let input = workspace.file("input.json")
        let arguments = ["import", "--db", "Seed.sqlite", "--layout", "coredata", "--model", "Transit.xcdatamodel"]
            + CoreDataImportTests.roots + ["--skip-unchanged", "input.json"]
        let first = try workspace.sluice(arguments)
        try #require(first.status == 0, "\(first)")
        let db = try workspace.database("Seed.sqlite")
        guard case .blob(let plist)? = try db.scalar("SELECT Z_PLIST FROM Z_METADATA") else { Issue.record("no metadata"); return }
        let log = try BinaryPropertyList.read(plist)["SluiceLastImport"]
        #expect(log?["number"] == .integer(1))
        #expect(log?["inputs"] == .string(#"[{"name":"input.json","bytes":\#(try Self.size(input)),"sha256":"\#(try Self.sha256(input))"}]"#))
        guard case .string(let finishedAt)? = log?["finished_at"] else { Issue.record("no finished_at"); return }
        let before = try Self.bytes(workspace.file("Seed.sqlite"))

        let again = try workspace.sluice(arguments)
        #expect(again.status == 0, "\(again)")
        #expect(again.stderrLines.last == "sluice: note: input.json unchanged since import 1 of \(finishedAt): nothing written")
        #expect(try Self.bytes(workspace.file("Seed.sqlite")) == before)

        _ = try workspace.write(CoreDataImportTests.input + " ", to: "input.json")
        let changed = try workspace.sluice(arguments)
        #expect(changed.status == 0, "\(changed)")
        #expect(!changed.stderr.contains("unchanged since"), "\(changed)")
        guard case .blob(let after)? = try workspace.database("Seed.sqlite").scalar("SELECT Z_PLIST FROM Z_METADATA") else { return }
        #expect(try BinaryPropertyList.read(after)["SluiceLastImport"]?["number"] == .integer(2))
    }
}
