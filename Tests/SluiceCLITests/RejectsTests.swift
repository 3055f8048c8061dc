import Foundation
import Testing
@testable import Sluice

/// `--rejects FILE`: every rejected record as one JSON line with file, line, column, entity,
/// reason and the record itself (`docs/cli.md`, `docs/import-semantics.md`).
@Suite struct RejectsTests {
    static let input = """
        {"id": 1, "n": 1}
        {"id": 2, "n": "abc", "tags": [1, {"x": null}]}
          {"id": 3, "n": 2.5e0}
        7
        [1, 2]
        {"id": 4, "n": "4", "s": "caf\\u00e9 \\"q\\""}

        """

    @Test func skippedRecordsAreWrittenWithTheirReasons() throws {
        let workspace = Workspace()
        try workspace.write(Fixtures.numberModel, to: "model.json")
        try workspace.write(Self.input, to: "in.json")

        let result = try workspace.sluice("import", "--db", "out.sqlite", "--model", "model.json", "--on-error", "skip",
                                          "--rejects", "rejects.ndjson", "in.json")

        #expect(result.status == 0, "\(result)")
        #expect(result.entityLines == ["T: inserted 2, updated 0, unchanged 0, rejected 5"], "\(result)")
        let lines = String(decoding: workspace.bytes(of: "rejects.ndjson") ?? [], as: UTF8.self)
            .split(separator: "\n").map(String.init)
        // An NDJSON top-level array is an array of records: 1 and 2 are rejected one by one.
        #expect(lines == [
            #"{"file":"in.json","line":2,"column":1,"entity":"T","reason":"T.n: cannot convert \"abc\" to integer","record":{"id":2,"n":"abc","tags":[1,{"x":null}]}}"#,
            #"{"file":"in.json","line":3,"column":3,"entity":"T","reason":"T.n: cannot convert 2.5e0 to integer: not a whole number","record":{"id":3,"n":2.5e0}}"#,
            #"{"file":"in.json","line":4,"column":1,"entity":"T","reason":"a record of T must be an object, got a number","record":7}"#,
            #"{"file":"in.json","line":5,"column":2,"entity":"T","reason":"a record of T must be an object, got a number","record":1}"#,
            #"{"file":"in.json","line":5,"column":5,"entity":"T","reason":"a record of T must be an object, got a number","record":2}"#,
        ])
        // Every line is JSON that Foundation reads, its record a JSON value (not a string).
        for line in lines {
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            #expect(object?.keys.sorted() == ["column", "entity", "file", "line", "reason", "record"])
        }
        #expect(try workspace.database("out.sqlite").rows(#"SELECT "rejected" FROM "sluice_imports""#) == [[.integer(5)]])
    }

    @Test func theRecordThatAbortsIsWrittenToo() throws {
        let workspace = Workspace()
        try workspace.write(Fixtures.numberModel, to: "model.json")

        let result = try workspace.sluice("import", "--db", "out.sqlite", "--model", "model.json", "--rejects", "rejects.ndjson",
                                          stdin: Array("{\"id\": 1, \"n\": 1}\n{\"id\": 2, \"n\": \"two\", \"deep\": [[[]]]}\n{\"id\": 3, \"n\": \"x\"}\n".utf8))

        #expect(result.status == 65, "\(result)")
        #expect(result.stderrLines == [#"sluice: error: <stdin>:2:1: T.n: cannot convert "two" to integer"#], "\(result)")
        #expect(!workspace.exists("out.sqlite"))
        let text = String(decoding: workspace.bytes(of: "rejects.ndjson") ?? [], as: UTF8.self)
        #expect(text.hasPrefix(#"{"file":"<stdin>","line":2,"column":1,"entity":"T","reason":"#), "\(text)")
        #expect(text.hasSuffix(#","record":{"id":2,"n":"two","deep":[[[]]]}}"# + "\n"), "\(text)")
        #expect(text.split(separator: "\n").count == 1, "the import stopped at the first")
    }

    @Test func zeroConfigRejectsWhatIsNotAnObject() throws {
        let workspace = Workspace()

        let result = try workspace.sluice("import", "--db", "out.sqlite", "--on-error", "skip", "--rejects", "r.ndjson",
                                          stdin: Array("[{\"a\": 1}, \"s\", [1, [2]], {\"a\": 2}]".utf8))

        #expect(result.status == 0, "\(result)")
        let lines = String(decoding: workspace.bytes(of: "r.ndjson") ?? [], as: UTF8.self).split(separator: "\n").map(String.init)
        #expect(lines == [
            #"{"file":"<stdin>","line":1,"column":12,"entity":"records","reason":"a record of records must be an object, got a string","record":"s"}"#,
            #"{"file":"<stdin>","line":1,"column":17,"entity":"records","reason":"a record of records must be an object, got an array","record":[1,[2]]}"#,
        ])
    }

    @Test func aRejectsFileThatCannotBeCreated() throws {
        let workspace = Workspace()
        try workspace.write(Fixtures.numberModel, to: "model.json")
        let before = workspace.contents

        let result = try workspace.sluice("import", "--db", "out.sqlite", "--model", "model.json", "--on-error", "skip",
                                          "--rejects", "no/such/dir/r.ndjson", stdin: Array("{\"id\": 1, \"n\": 1}\n".utf8))

        #expect(result.status == 74, "\(result)")
        #expect(result.stderrLines == ["sluice: error: cannot write rejects file 'no/such/dir/r.ndjson': No such file or directory"],
                "\(result)")
        #expect(workspace.contents == before)
    }
}
