import Foundation
import Testing
@testable import Sluice

/// Tabular JSON (`docs/model.md`, tables): header then rows (NDJSON, or one array) and pandas'
/// split orientation, with a model, zero-config, and proposed by `infer`. Through the binary.
@Suite struct TabularInputTests {
    static let ndjson = "[\"id\", \"name\", \"tags\"]\n[1, \"a\", [1, 2]]\n[2, \"b\", {\"x\": 1}]\n[3, \"c\"]\n"
    static let oneArray = #"[["id", "name"], [1, "a"], [2, "b"], [3, "c"]]"#
    static let split = #"{"columns": ["id", "name"], "index": [0, 1, 2], "data": [[1, "a"], [2, "b"], [3, "c"]]}"#

    @Test func zeroConfigTakesHeaderThenRows() throws {
        let workspace = Workspace()
        let lines = try workspace.sluice(["import", "--db", "a.sqlite", "--header", "first", "--quiet"], stdin: Array(Self.ndjson.utf8))
        #expect(lines.status == 0, "\(lines)")
        #expect(try workspace.database("a.sqlite").rows("SELECT id, name, tags FROM records ORDER BY pk") == [
            [.integer(1), .text("a"), .text("[1,2]")], [.integer(2), .text("b"), .text(#"{"x":1}"#)], [.integer(3), .text("c"), .null],
        ])
        let array = try workspace.sluice(["import", "--db", "b.sqlite", "--header", "first", "--quiet"], stdin: Array(Self.oneArray.utf8))
        #expect(array.status == 0, "\(array)")
        #expect(try workspace.database("b.sqlite").rows("SELECT id, name FROM records ORDER BY pk")
            == [[.integer(1), .text("a")], [.integer(2), .text("b")], [.integer(3), .text("c")]])
        let split = try workspace.sluice(["import", "--db", "c.sqlite", "--path", "data", "--header", "columns", "--quiet"],
                                         stdin: Array(Self.split.utf8))
        #expect(split.status == 0, "\(split)")
        #expect(try workspace.database("c.sqlite").rows("SELECT * FROM records ORDER BY pk")
            == [[.integer(1), .integer(1), .text("a")], [.integer(2), .integer(2), .text("b")], [.integer(3), .integer(3), .text("c")]])
    }

    /// A table's rows are arrays, a map's members objects: one location cannot be both.
    @Test func headerWithMapKeyIsAUsageError() throws {
        let workspace = Workspace()
        try workspace.write(#"{"entities": {"Row": {"identity": "id", "attributes": {"id": "integer"}}}}"#, to: "model.json")
        for model in [[], ["--model", "model.json", "--entity", "Row"]] {
            let result = try workspace.sluice(["import", "--db", "a.sqlite", "--header", "first", "--map-key", "id"] + model,
                                              stdin: Array(Self.ndjson.utf8))
            #expect(result.status == 64, "\(result)")
            #expect(result.stderrLines == ["sluice: error: --header and --map-key cannot be used together: a location is a map or a table, not both"])
            #expect(!FileManager.default.fileExists(atPath: workspace.file("a.sqlite")))
        }
    }

    @Test func aModelNamesTheHeaderInRootAndReimportWritesNothing() throws {
        let workspace = Workspace()
        try workspace.write("""
            { "root": { "data": { "entity": "Row", "header": "columns" } },
              "entities": { "Row": { "identity": "id", "attributes": { "id": "integer", "name": "string" } } } }
            """, to: "split.json")
        try workspace.write("""
            { "root": { "": { "entity": "Row", "header": "first" } },
              "entities": { "Row": { "identity": "id", "attributes": { "id": "integer", "name": "string" } } } }
            """, to: "first.json")
        for (model, input) in [("split.json", Self.split), ("first.json", Self.ndjson), ("first.json", Self.oneArray)] {
            let db = "\(model).\(input.count).sqlite"
            let first = try workspace.sluice(["import", "--db", db, "--model", model, "--quiet"], stdin: Array(input.utf8))
            #expect(first.status == 0, "\(first)")
            #expect(try workspace.database(db).rows("SELECT id, name FROM Row ORDER BY pk")
                == [[.integer(1), .text("a")], [.integer(2), .text("b")], [.integer(3), .text("c")]])
            let again = try workspace.sluice(["import", "--db", db, "--model", model], stdin: Array(input.utf8))
            #expect(again.entityLines == ["Row: inserted 0, updated 0, unchanged 3, rejected 0"], "\(again)")
        }
    }

    @Test func tablesThatDoNotFitAreInputErrors() throws {
        let workspace = Workspace()
        let cases: [(arguments: [String], input: String, error: String)] = [
            (["--header", "first"], "[\"id\"]\n[1, 2]\n", "sluice: error: <stdin>:2:5: a row has more values than the header names (1)"),
            (["--header", "first"], "[\"id\", 7]\n", "sluice: error: <stdin>:1:8: a table's header must be an array of strings"),
            (["--path", "data", "--header", "columns"], #"{"data": [[1]], "columns": ["id"]}"#,
             #"sluice: error: <stdin>:1:10: the rows come before their header: "columns" must come first"#),
        ]
        for (arguments, input, error) in cases {
            let result = try workspace.sluice(["import", "--db", "out.sqlite"] + arguments, stdin: Array(input.utf8))
            #expect(result.status == 65)
            #expect(result.stderrLines == [error])
        }
    }

    @Test func inferRecognisesEachForm() throws {
        let workspace = Workspace()
        for (name, input, root) in [("rows.ndjson", Self.ndjson, #""": {"#), ("rows.json", Self.oneArray, #""": {"#),
                                    ("split.json", Self.split, #""data": {"#)] {
            try workspace.write(input, to: name)
            let infer = try workspace.sluice("infer", name)
            #expect(infer.status == 0, "\(infer)")
            #expect(infer.stdout.contains(root) && infer.stdout.contains(#""header": "#), "\(infer.stdout)")
            #expect(infer.stdout.contains(#""identity": "id""#))
            try workspace.write(infer.stdout, to: "\(name).model")
            let first = try workspace.sluice("import", "--db", "\(name).sqlite", "--model", "\(name).model", "--quiet", name)
            #expect(first.status == 0, "\(first)")
            let again = try workspace.sluice("import", "--db", "\(name).sqlite", "--model", "\(name).model", name)
            #expect(again.entityLines.first?.hasSuffix("inserted 0, updated 0, unchanged 3, rejected 0") == true, "\(again)")
        }
    }
}
