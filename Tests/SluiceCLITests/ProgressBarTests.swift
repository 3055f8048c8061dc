import Foundation
import SluiceTestSupport
import Testing
@testable import Sluice
@testable import SluiceCLI

/// The progress bar end to end: drawn when stderr is a terminal (a pseudo-terminal here) or
/// with `--progress`, never on a pipe by default, with `--no-progress` or with `--quiet`; and
/// always cleared before the summary or an error line.
@Suite struct ProgressBarTests {
    /// stderr as a terminal shows it: the bar's frames (`\r…\e[K` each), then the clear
    /// (`\r\e[K`), then plain lines. `nil` when the bytes do not have that shape.
    struct Drawn {
        var frames: [String]
        var after: String

        init?(_ stderr: String) {
            var pieces = stderr.components(separatedBy: "\r")
            guard pieces.count >= 3, pieces.removeFirst() == "", let last = pieces.popLast(),
                  last.hasPrefix("\u{1B}[K")
            else { return nil }
            frames = []
            for piece in pieces {
                guard piece.hasSuffix("\u{1B}[K"), !piece.hasPrefix("\u{1B}[K") else { return nil }
                frames.append(String(piece.dropLast(3)))
            }
            after = String(last.dropFirst(3))
            guard !after.contains("\u{1B}") else { return nil }
        }

        /// What is left once the bar is gone, as a run's result (for its table and lines).
        func result(status: Int32) -> SluiceResult { SluiceResult(status: status, stdout: "", stderr: after) }
    }

    /// NDJSON records of `Fixtures.itemModel`, about `bytes` long: several 1 MiB chunks.
    static func records(bytes: Int) -> [UInt8] {
        var text = ""
        var id = 0
        while text.utf8.count < bytes {
            text += "{\"id\": \(id), \"n\": \"record number \(id) with some padding to make it longer\"}\n"
            id += 1
        }
        return Array(text.utf8)
    }

    @Test func drawnOnATerminalAndClearedBeforeTheSummary() throws {
        let workspace = Workspace()
        let sample = try PackageFiles.bytes(Fixtures.transitSample)
        try workspace.write(sample, to: "sample.json")
        let model = PackageFiles.path(Fixtures.transitModel)

        let result = try workspace.sluiceOnTerminal(["import", "--db", "t.sqlite", "--model", model, "sample.json"])

        #expect(result.status == 0, "\(result)")
        let drawn = try #require(Drawn(result.stderr), "\(result.stderr.debugDescription)")
        let size = Format.bytes(Int64(sample.count))
        #expect(drawn.frames.first?.hasPrefix("[") == true, "\(drawn.frames)")
        #expect(drawn.frames.first?.contains("]  100%  \(size) of \(size)  ") == true, "\(drawn.frames)")
        #expect(drawn.frames.first?.contains(" records/s  ETA 0:00") == true, "\(drawn.frames)")
        #expect(drawn.frames.allSatisfy { $0.count < 100 }, "never the last column: \(drawn.frames)")
        // After the clear, the summary as on a pipe: the table, then the closing line.
        let summary = drawn.result(status: result.status)
        #expect(summary.stderrLines.count == 7, "\(summary)")
        #expect(summary.entityLines.last == "total: inserted 155, updated 0, unchanged 0, rejected 0, links 192, unresolved 0")
        #expect(summary.stderrLines.last?.hasPrefix("sluice: imported 155 records") == true, "\(summary)")
        #expect(try workspace.database("t.sqlite").count("stops") == 76)
    }

    @Test func notDrawnWhenStderrIsAPipe() throws {
        let workspace = Workspace()
        let model = PackageFiles.path(Fixtures.transitModel)
        try workspace.write(try PackageFiles.bytes(Fixtures.transitSample), to: "sample.json")

        let result = try workspace.sluice("import", "--db", "t.sqlite", "--model", model, "sample.json")

        #expect(result.status == 0, "\(result)")
        #expect(!result.stderr.contains("\r") && !result.stderr.contains("\u{1B}") && !result.stderr.contains("%"), "\(result)")
        #expect(result.stderrLines.first?.hasPrefix("  ") == true, "the table comes first: \(result)")
    }

