import Foundation
import SluiceTestSupport
import Testing
@testable import Sluice

/// Zero-config imports (no `--model`) of the files the real world makes: keys that come and
/// go, odd and clashing key names, mixed types, deep and long values, sloppy NDJSON, records
/// that are not objects, byte order marks. Each through the binary and standard input, as
/// the README's "Zero-config import" section describes.
@Suite struct ZeroConfigMessyInputTests {
    /// Imports `input` through stdin into `out.sqlite` (table `records`).
    private func importing(_ input: String, _ arguments: [String] = [], in workspace: Workspace = Workspace())
        throws -> (SluiceResult, Workspace)
    {
        try importing(Array(input.utf8), arguments, in: workspace)
    }

    private func importing(_ input: [UInt8], _ arguments: [String] = [], in workspace: Workspace = Workspace())
        throws -> (SluiceResult, Workspace)
    {
        let result = try workspace.sluice(["import", "--db", "out.sqlite"] + arguments, stdin: input)
        return (result, workspace)
    }

    private func columns(_ workspace: Workspace, table: String = "records") throws -> [String] {
        try workspace.database("out.sqlite").rows("SELECT name FROM pragma_table_info('\(table)') ORDER BY cid").map { $0[0].text ?? "?" }
    }

    @Test func keysThatComeAndGoAddColumnsInTheOrderTheyAppear() throws {
        let (result, workspace) = try importing(#"[{"a": 1}, {"b": 2, "a": 3}, {"c": 4}, {}]"#)
        try #require(result.status == 0, "\(result)")
        #expect(try columns(workspace) == ["pk", "a", "b", "c"])
        #expect(try workspace.database("out.sqlite").rows("SELECT a, b, c FROM records ORDER BY pk") == [
            [.integer(1), .null, .null], [.integer(3), .integer(2), .null], [.null, .null, .integer(4)], [.null, .null, .null],
        ])
    }

    @Test func oddKeysAreColumnsNamedExactlyAsTheKeys() throws {
        let input = #"{"first name": 1, "a.b": 2, "größe": 3, "": 4, "say \"hi\"": 5, "x]y": 6, "名前": 7, "rowid": 8}"#
        let (result, workspace) = try importing(input)
        try #require(result.status == 0, "\(result)")
        #expect(try columns(workspace) == ["pk", "first name", "a.b", "größe", "", #"say "hi""#, "x]y", "名前", "rowid"])
        #expect(try workspace.database("out.sqlite").rows(
            #"SELECT "first name", "a.b", "größe", "", "say ""hi""", "x]y", "名前", "rowid" FROM records"#)
            == [[.integer(1), .integer(2), .integer(3), .integer(4), .integer(5), .integer(6), .integer(7), .integer(8)]])
    }

    /// A key with U+0000 cannot be an SQL name (the statement text ends there): its column
    /// has U+FFFD in its place. Before the fix this was exit 73 and SQLite's "unrecognized token".
    @Test func aKeyHoldingNULHasAColumnWithTheReplacementCharacter() throws {
        let (result, workspace) = try importing(#"{"a\u0000b": 1, "c": "d\u0000e"}"#)
        try #require(result.status == 0, "\(result)")
        #expect(try columns(workspace) == ["pk", "a\u{FFFD}b", "c"])
        #expect(try workspace.database("out.sqlite").rows(#"SELECT "a\#u{FFFD}b", c FROM records"#) == [[.integer(1), .text("d\u{0}e")]])
    }

    /// SQLite compares column names ignoring ASCII case: keys differing only in that get
    /// columns of their own, named as `sluice infer` names them, and a note says so. Other
    /// letters' case is not folded: `É` and `é` are two columns as they are.
    @Test func keysDifferingOnlyInCaseGetColumnsOfTheirOwn() throws {
        let (result, workspace) = try importing("{\"Id\": 1}\n{\"ID\": 2, \"id\": 3}\n{\"É\": 4, \"é\": 5}\n")
        try #require(result.status == 0, "\(result)")
        #expect(try columns(workspace) == ["pk", "Id", "ID_2", "id_3", "É", "é"])
        #expect(try workspace.database("out.sqlite").rows(#"SELECT "Id", ID_2, id_3, "É", "é" FROM records ORDER BY pk"#) == [
            [.integer(1), .null, .null, .null, .null], [.null, .integer(2), .integer(3), .null, .null],
            [.null, .null, .null, .integer(4), .integer(5)],
        ])
        #expect(result.noteLines.first == #"sluice: note: table "records": keys whose columns would clash have columns of their own "#
            + #"(SQLite's column names ignore case, "pk" is the row's own key), the same in later imports: "ID" → "ID_2", "id" → "id_3""#,
            "\(result)")
    }

    /// `pk` (any case) is the row's own key: such a key gets `pk_2`, as `sluice infer` names it.
    @Test func aKeyNamedPKGoesToPK2() throws {
        let (result, workspace) = try importing(#"{"PK": 7, "n": 1}"#)
        try #require(result.status == 0, "\(result)")
        #expect(try workspace.database("out.sqlite").rows("SELECT pk, PK_2, n FROM records") == [[.integer(1), .integer(7), .integer(1)]])
        #expect(result.noteLines.first?.hasSuffix(#"the same in later imports: "PK" → "PK_2""#) == true, "\(result)")
    }

    /// Each value keeps its JSON kind, whatever the other records hold under the same key.
    @Test func mixedTypesInOneKeyKeepTheirKind() throws {
        let input = """
            {"v": 1}
            {"v": "one"}
            {"v": 1.5}
            {"v": true}
            {"v": null}
            {"v": [1, {"a": null}]}
            {"v": 12345678901234567890}
            {"v": 2.0}
            {"v": 1e400}
            {}
            """
        let (result, workspace) = try importing(input)
        try #require(result.status == 0, "\(result)")
        #expect(try workspace.database("out.sqlite").rows("SELECT v, typeof(v) FROM records ORDER BY pk") == [
            [.integer(1), .text("integer")], [.text("one"), .text("text")], [.real(1.5), .text("real")],
            [.integer(1), .text("integer")], [.null, .text("null")], [.text(#"[1,{"a":null}]"#), .text("text")],
            [.text("12345678901234567890"), .text("text")], [.real(2), .text("real")], [.text("1e400"), .text("text")],
            [.null, .text("null")],
        ])
    }

    @Test func deepValuesAreJSONTextUpToTheNestingLimit() throws {
        let deep = "{\"d\": " + String(repeating: "[", count: 998) + "{\"x\": 1}" + String(repeating: "]", count: 998) + "}"
        let (result, workspace) = try importing(deep)
        try #require(result.status == 0, "\(result)")
        let stored = try workspace.database("out.sqlite").scalar("SELECT d FROM records")?.text
        #expect(stored == String(repeating: "[", count: 998) + #"{"x":1}"# + String(repeating: "]", count: 998))

        let tooDeep = "{\"d\": " + String(repeating: "[", count: 1_000) + String(repeating: "]", count: 1_000) + "}"
        let (failed, other) = try importing(tooDeep)
        #expect(failed.status == 65)
        #expect(failed.stderrLines == ["sluice: error: <stdin>:1:1006: nesting deeper than 1000 levels"], "\(failed)")
        #expect(!other.exists("out.sqlite"))
    }

    @Test func veryLongStringsAndKeys() throws {
        let long = String(repeating: "ab€", count: 1_000_000)  // 5 MB of UTF-8
        let key = String(repeating: "k", count: FreeformAssembler.maxKeyBytes)
        let (result, workspace) = try importing(#"{"s": "\#(long)", "\#(key)": 1}"#)
        try #require(result.status == 0, "\(result)")
        let db = try workspace.database("out.sqlite")
        #expect(try db.scalar("SELECT s FROM records")?.text == long)
        #expect(try db.scalar(#"SELECT "\#(key)" FROM records"#) == .integer(1))
    }

    @Test func ndjsonWithBlankLinesCRLFAndTrailingSpace() throws {
        let input = "\n\n{\"a\": 1}\r\n\r\n   \n{\"a\": 2}   \n\t\n{\"a\": 3}"
        let (result, workspace) = try importing(input)
        try #require(result.status == 0, "\(result)")
        #expect(result.entityLines == ["records: inserted 3, updated 0, unchanged 0, rejected 0"], "\(result)")
        #expect(try workspace.database("out.sqlite").rows("SELECT a FROM records ORDER BY pk") == [[.integer(1)], [.integer(2)], [.integer(3)]])
    }

    /// A record is an object; anything else where a record should be is a record error
    /// (`docs/import-semantics.md`): the import stops (exit 65, nothing written), or `--on-error skip` skips it.
    @Test func anArrayOfNonObjectsIsRecordErrors() throws {
        let input = #"[1, {"a": 1}, "x", null, [2], true]"#
        let (aborted, workspace) = try importing(input)
        #expect(aborted.status == 65)
        #expect(aborted.stderrLines == ["sluice: error: <stdin>:1:2: a record of records must be an object, got a number"], "\(aborted)")
        #expect(!workspace.exists("out.sqlite"))

        let (skipped, other) = try importing(input, ["--on-error", "skip", "--rejects", "rejects.ndjson"])
        try #require(skipped.status == 0, "\(skipped)")
        #expect(skipped.entityLines == ["records: inserted 1, updated 0, unchanged 0, rejected 5"], "\(skipped)")
        let rejects = String(decoding: other.bytes(of: "rejects.ndjson") ?? [], as: UTF8.self)
        #expect(rejects.split(separator: "\n").map { line in
            line.components(separatedBy: #""reason":"#).last ?? ""
        } == [
            #""a record of records must be an object, got a number","record":1}"#,
            #""a record of records must be an object, got a string","record":"x"}"#,
            #""a record of records must be an object, got null","record":null}"#,
            #""a record of records must be an object, got an array","record":[2]}"#,
            #""a record of records must be an object, got a boolean","record":true}"#,
        ])
    }

    /// SQLite allows 2000 columns. More distinct keys than that is a record error naming the
    /// key (not exit 73 and SQLite's "too many columns on sqlite_altertab_records"); records
    /// without a value for such a key still import.
    @Test func moreDistinctKeysThanSQLiteHasColumns() throws {
        var wide = "{"
        for number in 0..<2_000 { wide += (number > 0 ? ", " : "") + "\"k\(number)\": \(number)" }
        wide += "}"
        let (aborted, workspace) = try importing("{\"k0\": 0}\n" + wide + "\n")
        #expect(aborted.status == 65)
        #expect(aborted.stderrLines == [
            #"sluice: error: <stdin>:2:1: table "records" already has 2000 columns, SQLite's limit: no column for the key "k1999" (a zero-config import makes one column per distinct key; import such data with a model)"#,
        ], "\(aborted)")
        #expect(!workspace.exists("out.sqlite"))

        let input = "{\"k0\": 0}\n" + wide + "\n{\"k1999\": null, \"k1\": 1}\n{\"k1999\": 5}\n"
        let (skipped, other) = try importing(input, ["--on-error", "skip"])
        try #require(skipped.status == 0, "\(skipped)")
        #expect(skipped.entityLines == ["records: inserted 2, updated 0, unchanged 0, rejected 2"], "\(skipped)")
        #expect(try other.database("out.sqlite").rows("SELECT k0, k1 FROM records ORDER BY pk") == [[.integer(0), .null], [.null, .integer(1)]])
    }

    /// A UTF-8 byte order mark before the JSON (as Windows tools write) is skipped, also
    /// inside gzip; positions count from the byte after it.
    @Test func aByteOrderMarkIsSkipped() throws {
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
        let (result, workspace) = try importing(bom + Array("{\"a\": 1}\n{\"a\": 2}\n".utf8))
        try #require(result.status == 0, "\(result)")
        #expect(try workspace.database("out.sqlite").rows("SELECT a FROM records ORDER BY pk") == [[.integer(1)], [.integer(2)]])

        let (gzipped, _) = try importing(Gzip.stored(bom + Array("[{\"a\": 1}]".utf8)))
        #expect(gzipped.status == 0, "\(gzipped)")

        let (failed, _) = try importing(bom + Array("{\"a\" 1}".utf8))
        #expect(failed.stderrLines == [#"sluice: error: <stdin>:1:6: invalid JSON: object key and value must be separated by a colon (':') near '{"a" 1}'"#], "\(failed)")
    }
}
