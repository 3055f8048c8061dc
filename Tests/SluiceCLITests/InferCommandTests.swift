import Foundation
import SluiceTestSupport
import Testing
@testable import Sluice

/// `sluice infer` through the built binary: the model it prints passes `sluice check`,
/// imports the input it came from, and a re-import of that input changes nothing.
@Suite struct InferCommandTests {
    /// Orders with a nested customer (by object or bare id), items with ids, a key with a
    /// space, a small nested object, dates in three ISO 8601 forms, and a mixed-type key.
    static let orders = """
        {"id": 1, "placed": "2024-01-05T10:00:00Z", "total": 10.5, "paid": true, "first name": "Ann", "geo": {"lat": 1.5, "lon": 2.25}, "customer": {"customer_id": "C1", "name": "Ann"}, "items": [{"id": 11, "sku": "A", "qty": 2}], "tags": ["x", "y"], "ref": 7}
        {"id": 2, "placed": "2024-01-06", "total": 7, "paid": false, "first name": "Bob", "geo": {"lat": 3, "lon": 4.5}, "customer": {"customer_id": "C2", "name": "Bob"}, "items": [{"id": 12, "sku": "B", "qty": 1}, {"id": 13, "sku": "C", "qty": 5}], "tags": [], "ref": "R-8"}
        {"id": 3, "placed": "2024-01-07T08:30:00+02:00", "total": 3, "paid": true, "first name": "Cy", "geo": null, "customer": "C1", "items": []}

        """

    static let ordersModel = """
        {
          "root": "Record",
          "entities": {
            "Record": {
              "table": "records",
              "identity": "id",
              "attributes": {
                "id": "integer",
                "placed": "date",
                "total": "double",
                "paid": "boolean",
                "first_name": { "type": "string", "key": "first name" },
                "geo_lat": { "type": "double", "key": "geo.lat" },
                "geo_lon": { "type": "double", "key": "geo.lon" },
                "tags": "json",
                "ref": "string"
              },
              "relationships": {
                "customer": { "entity": "Customer" },
                "items": { "entity": "Item", "toMany": true, "inverse": "record" }
              }
            },
            "Customer": {
              "table": "customer",
              "identity": "customer_id",
              "attributes": {
                "customer_id": "string",
                "name": "string"
              }
            },
            "Item": {
              "table": "items",
              "identity": "id",
              "attributes": {
                "id": "integer",
                "sku": "string",
                "qty": "integer"
              },
              "relationships": {
                "record": { "entity": "Record" }
              }
            }
          }
        }

        """

