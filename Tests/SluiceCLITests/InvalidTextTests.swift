import Foundation
import Testing
@testable import Sluice

/// Invalid text through the binary and standard input (`docs/import-semantics.md`, text):
/// an input error with its position outside records, a record error inside one (skipped
/// with `--on-error skip` and kept by `--rejects`), or U+FFFD with `--invalid-text replace`.
@Suite struct InvalidTextTests {
    static let model = """
        { "root": "Item", "entities": { "Item": { "identity": "id",
          "attributes": { "id": "integer", "name": "string" } } } }
        """

    private func record(_ id: Int, _ name: [UInt8]) -> [UInt8] {
        Array(#"{"id": \#(id), "name": ""#.utf8) + name + Array("\"}\n".utf8)
    }

    /// Every invalid form, in a record of a model import: exit 65 and one line naming it.
    @Test(arguments: [
        ([0x61, 0xC0, 0x80], "invalid UTF-8 (overlong encoding) at line 1, column 21"),
        ([0xED, 0xA0, 0x80], "invalid UTF-8 (surrogate code point encoded in UTF-8) at line 1, column 20"),
        ([0xF4, 0x90, 0x80, 0x80], "invalid UTF-8 (code point beyond U+10FFFF) at line 1, column 20"),
        ([0xF8], "invalid UTF-8 (code point beyond U+10FFFF) at line 1, column 20"),
        ([0xE2, 0x82], "invalid UTF-8 (truncated sequence) at line 1, column 20"),
        ([0x80], "invalid UTF-8 (continuation byte without a lead byte) at line 1, column 20"),
        (Array(#"\uD800"#.utf8), #"unpaired surrogate \uD800 at line 1, column 20"#),
        (Array(#"\uD800\u0041"#.utf8), #"unpaired surrogate \uD800 at line 1, column 20"#),
        (Array(#"\uDC00"#.utf8), #"unpaired surrogate \uDC00 at line 1, column 20"#),
    ] as [([UInt8], String)])
    func invalidTextInARecordIsARecordError(_ name: [UInt8], _ problem: String) throws {
        let workspace = Workspace()
        _ = try workspace.write(Self.model, to: "model.json")
        let result = try workspace.sluice(["import", "--db", "out.sqlite", "--model", "model.json"], stdin: record(1, name))
        #expect(result.status == 65)
        #expect(result.stderrLines == ["sluice: error: <stdin>:1:1: Item: \(problem)"])
        #expect(!FileManager.default.fileExists(atPath: workspace.path + "/out.sqlite"))
    }

    @Test func skippedRecordsGoToRejectsAndTheOthersAreImported() throws {
        let workspace = Workspace()
        _ = try workspace.write(Self.model, to: "model.json")
        let input = record(1, Array("ok".utf8)) + record(2, [0x62, 0x61, 0x64, 0xFF]) + record(3, Array(#"\uDE00"#.utf8))
            + record(4, Array(#"\uD83D\uDE00"#.utf8))
        let result = try workspace.sluice(["import", "--db", "out.sqlite", "--model", "model.json", "--on-error", "skip",
                                           "--rejects", "rejects.ndjson", "--quiet"], stdin: input)
        #expect(result.status == 0, "\(result)")
        #expect(try workspace.database("out.sqlite").rows("SELECT id, name FROM Item ORDER BY id")
            == [[.integer(1), .text("ok")], [.integer(4), .text("😀")]])
        let rejects = try String(contentsOfFile: workspace.path + "/rejects.ndjson", encoding: .utf8)
            .split(separator: "\n").map(String.init)
        #expect(rejects == [
            #"{"file":"<stdin>","line":2,"column":1,"entity":"Item","reason":"Item: invalid UTF-8 (byte 0xFF, which never occurs in UTF-8) at line 2, column 23","record":{"id":2,"name":"bad\#u{FFFD}"}}"#,
            #"{"file":"<stdin>","line":3,"column":1,"entity":"Item","reason":"Item: unpaired surrogate \\uDE00 at line 3, column 20","record":{"id":3,"name":"\#u{FFFD}"}}"#,
        ])
    }

    @Test func zeroConfigRecordsAreRejectedTheSameWay() throws {
        let workspace = Workspace()
        let input = Array(#"{"a": "ok"}"#.utf8) + [0x0A] + Array(#"{"a": "x"#.utf8) + [0xC0, 0x80] + Array("\", \"b\": 1}\n".utf8)
        let abort = try workspace.sluice(["import", "--db", "out.sqlite"], stdin: input)
        #expect(abort.status == 65)
        #expect(abort.stderrLines == ["sluice: error: <stdin>:2:1: invalid UTF-8 (overlong encoding) at line 2, column 9"])
        let skip = try workspace.sluice(["import", "--db", "out.sqlite", "--on-error", "skip", "--rejects", "r.ndjson", "--quiet"],
                                        stdin: input)
        #expect(skip.status == 0, "\(skip)")
        // The rejected record's keys make no column.
        #expect(try workspace.database("out.sqlite").rows("SELECT * FROM records") == [[.integer(1), .text("ok")]])
        #expect(try String(contentsOfFile: workspace.path + "/r.ndjson", encoding: .utf8).contains(#""record":{"a":"x\#u{FFFD}\#u{FFFD}","b":1}"#))
    }

    @Test func invalidTextOutsideARecordIsAnInputError() throws {
        let workspace = Workspace()
        _ = try workspace.write(Self.model, to: "model.json")
        let cases: [([UInt8], String)] = [
            (Array(#"{"data"#.utf8) + [0xC0, 0xAF] + Array(#"": [{"id": 1}]}"#.utf8),
             "sluice: error: <stdin>:1:7: invalid UTF-8 (overlong encoding)"),
            (Array(#"["\uD800"]"#.utf8), #"sluice: error: <stdin>:1:3: unpaired surrogate \uD800"#),
            (Array(#"[{"id": 1},"#.utf8) + [0x0C] + Array(#"{"id": 2}]"#.utf8),
             "sluice: error: <stdin>:1:12: invalid JSON: a form feed (0x0C) is not JSON whitespace (only space, tab, LF and CR are) and must be escaped in a string"),
            (Array(#"[{"id": 1},"#.utf8) + [0xC2, 0xA0] + Array(#"{"id": 2}]"#.utf8),
             "sluice: error: <stdin>:1:12: invalid JSON: unexpected non-ASCII character outside a string"),
            (Array(#"[{"id": 1},"#.utf8) + [0xC0, 0xA0] + Array(#"{"id": 2}]"#.utf8),
             "sluice: error: <stdin>:1:12: invalid UTF-8 (overlong encoding)"),
        ]
        for (input, line) in cases {
            let result = try workspace.sluice(["import", "--db", "out.sqlite", "--model", "model.json", "--entity", "Item",
                                               "--path", "data"], stdin: input)
            #expect(result.status == 65)
            #expect(result.stderrLines == [line])
        }
    }

    @Test func replaceKeepsTheRecordsAndCountsTheReplacements() throws {
        let workspace = Workspace()
        _ = try workspace.write(Self.model, to: "model.json")
        let input = record(1, [0x61, 0xE2, 0x82, 0x62]) + record(2, Array(#"\uD800\u0041"#.utf8)) + record(3, [0xC0, 0x80])
        let result = try workspace.sluice(["import", "--db", "out.sqlite", "--model", "model.json", "--invalid-text", "replace",
                                           "--stats", "stats.json"], stdin: input)
        #expect(result.status == 0, "\(result)")
        #expect(result.stderrLines.contains("sluice: 4 invalid text sequences replaced with U+FFFD (--invalid-text replace)"))
        #expect(try workspace.database("out.sqlite").rows("SELECT name FROM Item ORDER BY id")
            == [[.text("a\u{FFFD}b")], [.text("\u{FFFD}A")], [.text("\u{FFFD}\u{FFFD}")]])
        let stats = try String(contentsOfFile: workspace.path + "/stats.json", encoding: .utf8)
        #expect(stats.contains(#""replacementCharacters" : 4"#))
    }

    @Test func validEdgeCasesImportUnchanged() throws {
        let workspace = Workspace()
        let text = "\u{10FFFF}\u{FFFF}😀\u{E000}é"
        let input = Array(#"{"a": ""#.utf8) + Array(text.utf8) + Array(#"", "b": "\uD83D\uDE00\u00e9\udbff\udfff"}"#.utf8)
        let result = try workspace.sluice(["import", "--db", "out.sqlite", "--quiet"], stdin: input)
        #expect(result.status == 0, "\(result)")
        #expect(try workspace.database("out.sqlite").rows("SELECT a, b FROM records") == [[.text(text), .text("😀é\u{10FFFF}")]])
    }
}
