import Foundation
import SluiceTestSupport
import Testing
@testable import Sluice

/// Zero-config keys whose columns SQLite would confuse (`docs/cli.md`, zero-config): each gets
/// a column of its own, named as `sluice infer` names it, recorded so that every later import
/// maps it to the same column, and a note says so. And the limits that keep a zero-config
/// import bounded: a key's length, a nested value's size, the column limit.
@Suite struct ZeroConfigKeyClashTests {
    let workspace = Workspace()

    private func importing(_ input: String, _ arguments: [String] = []) throws -> SluiceResult {
        try workspace.sluice(["import", "--db", "out.sqlite"] + arguments, stdin: Array(input.utf8))
    }

    private func columns() throws -> [String] {
        try workspace.database("out.sqlite").rows("SELECT name FROM pragma_table_info('records') ORDER BY cid").map { $0[0].text ?? "?" }
    }

    @Test func keysDifferingOnlyInCaseHoldTheirOwnValues() throws {
        let result = try importing(#"[{"Name": "a", "name": "b", "NAME": "c"}]"#)
        #expect(result.status == 0, "\(result)")
        #expect(try columns() == ["pk", "Name", "name_2", "NAME_3"])
        #expect(try workspace.database("out.sqlite").rows(#"SELECT "Name", name_2, NAME_3 FROM records"#)
            == [[.text("a"), .text("b"), .text("c")]])
        #expect(result.noteLines.first == #"sluice: note: table "records": keys whose columns would clash have columns of their own "#
            + #"(SQLite's column names ignore case, "pk" is the row's own key), the same in later imports: "name" → "name_2", "#
            + #""NAME" → "NAME_3""#, "\(result)")
        #expect(result.entityLines == ["records: inserted 1, updated 0, unchanged 0, rejected 0"], "\(result)")
        #expect(try workspace.database("out.sqlite").rows(#"SELECT "table", "key", "column" FROM sluice_renamed_keys ORDER BY "key""#)
            == [[.text("records"), .text("NAME"), .text("NAME_3")], [.text("records"), .text("name"), .text("name_2")]])
    }

    /// A second import, its keys in another order, puts each where the first did; a key spelled
    /// like a renamed key's column (`name_2`) is another key, with a column of its own.
    @Test func aReimportMapsEachKeyToTheSameColumn() throws {
        #expect(try importing(#"[{"Name": "a", "name": "b", "NAME": "c"}]"#).status == 0)
        let second = try importing(#"{"NAME": "z", "name_2": "w", "name": "y", "Name": "x", "pk": 1}"#)
        #expect(second.status == 0, "\(second)")
        #expect(try columns() == ["pk", "Name", "name_2", "NAME_3", "name_2_2", "pk_2"])
        #expect(try workspace.database("out.sqlite").rows(#"SELECT "Name", name_2, NAME_3, name_2_2, pk_2 FROM records ORDER BY pk"#) == [
            [.text("a"), .text("b"), .text("c"), .null, .null], [.text("x"), .text("y"), .text("z"), .text("w"), .integer(1)],
        ])
        #expect(second.noteLines.first?.hasSuffix(#"the same in later imports: "NAME" → "NAME_3", "name_2" → "name_2_2", "#
            + #""name" → "name_2", "pk" → "pk_2""#) == true, "\(second)")
        // A third import with none of the clashing keys says nothing.
        let third = try importing(#"{"Name": "q"}"#)
        #expect(third.status == 0, "\(third)")
        #expect(!third.stderr.contains("note:"), "\(third)")
        #expect(try columns() == ["pk", "Name", "name_2", "NAME_3", "name_2_2", "pk_2"])
    }

    @Test func theRecordOfRenamedKeysIsNotATableToImportInto() throws {
        let result = try importing(#"{"a": 1}"#, ["--table", "Sluice_Renamed_Keys"])
        #expect(result.status == 64)
        #expect(result.stderrLines == [#"sluice: error: table "Sluice_Renamed_Keys" is where Sluice records renamed keys; choose another table"#],
                "\(result)")
    }

    // MARK: Limits

    @Test func aKeyLongerThanTheLimitIsARecordError() throws {
        let key = String(repeating: "k", count: FreeformAssembler.maxKeyBytes + 1)
        let input = "{\"a\": 1}\n  {\"a\": 2, \"\(key)\": 3}\n{\"a\": 4}\n"
        let aborted = try importing(input)
        #expect(aborted.status == 65)
        #expect(aborted.stderrLines == [
            "sluice: error: <stdin>:2:3: a key is 1025 bytes long, longer than the 1024 bytes a column's name may be (it begins \""
                + String(repeating: "k", count: 40) + "\"…)",
        ], "\(aborted)")
        #expect(!workspace.exists("out.sqlite"))

        let skipped = try importing(input, ["--on-error", "skip", "--rejects", "rejects.ndjson"])
        #expect(skipped.status == 0, "\(skipped)")
        #expect(skipped.entityLines == ["records: inserted 2, updated 0, unchanged 0, rejected 1"], "\(skipped)")
        #expect(try columns() == ["pk", "a"])
        #expect(try workspace.database("out.sqlite").rows("SELECT a FROM records ORDER BY pk") == [[.integer(1)], [.integer(4)]])
        let rejects = String(decoding: workspace.bytes(of: "rejects.ndjson") ?? [], as: UTF8.self)
        #expect(rejects.contains(#""line":2,"column":3"#) && rejects.contains(key), "\(rejects)")
    }

    /// A nested object or array is stored as JSON text: longer than `--max-value-bytes`, it is a
    /// record error like a longer string, but the record's own, so `skip` goes on.
    @Test func aNestedValueLargerThanTheLimitIsARecordError() throws {
        let big = "[" + (1...20).map(String.init).joined(separator: ",") + "]"  // 51 bytes
        let input = "{\"n\": [1, 2]}\n{\"n\": {\"list\": \(big)}}\n{\"n\": \"short\"}\n"
        let aborted = try importing(input, ["--max-value-bytes", "40"])
        #expect(aborted.status == 65)
        #expect(aborted.stderrLines == [#"sluice: error: <stdin>:2:1: the value of "n" is larger than 40 bytes (--max-value-bytes)"#],
                "\(aborted)")

        let skipped = try importing(input, ["--max-value-bytes", "40", "--on-error", "skip"])
        #expect(skipped.status == 0, "\(skipped)")
        #expect(skipped.entityLines == ["records: inserted 2, updated 0, unchanged 0, rejected 1"], "\(skipped)")
        #expect(try workspace.database("out.sqlite").rows("SELECT n FROM records ORDER BY pk") == [[.text("[1,2]")], [.text("short")]])
    }

    /// More keys in one record than a table has columns: a record error at once, whatever the
    /// keys' values, and the assembler keeps no name past the limit.
    @Test func aRecordWithMoreKeysThanColumnsIsARecordError() throws {
        let wide = "{" + (0..<2_100).map { "\"k\($0)\": \($0)" }.joined(separator: ", ") + "}"
        let skipped = try importing("{\"k0\": 0}\n" + wide + "\n{\"k1\": 1}\n", ["--on-error", "skip"])
        #expect(skipped.status == 0, "\(skipped)")
        #expect(skipped.entityLines == ["records: inserted 2, updated 0, unchanged 0, rejected 1"], "\(skipped)")
        #expect(try columns().count == 2_000)
    }
}
