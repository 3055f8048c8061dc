import Foundation
import Testing
@testable import Sluice

/// Flags and inputs a hostile or unlucky user gives that must be refused the documented way
/// (`docs/cli.md`): a usage error before anything is opened, or a data error with its position.
@Suite struct HostileFlagsTests {
    struct Refusal: Sendable, CustomTestStringConvertible {
        var name: String
        var arguments: [String]
        var message: String
        var testDescription: String { name }
    }

    static let refusals: [Refusal] = [
        Refusal(name: "--table sqlite_master", arguments: ["--table", "sqlite_master"],
                message: #"table "sqlite_master": SQLite reserves names beginning with sqlite_ for itself; choose another table"#),
        Refusal(name: "--table SQLITE_stat1, any case", arguments: ["--table", "SQLITE_stat1"],
                message: #"table "SQLITE_stat1": SQLite reserves names beginning with sqlite_ for itself; choose another table"#),
        Refusal(name: "--table sqlite_new, a table SQLite does not have", arguments: ["--table", "sqlite_new"],
                message: #"table "sqlite_new": SQLite reserves names beginning with sqlite_ for itself; choose another table"#),
        Refusal(name: "--header empty", arguments: ["--header", ""],
                message: "--header must be 'first' or the key of the header; it is empty"),
    ]

    @Test(arguments: refusals, [false, true])
    func refusedAsUsageErrors(_ refusal: Refusal, existingDatabase: Bool) throws {
        let workspace = Workspace()
        if existingDatabase {
            let setup = try workspace.sluice(["import", "--db", "out.sqlite", "--table", "t", "-"], stdin: Array("{\"a\": 1}\n".utf8))
            try #require(setup.status == 0, "\(setup)")
        }
        let before = workspace.contents
        let bytes = workspace.bytes(of: "out.sqlite")

        let result = try workspace.sluice(["import", "--db", "out.sqlite"] + refusal.arguments + ["-"],
                                          stdin: Array("{\"a\": 1}\n".utf8))

        #expect(result.status == 64, "\(result)")
        #expect(result.stderrLines == ["sluice: error: " + refusal.message], "\(result)")
        #expect(workspace.contents == before)
        #expect(workspace.bytes(of: "out.sqlite") == bytes)
    }

    /// A table merely containing `sqlite_` is the user's.
    @Test func aTableNamedLikeSQLiteButNotBeginningSoIsFine() throws {
        let workspace = Workspace()
        let result = try workspace.sluice(["import", "--db", "out.sqlite", "--table", "my_sqlite_data", "--quiet", "-"],
                                          stdin: Array("{\"a\": 1}\n".utf8))
        #expect(result.status == 0, "\(result)")
        #expect(try workspace.database("out.sqlite").count("my_sqlite_data") == 1)
    }

    /// The column of a control character inside a string is the character's own (here the
    /// tab at column 8), in one chunk or split across two.
    @Test(arguments: ["{\"a\":\"x\ty\"}\n", "{\"a\":\"" + String(repeating: "x", count: 1 << 20) + "\u{01}\"}\n"])
    func aControlCharacterInAStringIsReportedAtItsOwnColumn(_ input: String) throws {
        let workspace = Workspace()
        try workspace.write(input, to: "in.ndjson")
        let column = input.utf8.firstIndex { $0 < 0x20 }.map { input.utf8.distance(from: input.utf8.startIndex, to: $0) + 1 } ?? 0

        let result = try workspace.sluice("import", "--db", "out.sqlite", "in.ndjson")

        #expect(result.status == 65, "\(result)")
        #expect(result.stderrLines.first?.hasPrefix("sluice: error: in.ndjson:1:\(column): invalid JSON: invalid character inside string") == true,
                "\(result)")
        #expect(workspace.contents == ["in.ndjson"])
    }

    /// `\u` followed by a non-hex digit: the digit's column.
    @Test func aNonHexDigitAfterBackslashUIsReportedAtItsOwnColumn() throws {
        let workspace = Workspace()
        let result = try workspace.sluice(["import", "--db", "out.sqlite", "-"], stdin: Array(#"{"a":"\u12x4"}"#.utf8))
        #expect(result.status == 65, "\(result)")
        #expect(result.stderrLines.first?.hasPrefix("sluice: error: <stdin>:1:11: invalid JSON: invalid (non-hex) character") == true,
                "\(result)")
    }

    /// A top-level `null` in NDJSON is where a record should be: a record error with its
    /// position (zero-config and with a model), which `--on-error skip` skips and names in
    /// `--rejects`. A `null` at an envelope's `--path` still means "no records".
    @Test(arguments: [false, true])
    func aTopLevelNullIsARecordError(withModel: Bool) throws {
        let workspace = Workspace()
        try workspace.write(Fixtures.numberModel, to: "model.json")
        let model = withModel ? ["--model", "model.json"] : ["--table", "t"]
        let input = Array("{\"id\": 1, \"n\": 11}\n  null\n{\"id\": 2, \"n\": 22}\n".utf8)
        let entity = withModel ? "T" : "t"

        let aborted = try workspace.sluice(["import", "--db", "out.sqlite"] + model + ["-"], stdin: input)

        #expect(aborted.status == 65, "\(aborted)")
        #expect(aborted.stderrLines == ["sluice: error: <stdin>:2:3: a record of \(entity) must be an object, got null"], "\(aborted)")
        #expect(!workspace.exists("out.sqlite"))

        let skipped = try workspace.sluice(["import", "--db", "out.sqlite", "--on-error", "skip", "--rejects", "r.ndjson", "--quiet"]
                                           + model + ["-"], stdin: input)

        #expect(skipped.status == 0, "\(skipped)")
        #expect(try workspace.database("out.sqlite").count("t") == 2)
        #expect(String(decoding: workspace.bytes(of: "r.ndjson") ?? [], as: UTF8.self) ==
            #"{"file":"<stdin>","line":2,"column":3,"entity":"\#(entity)","reason":"a record of \#(entity) must be an object, got null","record":null}"# + "\n")
    }

    @Test func aNullAtTheEnvelopePathIsNoRecords() throws {
        let workspace = Workspace()
        let result = try workspace.sluice(["import", "--db", "out.sqlite", "--table", "t", "--path", "data", "--quiet", "-"],
                                          stdin: Array("{\"data\": null}\n{\"data\": [{\"a\": 1}]}\n".utf8))
        #expect(result.status == 0, "\(result)")
        #expect(try workspace.database("out.sqlite").count("t") == 1)
    }
}