    @Test func printsTheModelOnStandardOutputAndNotesOnStandardError() throws {
        let workspace = Workspace()
        let result = try workspace.sluice("infer", stdin: Array(Self.orders.utf8))
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == Self.ordersModel, "\(result)")
        #expect(result.stderrLines == ["sluice: note: Record.ref: strings mixed with numbers; typed string"])
    }

    @Test func roundTripThroughStandardInputChangesNothingTheSecondTime() throws {
        let workspace = Workspace()
        let input = Array(Self.orders.utf8)
        let inferred = try workspace.sluice("infer", "--sample", "100", stdin: input)
        try #require(inferred.status == 0, "\(inferred)")
        try workspace.write(inferred.stdout, to: "model.json")

        let check = try workspace.sluice("check", "--model", "model.json")
        #expect(check.status == 0 && check.stdout == "model.json: ok, 3 entities\n", "\(check)")

        let first = try workspace.sluice("import", "--db", "out.sqlite", "--model", "model.json", stdin: input)
        try #require(first.status == 0, "\(first)")
        #expect(first.entityLines == [
            "Record: inserted 3, updated 0, unchanged 0, rejected 0, links 6, unresolved 0",
            "Customer: inserted 2, updated 0, unchanged 0, rejected 0, links -, unresolved -",
            "Item: inserted 3, updated 0, unchanged 0, rejected 0, links 0, unresolved 0",
            "total: inserted 8, updated 0, unchanged 0, rejected 0, links 6, unresolved 0",
        ], "\(first)")
        let db = try workspace.database("out.sqlite")
        #expect(try db.rows(#"SELECT id, placed, total, paid, first_name, geo_lat, geo_lon, tags, ref FROM records ORDER BY id"#) == [
            [.integer(1), .text("2024-01-05T10:00:00Z"), .real(10.5), .integer(1), .text("Ann"), .real(1.5), .real(2.25), .text(#"["x","y"]"#), .text("7")],
            [.integer(2), .text("2024-01-06T00:00:00Z"), .real(7), .integer(0), .text("Bob"), .real(3), .real(4.5), .text("[]"), .text("R-8")],
            [.integer(3), .text("2024-01-07T06:30:00Z"), .real(3), .integer(1), .text("Cy"), .null, .null, .null, .null],
        ])
        #expect(try db.rows(#"SELECT r.id, c.customer_id FROM records r JOIN customer c ON r.customer_pk = c.pk ORDER BY r.id"#)
            == [[.integer(1), .text("C1")], [.integer(2), .text("C2")], [.integer(3), .text("C1")]])
        #expect(try db.rows(#"SELECT i.id, r.id FROM items i JOIN records r ON i.record_pk = r.pk ORDER BY i.id"#)
            == [[.integer(11), .integer(1)], [.integer(12), .integer(2)], [.integer(13), .integer(2)]])
        let before = try ["records", "customer", "items"].map { try db.dump($0) }

        let second = try workspace.sluice("import", "--db", "out.sqlite", "--model", "model.json", stdin: input)
        try #require(second.status == 0, "\(second)")
        #expect(second.entityLines == [
            "Record: inserted 0, updated 0, unchanged 3, rejected 0, links 0, unresolved 0",
            "Customer: inserted 0, updated 0, unchanged 2, rejected 0, links -, unresolved -",
            "Item: inserted 0, updated 0, unchanged 3, rejected 0, links 0, unresolved 0",
            "total: inserted 0, updated 0, unchanged 8, rejected 0, links 0, unresolved 0",
        ], "\(second)")
        let after = try ["records", "customer", "items"].map { try workspace.database("out.sqlite").dump($0) }
        #expect(after == before)
    }

    /// A 5 MB input whose JSON breaks after the sample: read only as far as the sample.
    @Test func standardInputIsReadOnlyAsFarAsTheSample() throws {
        var input = ""
        for id in 1...3 { input += #"{"id": \#(id), "n": "x"}"# + "\n" }
        input += String(repeating: "not json ", count: 600_000)
        let workspace = Workspace()
        let result = try workspace.sluice("infer", "--sample", "3", stdin: Array(input.utf8))
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains(#""identity": "id""#))
        let all = try workspace.sluice("infer", "--sample", "4", stdin: Array(input.utf8))
        #expect(all.status == 65)
        #expect(all.stderrLines == ["sluice: error: <stdin>:4:1: invalid JSON: invalid string in json text near 'not json'"], "\(all)")
    }

    @Test func aGzipFileIsNamedAfterItsStem() throws {
        let workspace = Workspace()
        try workspace.write(Gzip.stored(Array(#"[{"stop_id": "S1"}, {"stop_id": "S2"}]"#.utf8)), to: "stops.json.gz")
        let result = try workspace.sluice("infer", "stops.json.gz")
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains(#"""
              "root": "Stop",
              "entities": {
                "Stop": {
                  "table": "stops",
                  "identity": "stop_id",
            """#), "\(result)")
    }

    struct Failure: Sendable, CustomTestStringConvertible {
        var name: String
        var arguments: [String]
        var stdin: String
        var status: Int32
        var stderr: [String]
        var testDescription: String { name }
    }

    static let failures: [Failure] = [
        Failure(name: "invalid JSON", arguments: [], stdin: "{\"a\": 1}\n{\"a\" 2}", status: 65,
                stderr: [#"sluice: error: <stdin>:2:6: invalid JSON: object key and value must be separated by a colon (':') near '{"a" 2}'"#]),
        Failure(name: "truncated JSON", arguments: [], stdin: "[{\"a\": 1}", status: 65,
                stderr: ["sluice: error: <stdin>:1:11: unexpected end of input: the JSON is truncated"]),
        Failure(name: "a file with a bad line", arguments: ["in.json"], stdin: "", status: 65,
                stderr: ["sluice: error: in.json:2:1: invalid JSON: invalid char in json text near 'oops'"]),
        Failure(name: "empty input", arguments: ["-"], stdin: "  \n", status: 65,
                stderr: ["sluice: error: <stdin>: no records: nothing to infer a model from"]),
        Failure(name: "no objects", arguments: [], stdin: "[1, 2, 3]", status: 65,
                stderr: ["sluice: error: <stdin>: none of the 3 records read is an object: nothing to infer a model from"]),
        Failure(name: "sample of zero", arguments: ["--sample", "0"], stdin: "{}", status: 64,
                stderr: ["sluice: error: --sample must be at least 1"]),
        Failure(name: "sample not a number", arguments: ["--sample", "ten"], stdin: "{}", status: 64,
                stderr: ["sluice: error: The value 'ten' is invalid for '--sample <n>'"]),
        Failure(name: "empty entity", arguments: ["--entity", ""], stdin: "{}", status: 64,
                stderr: ["sluice: error: --entity must not be empty"]),
        Failure(name: "two files", arguments: ["in.json", "other.json"], stdin: "", status: 64,
                stderr: ["sluice: error: Unexpected argument 'other.json'"]),
        Failure(name: "unknown option", arguments: ["--db", "x.sqlite"], stdin: "{}", status: 64,
                stderr: ["sluice: error: Unknown option '--db'"]),
        Failure(name: "missing file", arguments: ["missing.json"], stdin: "", status: 66,
                stderr: ["sluice: error: cannot open input 'missing.json': No such file or directory"]),
    ]

    @Test(arguments: failures)
    func badInvocationsAndInputs(_ failure: Failure) throws {
        let workspace = Workspace()
        try workspace.write("{\"a\": 1}\noops\n", to: "in.json")
        let result = try workspace.sluice(["infer"] + failure.arguments, stdin: Array(failure.stdin.utf8))
        #expect(result.status == failure.status, "\(result)")
        #expect(result.stderrLines == failure.stderr, "\(result)")
        #expect(result.stdout == "", "\(result)")
    }

    @Test func helpListsInfer() throws {
        let workspace = Workspace()
        let help = try workspace.sluice("--help")
        #expect(help.stdout.contains("  infer "), "\(help)")
        let inferHelp = try workspace.sluice("infer", "--help")
        #expect(inferHelp.status == 0)
        #expect(inferHelp.stdout.contains("USAGE: sluice infer [--entity <entity>] [--sample <n>] [--format <json|csv|tsv>] [<file>]"), "\(inferHelp)")
    }
}
