import Foundation
import Testing
@testable import Sluice

/// Failures: one line on stderr naming the place, the sysexits status, and a database left
/// exactly as it was (`docs/cli.md`, `docs/import-semantics.md` atomicity).
@Suite struct ErrorReportingTests {
    /// A model with two problems: an unknown type, and an identity that is not an attribute.
    static let brokenModel = """
        {
          "root": "T",
          "entities": {
            "T": {
              "identity": "nope",
              "attributes": { "id": "integer", "n": { "type": "flaot" } }
            }
          }
        }
        """

    /// One failing `sluice import` run, in a workspace holding `model.json`
    /// (`Fixtures.numberModel`: `T(id integer identity, n integer)`) and `broken.json`.
    struct Failure: Sendable, CustomTestStringConvertible {
        var name: String
        /// After `import --db out.sqlite`.
        var arguments: [String]
        var stdin: String
        var status: Int32
        /// The whole of stderr, line by line; one `…` in a line stands for any text.
        var stderr: [String]
        /// Standard input as bytes, when it cannot be a `String` (invalid UTF-8).
        var rawStdin: [UInt8]? = nil

        var input: [UInt8] { rawStdin ?? Array(stdin.utf8) }

        var testDescription: String { name }

        func matches(_ lines: [String]) -> Bool {
            guard lines.count == stderr.count else { return false }
            return zip(lines, stderr).allSatisfy { line, expected in
                let parts = expected.split(separator: "…", maxSplits: 1, omittingEmptySubsequences: false)
                guard parts.count == 2 else { return line == expected }
                return line.count >= parts[0].count + parts[1].count
                    && line.hasPrefix(parts[0]) && line.hasSuffix(parts[1])
            }
        }
    }

    static let model = ["--model", "model.json"]
    /// `T(id integer identity, n integer, r string required)`.
    static let requiredModel = ["--model", "required.json"]
    /// Data errors run with batches of one record, so rows are written before the failure and
    /// the rollback is what keeps the database as it was.
    static let smallBatches = ["--batch-size", "1"]