    @Test func progressForcesItOnAPipe() throws {
        let workspace = Workspace()
        try workspace.write(Fixtures.itemModel, to: "model.json")

        let result = try workspace.sluice(["import", "--db", "t.sqlite", "--model", "model.json", "--progress"],
                                          stdin: Array(#"{"id": 1} {"id": 2}"#.utf8), environment: ["COLUMNS": "60"])

        #expect(result.status == 0, "\(result)")
        let drawn = try #require(Drawn(result.stderr), "\(result.stderr.debugDescription)")
        // A pipe has no size: bytes and records, no percentage.
        #expect(drawn.frames.first?.hasPrefix("19 bytes  2 records  ") == true, "\(drawn.frames)")
        #expect(drawn.frames.allSatisfy { !$0.contains("%") && $0.count < 60 }, "\(drawn.frames)")
        #expect(drawn.result(status: 0).entityLines == ["T: inserted 2, updated 0, unchanged 0, rejected 0"])
    }

    @Test func unknownTotalOnATerminalShowsRecords() throws {
        let workspace = Workspace()
        try workspace.write(Fixtures.itemModel, to: "model.json")
        let input = Self.records(bytes: 3 << 20)

        // Standard input is a pipe: its size is not known.
        let result = try workspace.sluiceOnTerminal(["import", "--db", "t.sqlite", "--model", "model.json"], stdin: input)

        #expect(result.status == 0, "\(result)")
        let drawn = try #require(Drawn(result.stderr), "\(result.stderr.debugDescription)")
        #expect(drawn.frames.first?.hasPrefix("1.0 MiB  ") == true, "the first chunk is drawn at once: \(drawn.frames)")
        let reading = drawn.frames.filter { !$0.hasPrefix("finishing: ") }
        #expect(!reading.isEmpty && reading.allSatisfy { $0.contains(" records  ") && $0.contains(" records/s") && !$0.contains("%") },
                "\(drawn.frames)")
        // Once the input is read, what is left to do instead of a bar that looks stuck.
        #expect(drawn.frames.last?.hasPrefix("finishing: committing  ") == true, "\(drawn.frames)")
    }

    @Test func severalFilesAndGzipCountTowardsOneTotal() throws {
        let workspace = Workspace()
        try workspace.write(Fixtures.itemModel, to: "model.json")
        let first = Self.records(bytes: 1_000)
        let second = Gzip.stored(Self.records(bytes: 3_000))
        try workspace.write(first, to: "a.json")
        try workspace.write(second, to: "b.json.gz")

        let result = try workspace.sluiceOnTerminal(["import", "--db", "t.sqlite", "--model", "model.json", "a.json", "b.json.gz"])

        #expect(result.status == 0, "\(result)")
        let drawn = try #require(Drawn(result.stderr), "\(result.stderr.debugDescription)")
        // The first file's one chunk is drawn against both files' sizes, the gzip one compressed.
        let total = Format.bytes(Int64(first.count + second.count))
        let percent = first.count * 100 / (first.count + second.count)
        #expect(drawn.frames.first?.contains("  \(percent)%  \(Format.bytes(Int64(first.count))) of \(total)  ") == true,
                "\(drawn.frames)")
    }

    @Test func anErrorLineStartsOnAClearedLine() throws {
        let workspace = Workspace()
        try workspace.write(Fixtures.itemModel, to: "model.json")
        // Past the first 1 MiB chunk (which draws the bar), a record that cannot be imported.
        let good = Self.records(bytes: 1_500_000)
        let line = good.count(where: { $0 == UInt8(ascii: "\n") }) + 1
        try workspace.write(good + Array(#"{"id": "nine"}"#.utf8), to: "in.json")

        let result = try workspace.sluiceOnTerminal(["import", "--db", "t.sqlite", "--model", "model.json", "in.json"])

        #expect(result.status == 65, "\(result)")
        let drawn = try #require(Drawn(result.stderr), "\(result.stderr.debugDescription)")
        #expect(drawn.frames.count == 1 && drawn.frames[0].contains("%  1.0 MiB of "), "\(drawn.frames)")
        #expect(drawn.after == "sluice: error: in.json:\(line):1: T.id: cannot convert \"nine\" to integer\n", "\(drawn.after)")
        #expect(!workspace.exists("t.sqlite"))
    }

    @Test(arguments: [["--no-progress"], ["--quiet"], ["--quiet", "--progress"]])
    func offOnATerminal(_ flags: [String]) throws {
        let workspace = Workspace()
        try workspace.write(Fixtures.itemModel, to: "model.json")
        try workspace.write(Array(#"{"id": 1}"#.utf8), to: "in.json")

        let result = try workspace.sluiceOnTerminal(["import", "--db", "t.sqlite", "--model", "model.json", "in.json"] + flags)

        #expect(result.status == 0, "\(result)")
        if flags.contains("--quiet") {
            #expect(result.stderr == "", "--quiet prints nothing on success: \(result)")
        } else {
            #expect(!result.stderr.contains("\r") && !result.stderr.contains("\u{1B}"), "\(result)")
            #expect(result.entityLines == ["T: inserted 1, updated 0, unchanged 0, rejected 0"], "\(result)")
        }
    }

    @Test func quietPrintsOnlyTheErrorLine() throws {
        let workspace = Workspace()
        try workspace.write(Fixtures.itemModel, to: "model.json")
        try workspace.write(Self.records(bytes: 1_500_000) + Array("{\"id\": 1,\n".utf8), to: "in.json")

        let result = try workspace.sluiceOnTerminal(["import", "--db", "t.sqlite", "--model", "model.json", "--quiet", "in.json"])

        #expect(result.status == 65, "\(result)")
        #expect(result.stderrLines.count == 1, "\(result)")
        #expect(result.stderr.hasPrefix("sluice: error: in.json:") && result.stderr.hasSuffix("\n"), "\(result)")
        #expect(!result.stderr.contains("\r") && !result.stderr.contains("\u{1B}"), "\(result)")
    }
}