    static let failures: [Failure] = [
        Failure(name: "invalid JSON", arguments: model + smallBatches,
                stdin: "{\"id\": 1, \"n\": 11}\n{\"id\": 2 \"n\": 22}\n", status: 65,
                stderr: ["sluice: error: <stdin>:2:10: invalid JSON: …"]),
        Failure(name: "truncated JSON", arguments: model + smallBatches,
                stdin: "[{\"id\": 1, \"n\": 11},\n {\"id\": 2, \"n\": ", status: 65,
                stderr: ["sluice: error: <stdin>:2:18: unexpected end of input: the JSON is truncated"]),
        Failure(name: "value that does not convert", arguments: model + smallBatches,
                stdin: "{\"id\": 1, \"n\": 11}\n{\"id\": 2, \"n\": \"abc\"}\n", status: 65,
                stderr: [#"sluice: error: <stdin>:2:1: T.n: cannot convert "abc" to integer"#]),
        Failure(name: "fraction for an integer", arguments: model + smallBatches,
                stdin: "{\"id\": 1, \"n\": 11}\n  {\"id\": 2, \"n\": 2.5}\n", status: 65,
                stderr: ["sluice: error: <stdin>:2:3: T.n: cannot convert 2.5 to integer: not a whole number"]),
        Failure(name: "record that is not an object", arguments: model + smallBatches,
                stdin: "[{\"id\": 1, \"n\": 11},\n 7]", status: 65,
                stderr: ["sluice: error: <stdin>:2:2: a record of T must be an object, got a number"]),
        Failure(name: "missing input file", arguments: model + ["nope.json"],
                stdin: "", status: 66,
                stderr: ["sluice: error: cannot open input 'nope.json': No such file or directory"]),
        Failure(name: "missing input file after a good one", arguments: model + smallBatches + ["-", "nope.json"],
                stdin: "{\"id\": 1, \"n\": 11}\n{\"id\": 3, \"n\": 33}\n", status: 66,
                stderr: ["sluice: error: cannot open input 'nope.json': No such file or directory"]),
        Failure(name: "missing model file", arguments: ["--model", "nope-model.json"],
                stdin: "{\"id\": 1, \"n\": 11}\n", status: 66,
                stderr: ["sluice: error: cannot open model 'nope-model.json': No such file or directory"]),
        Failure(name: "model with two problems", arguments: ["--model", "broken.json"],
                stdin: "{\"id\": 1, \"n\": 11}\n", status: 64,
                stderr: [
                    #"sluice: error: broken.json: entities.T.identity: "nope" is not an attribute or to-one relationship of T"#,
                    #"sluice: error: broken.json: entities.T.attributes.n.type: unknown type "flaot""#,
                ]),
        Failure(name: "invalid UTF-8", arguments: model + smallBatches,
                stdin: "", status: 65,
                stderr: ["sluice: error: <stdin>:2:1: T: invalid UTF-8 (byte 0xFF, which never occurs in UTF-8) at line 2, column 19"],
                rawStdin: Array("{\"id\": 1, \"n\": 11}\n{\"id\": 2, \"x\": \"ab".utf8) + [0xFF, 0xFE] + Array("\"}\n".utf8)),
        Failure(name: "a byte 0xFE between records", arguments: model + smallBatches,
                stdin: "", status: 65,
                stderr: ["sluice: error: <stdin>:2:1: invalid UTF-8 (byte 0xFE, which never occurs in UTF-8)"],
                rawStdin: Array("{\"id\": 1, \"n\": 11}\n".utf8) + [0xFE] + Array("{\"id\": 2, \"n\": 22}\n".utf8)),
        Failure(name: "--db given twice", arguments: ["--db", "other.sqlite"] + model, stdin: "{\"id\": 1, \"n\": 11}\n", status: 64,
                stderr: ["sluice: error: --db is given twice ('out.sqlite' and 'other.sqlite'); it takes one value"]),
        Failure(name: "--schema with an SQLite --db", arguments: ["--schema", "sales"] + model, stdin: "{\"id\": 1, \"n\": 11}\n",
                status: 64,
                stderr: ["sluice: error: --schema 'sales' is for a PostgreSQL --db; 'out.sqlite' is an SQLite file, which has no schemas"]),
        Failure(name: "nesting deeper than 1,000 levels", arguments: model + smallBatches,
                stdin: "{\"id\": 1, \"n\": 11}\n{\"id\": 2, \"x\": " + String(repeating: "[", count: 1_000) + "]}\n",
                status: 65,
                stderr: ["sluice: error: <stdin>:2:1015: nesting deeper than 1000 levels"]),
        Failure(name: "required attribute missing", arguments: requiredModel + smallBatches,
                stdin: "{\"id\": 1, \"n\": 11, \"r\": \"a\"}\n  {\"id\": 2, \"n\": 22}\n", status: 65,
                stderr: ["sluice: error: <stdin>:2:3: T.r: missing required attribute"]),
        Failure(name: "null for a required attribute", arguments: requiredModel + smallBatches,
                stdin: "{\"id\": 1, \"n\": 11, \"r\": \"a\"}\n{\"id\": 2, \"r\": null}\n", status: 65,
                stderr: ["sluice: error: <stdin>:2:1: T.r: null for a required attribute"]),
        Failure(name: "value larger than --max-value-bytes", arguments: model + ["--max-value-bytes", "1000"],
                stdin: "{\"id\": 1, \"n\": 11}\n{\"id\": 2, \"n\": 1, \"junk\": \"\(String(repeating: "x", count: 3 << 20))\"}\n",
                status: 65,
                stderr: ["sluice: error: <stdin>:2:…: a single value is larger than 1000 bytes (--max-value-bytes)"]),
    ]

    private func prepare(_ workspace: Workspace) throws {
        try workspace.write(Fixtures.numberModel, to: "model.json")
        try workspace.write(Fixtures.numberModel.replacingOccurrences(
            of: #""n": "integer" }"#, with: #""n": "integer", "r": { "type": "string", "optional": false } }"#),
            to: "required.json")
        try workspace.write(Self.brokenModel, to: "broken.json")
    }

    @Test(arguments: failures)
    func failingImportIntoANewDatabase(_ failure: Failure) throws {
        let workspace = Workspace()
        try prepare(workspace)
        let before = workspace.contents

        let result = try workspace.sluice(["import", "--db", "out.sqlite"] + failure.arguments, stdin: failure.input)

        #expect(result.status == failure.status, "\(result)")
        #expect(failure.matches(result.stderrLines), "\(result)")
        #expect(result.stdout == "")
        // No database, no temporary file, no journal.
        #expect(workspace.contents == before)
    }

    @Test(arguments: failures)
    func failingImportIntoAnExistingDatabase(_ failure: Failure) throws {
        let workspace = Workspace()
        try prepare(workspace)
        let setup = try workspace.sluice("import", "--db", "out.sqlite", "--model", "model.json",
                                         stdin: Array("{\"id\": 1, \"n\": 10}\n{\"id\": 2, \"n\": 20}\n".utf8))
        try #require(setup.status == 0, "\(setup)")
        let rows: [[ColumnValue]]
        let log: [[ColumnValue]]
        do {
            let db = try workspace.database("out.sqlite")
            rows = try db.dump("t")
            log = try db.dump("sluice_imports", orderBy: "id")
        }
        let before = workspace.contents
        let bytes = workspace.bytes(of: "out.sqlite")

        let result = try workspace.sluice(["import", "--db", "out.sqlite"] + failure.arguments, stdin: failure.input)

        #expect(result.status == failure.status, "\(result)")
        #expect(failure.matches(result.stderrLines), "\(result)")
        #expect(workspace.contents == before, "no journal or temporary file is left")
        #expect(workspace.bytes(of: "out.sqlite") == bytes, "the file is byte for byte as it was")
        let db = try workspace.database("out.sqlite")
        #expect(try db.integrityCheck() == .text("ok"))
        #expect(try db.dump("t") == rows)
        #expect(try db.dump("sluice_imports", orderBy: "id") == log)
    }

    @Test func databaseInADirectoryThatDoesNotExist() throws {
        let workspace = Workspace()
        try prepare(workspace)
        let before = workspace.contents

        let result = try workspace.sluice("import", "--db", "no/such/dir/out.sqlite", "--model", "model.json",
                                          stdin: Array("{\"id\": 1, \"n\": 11}\n".utf8))

        #expect(result.status == 73, "\(result)")
        #expect(result.stderrLines == ["sluice: error: cannot create database 'no/such/dir/out.sqlite': No such file or directory"],
                "\(result)")
        #expect(workspace.contents == before)
    }

    @Test func databaseThatIsADirectory() throws {
        let workspace = Workspace()
        try prepare(workspace)
        try FileManager.default.createDirectory(atPath: workspace.file("out.sqlite"), withIntermediateDirectories: false)

        let result = try workspace.sluice("import", "--db", "out.sqlite", "--model", "model.json",
                                          stdin: Array("{\"id\": 1, \"n\": 11}\n".utf8))

        #expect(result.status == 73, "\(result)")
        #expect(result.stderrLines == ["sluice: error: cannot write database 'out.sqlite': it is a directory"], "\(result)")
    }

    // MARK: --on-error skip

    @Test func skipImportsTheGoodRecordsAndCountsTheBadOnes() throws {
        let workspace = Workspace()
        try prepare(workspace)
        let input = """
            {"id": 1, "n": 1}
            {"id": 2, "n": "abc"}
            {"id": 3, "n": 2.5}
            {"id": 4, "n": "4"}
            7
            {"id": 5, "n": 5}

            """

        let result = try workspace.sluice("import", "--db", "out.sqlite", "--model", "model.json", "--on-error", "skip",
                                          stdin: Array(input.utf8))

        #expect(result.status == 0, "\(result)")
        #expect(result.summaryLine?.hasPrefix("sluice: imported ") == true, "\(result)")
        #expect(result.entityLines == ["T: inserted 3, updated 0, unchanged 0, rejected 3"], "\(result)")
        let db = try workspace.database("out.sqlite")
        #expect(try db.rows(#"SELECT "id", "n" FROM "t" ORDER BY "id""#)
            == [[.integer(1), .integer(1)], [.integer(4), .integer(4)], [.integer(5), .integer(5)]])
        #expect(try db.rows(#"SELECT "inserted", "rejected" FROM "sluice_imports""#) == [[.integer(3), .integer(3)]])
    }

    @Test func skipDoesNotSkipInvalidJSON() throws {
        let workspace = Workspace()
        try prepare(workspace)

        let result = try workspace.sluice("import", "--db", "out.sqlite", "--model", "model.json", "--on-error", "skip",
                                          stdin: Array("{\"id\": 1, \"n\": 1}\n{\"id\": 2,, \"n\": 2}\n".utf8))

        #expect(result.status == 65, "\(result)")
        #expect(result.stderrLines.count == 1, "\(result)")
        #expect(result.stderrLines.first?.hasPrefix("sluice: error: <stdin>:2:") == true, "\(result)")
        #expect(!workspace.exists("out.sqlite"))
    }

    // MARK: Usage errors

    @Test(arguments: [
        ["import", "--db", "out.sqlite", "--model", "model.json", "--frobnicate"],
        ["import", "--db", "out.sqlite", "--model", "model.json", "--on-error", "ignore"],
        ["import", "--db", "out.sqlite", "--model", "model.json", "--batch-size", "0"],
        ["import", "--model", "model.json"],
        ["frobnicate"],
    ])
    func usageErrorIsOneLine(_ arguments: [String]) throws {
        let workspace = Workspace()
        try prepare(workspace)
        let before = workspace.contents

        let result = try workspace.sluice(arguments,
                                          stdin: Array("{\"id\": 1, \"n\": 1}\n".utf8))

        #expect(result.status == 64, "\(result)")
        #expect(result.stdout == "")
        #expect(result.stderrLines.first?.hasPrefix("sluice: error: ") == true, "\(result)")
        #expect(workspace.contents == before)
        // `docs/cli.md`: every error is ONE line, without ArgumentParser's own "Error: " and help.
        #expect(result.stderrLines.count == 1, "\(result)")
        #expect(!result.stderr.contains("error: Error:"), "\(result)")
    }

    /// `--max-value-bytes` above what a column can hold (a value's byte count is 32 bits) is a
    /// usage error, as a value below 1 is; the limit itself is accepted.
    @Test func maxValueBytesAboveWhatAColumnHoldsIsAUsageError() throws {
        let workspace = Workspace()
        try prepare(workspace)
        let before = workspace.contents

        let result = try workspace.sluice("import", "--db", "out.sqlite", "--model", "model.json",
                                          "--max-value-bytes", "2147483648", stdin: Array("{\"id\": 1, \"n\": 1}\n".utf8))

        #expect(result.status == 64, "\(result)")
        #expect(result.stdout == "")
        #expect(result.stderrLines
            == ["sluice: error: --max-value-bytes must be at most 2147483647 (the largest value a column can hold)"],
            "\(result)")
        #expect(workspace.contents == before)

        let atTheLimit = try workspace.sluice("import", "--db", "out.sqlite", "--model", "model.json", "--quiet",
                                              "--max-value-bytes", "2147483647", stdin: Array("{\"id\": 1, \"n\": 1}\n".utf8))
        #expect(atTheLimit.status == 0, "\(atTheLimit)")
        #expect(workspace.exists("out.sqlite"))
    }

    @Test func valueLargerThanMaxValueBytesWithinOneChunk() throws {
        let workspace = Workspace()
        try prepare(workspace)
        let input = "{\"id\": 1, \"n\": 11, \"junk\": \"\(String(repeating: "x", count: 64))\"}\n"

        let result = try workspace.sluice("import", "--db", "out.sqlite", "--model", "model.json", "--max-value-bytes", "16",
                                          stdin: Array(input.utf8))

        // `docs/import-semantics.md`: a single value larger than --max-value-bytes is a clear input error, also
        // when it arrives whole within one read chunk.
        #expect(result.status == 65, "\(result)")
        #expect(result.stderrLines == ["sluice: error: <stdin>:1:28: a single value is larger than 16 bytes (--max-value-bytes)"],
                "\(result)")
        #expect(!workspace.exists("out.sqlite"))
    }
}
