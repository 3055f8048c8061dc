import Foundation
import SluiceTestSupport
import Testing
@testable import Sluice

/// `sluice import` end to end: the binary, real input through stdin or files, rows in SQLite.
@Suite struct ImportCommandTests {
    // MARK: Quick start

    @Test func transitSampleThroughStandardInput() throws {
        let workspace = Workspace()
        let sample = try PackageFiles.bytes(Fixtures.transitSample)
        let model = PackageFiles.path(Fixtures.transitModel)

        let result = try workspace.sluice("import", "--db", "transit.sqlite", "--model", model, stdin: sample)

        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == "")
        #expect(result.summaryLine?.hasPrefix("sluice: imported 155 records (") == true, "\(result)")
        #expect(result.entityLines == [
            "Stop: inserted 76, updated 0, unchanged 0, rejected 0, links 38, unresolved 0",
            "Route: inserted 1, updated 0, unchanged 0, rejected 0, links 0, unresolved 0",
            "Trip: inserted 2, updated 0, unchanged 0, rejected 0, links 2, unresolved 0",
            "StopTime: inserted 76, updated 0, unchanged 0, rejected 0, links 152, unresolved 0",
            "total: inserted 155, updated 0, unchanged 0, rejected 0, links 192, unresolved 0",
        ], "\(result)")
        #expect(result.stderrLines.count == 7, "a header, four entities, the totals, the closing line: \(result)")
        #expect(result.stderrLines.last == result.summaryLine, "\(result)")

        let db = try workspace.database("transit.sqlite")
        #expect(try db.count("stops") == 76)
        #expect(try db.count("routes") == 1)
        #expect(try db.count("trips") == 2)
        #expect(try db.count("stop_times") == 76)

        let stop = try db.rows(#"SELECT "stopID", "name", "lat", "lon" FROM "stops" WHERE "stopID" = '127S'"#)
        #expect(stop == [[.text("127S"), .text("Times Sq-42 St"), .real(40.75529), .real(-73.987495)]])
        let route = try db.rows(#"SELECT "routeID", "shortName", "type" FROM "routes""#)
        #expect(route == [[.text("1"), .text("1"), .integer(1)]])
        let stopTime = try db.rows(#"""
            SELECT "arrival", "departure" FROM "stop_times"
            WHERE "tripID" = 'AFA24GEN-1038-Sunday-00_000600_1..S03R' AND "sequence" = 3
            """#)
        #expect(stopTime == [[.text("00:09:00"), .text("00:09:00")]])

        let imports = try db.rows(#"SELECT "records", "inserted", "updated", "unchanged", "rejected", "model_sha256" FROM "sluice_imports""#)
        try #require(imports.count == 1)
        #expect(Array(imports[0][0..<5]) == [.integer(155), .integer(155), .integer(0), .integer(0), .integer(0)])
        let digest = try #require(imports[0][5].text)
        #expect(digest.count == 64 && digest.allSatisfy { "0123456789abcdef".contains($0) }, "\(digest)")
        let modelDigest = try ModelFile.load(path: model).sha256
        #expect(digest == modelDigest)

        // Nothing but the database is left in the directory (no temporary file, no journal).
        #expect(workspace.contents == ["transit.sqlite"])
        #expect(try db.integrityCheck() == .text("ok"))
    }

    @Test func transitSampleLinksRelationships() throws {
        let workspace = Workspace()
        let result = try workspace.sluice("import", "--db", "t.sqlite", "--model", PackageFiles.path(Fixtures.transitModel),
                                          stdin: try PackageFiles.bytes(Fixtures.transitSample))
        try #require(result.status == 0, "\(result)")
        let db = try workspace.database("t.sqlite")

        // `docs/import-semantics.md` and the comments of the transit model: to-one keys holding a bare id are
        // linked, also when the target comes later in the input (stop_times come first).
        do {
            let parent = try db.rows(#"""
                SELECT p."stopID" FROM "stops" s JOIN "stops" p ON s."parent_pk" = p."pk" WHERE s."stopID" = '127S'
                """#)
            #expect(parent == [[.text("127")]])
            #expect(try db.scalar(#"SELECT count("parent_pk") FROM "stops""#) == .integer(38))
            #expect(try db.scalar(#"SELECT count("route_pk") FROM "trips""#) == .integer(2))
            #expect(try db.scalar(#"SELECT count("trip_pk") FROM "stop_times""#) == .integer(76))
            #expect(try db.scalar(#"""
                SELECT count(*) FROM "stop_times" t JOIN "stops" s ON t."stop_pk" = s."pk"
                """#) == .integer(76))
        }
    }

    @Test func secondImportRecordsTheSameModelDigest() throws {
        let workspace = Workspace()
        let sample = try PackageFiles.bytes(Fixtures.transitSample)
        let model = PackageFiles.path(Fixtures.transitModel)
        for _ in 0..<2 {
            let result = try workspace.sluice("import", "--db", "t.sqlite", "--model", model, "--quiet", stdin: sample)
            #expect(result.status == 0, "\(result)")
            #expect(result.stderr == "", "--quiet prints nothing")
        }
        let db = try workspace.database("t.sqlite")
        let rows = try db.rows(#"SELECT "id", "records", "model_sha256" FROM "sluice_imports" ORDER BY "id""#)
        try #require(rows.count == 2)
        #expect(rows[0][1] == .integer(155) && rows[1][1] == .integer(155))
        #expect(rows[0][2] == rows[1][2])
        #expect(rows[0][2].text?.count == 64)
    }

    // MARK: Input shapes through stdin

    /// Imports `input` through stdin with `Fixtures.itemModel` (plus `arguments`) and returns
    /// the rows of `t` as (id, n).
    private func importItems(_ input: [UInt8], _ arguments: [String] = []) throws -> (SluiceResult, [[ColumnValue]]) {
        let workspace = Workspace()
        try workspace.write(Fixtures.itemModel, to: "model.json")
        let result = try workspace.sluice(["import", "--db", "out.sqlite", "--model", "model.json"] + arguments, stdin: input)
        guard result.status == 0 else { return (result, []) }
        let rows = try workspace.database("out.sqlite").rows(#"SELECT "id", "n" FROM "t" ORDER BY "id""#)
        return (result, rows)
    }

    private static let abc: [[ColumnValue]] = [
        [.integer(1), .text("a")], [.integer(2), .text("b")], [.integer(3), .text("c")],
    ]

    @Test func jsonArray() throws {
        let (result, rows) = try importItems(Array(#"[{"id": 1, "n": "a"}, {"id": 2, "n": "b"}, {"id": 3, "n": "c"}]"#.utf8))
        #expect(result.status == 0, "\(result)")
        #expect(rows == Self.abc)
        #expect(result.entityLines == ["T: inserted 3, updated 0, unchanged 0, rejected 0"], "\(result)")
    }

    @Test func singleObject() throws {
        let (result, rows) = try importItems(Array(#"{"id": 7, "n": "seven"}"#.utf8))
        #expect(result.status == 0, "\(result)")
        #expect(rows == [[.integer(7), .text("seven")]])
        #expect(result.summaryLine?.hasPrefix("sluice: imported 1 record (") == true, "\(result)")
    }

    @Test func newlineDelimitedJSON() throws {
        let input = "{\"id\": 1, \"n\": \"a\"}\n{\"id\": 2, \"n\": \"b\"}\r\n\n{\"id\": 3, \"n\": \"c\"}\n"
        let (result, rows) = try importItems(Array(input.utf8))
        #expect(result.status == 0, "\(result)")
        #expect(rows == Self.abc)
    }

    @Test func concatenatedObjectsWithoutSeparator() throws {
        let (result, rows) = try importItems(Array(#"{"id":1,"n":"a"}{"id":2,"n":"b"}{"id":3,"n":"c"}"#.utf8))
        #expect(result.status == 0, "\(result)")
        #expect(rows == Self.abc)
    }

    @Test func envelopeWithEntityAndPath() throws {
        let input = #"{"meta": {"count": 3}, "data": {"items": [{"id": 1, "n": "a"}, {"id": 2, "n": "b"}, {"id": 3, "n": "c"}]}}"#
        let (result, rows) = try importItems(Array(input.utf8), ["--entity", "T", "--path", "data.items"])
        #expect(result.status == 0, "\(result)")
        #expect(rows == Self.abc)
        #expect(result.entityLines == ["T: inserted 3, updated 0, unchanged 0, rejected 0"], "\(result)")
    }

    @Test func gzipInput() throws {
        let input = Array("{\"id\": 1, \"n\": \"a\"}\n{\"id\": 2, \"n\": \"b\"}\n{\"id\": 3, \"n\": \"c\"}\n".utf8)
        let (result, rows) = try importItems(Gzip.stored(input))
        #expect(result.status == 0, "\(result)")
        #expect(rows == Self.abc)
    }

    @Test
    func gzipCompressedByTheGzipTool() throws {
        var text = "["
        for id in 1...2_000 { text += (id > 1 ? ",\n" : "") + "{\"id\": \(id), \"n\": \"name \(id % 10)\"}" }
        text += "]"
        let compressed = try Gzip.compress(Array(text.utf8))
        #expect(compressed.count < text.utf8.count / 4)
        let (result, rows) = try importItems(compressed)
        #expect(result.status == 0, "\(result)")
        #expect(rows.count == 2_000)
        #expect(rows.last == [.integer(2_000), .text("name 0")])
    }

    // MARK: Several inputs

    @Test func severalFileArguments() throws {
        let workspace = Workspace()
        try workspace.write(Fixtures.itemModel, to: "model.json")
        try workspace.write(#"[{"id": 1, "n": "a"}, {"id": 2, "n": "b"}]"#, to: "one.json")
        try workspace.write("{\"id\": 3, \"n\": \"c\"}\n{\"id\": 2, \"n\": \"B\"}\n", to: "two.ndjson")

        let result = try workspace.sluice("import", "--db", "out.sqlite", "--model", "model.json", "one.json", "two.ndjson")

        #expect(result.status == 0, "\(result)")
        #expect(result.summaryLine?.hasPrefix("sluice: imported 4 records (") == true, "\(result)")
        #expect(result.entityLines == ["T: inserted 3, updated 1, unchanged 0, rejected 0"], "\(result)")
        let db = try workspace.database("out.sqlite")
        #expect(try db.rows(#"SELECT "id", "n" FROM "t" ORDER BY "id""#)
            == [[.integer(1), .text("a")], [.integer(2), .text("B")], [.integer(3), .text("c")]])
        let log = try db.rows(#"SELECT "records", "sources" FROM "sluice_imports""#)
        #expect(log.count == 1)
        #expect(log.first?.first == .integer(4))
    }

    @Test func standardInputMixedWithAFile() throws {
        let workspace = Workspace()
        try workspace.write(Fixtures.itemModel, to: "model.json")
        try workspace.write(#"[{"id": 1, "n": "file"}, {"id": 3, "n": "c"}]"#, to: "after.json")

        let result = try workspace.sluice("import", "--db", "out.sqlite", "--model", "model.json", "-", "after.json",
                                          stdin: Array(#"{"id": 1, "n": "a"} {"id": 2, "n": "b"}"#.utf8))

        #expect(result.status == 0, "\(result)")
        #expect(result.entityLines == ["T: inserted 3, updated 1, unchanged 0, rejected 0"], "\(result)")
        let rows = try workspace.database("out.sqlite").rows(#"SELECT "id", "n" FROM "t" ORDER BY "id""#)
        #expect(rows == [[.integer(1), .text("file")], [.integer(2), .text("b")], [.integer(3), .text("c")]])
    }

    // MARK: Options

    @Test func statsFileHoldsTheSummarysFigures() throws {
        let workspace = Workspace()
        let sample = try PackageFiles.bytes(Fixtures.transitSample)
        let model = PackageFiles.path(Fixtures.transitModel)

        let result = try workspace.sluice("import", "--db", "t.sqlite", "--model", model, "--stats", "stats.json", stdin: sample)

        #expect(result.status == 0, "\(result)")
        let data = try #require(workspace.bytes(of: "stats.json"))
        let json = try #require(try JSONSerialization.jsonObject(with: Data(data)) as? [String: Any])
        #expect(Set(json.keys) == ["entities", "totals", "sources", "records", "bytes", "seconds", "phases", "recordsPerSecond",
                                   "peakMemoryBytes", "replacementCharacters", "unresolvedExamples", "notes"])
        #expect(json["records"] as? Int == 155)
        #expect(json["notes"] as? [String] == [])
        #expect(json["bytes"] as? Int == sample.count)
        #expect(json["sources"] as? [String] == ["<stdin>"])
        #expect(json["unresolvedExamples"] as? [String] == [])
        let seconds = try #require((json["seconds"] as? NSNumber)?.doubleValue)
        let rate = try #require((json["recordsPerSecond"] as? NSNumber)?.doubleValue)
        #expect(seconds > 0 && abs(rate - 155 / seconds) < 0.01 * rate, "rate \(rate) over \(seconds) s")
        #expect((json["peakMemoryBytes"] as? Int ?? 0) > 1 << 20)

        let keys = ["inserted", "updated", "unchanged", "rejected", "deleted", "links", "unresolved"]
        func figures(_ counts: [String: Any]) -> String {
            keys.map { "\($0) \(counts[$0] ?? "?")" }.joined(separator: ", ")
        }
        let entities = try #require(json["entities"] as? [[String: Any]])
        #expect(entities.map { "\($0["entity"] ?? "?"): \(figures($0)), relationships \($0["hasRelationships"] ?? "?")" } == [
            "Stop: inserted 76, updated 0, unchanged 0, rejected 0, deleted 0, links 38, unresolved 0, relationships 1",
            "Route: inserted 1, updated 0, unchanged 0, rejected 0, deleted 0, links 0, unresolved 0, relationships 1",
            "Trip: inserted 2, updated 0, unchanged 0, rejected 0, deleted 0, links 2, unresolved 0, relationships 1",
            "StopTime: inserted 76, updated 0, unchanged 0, rejected 0, deleted 0, links 152, unresolved 0, relationships 1",
        ])
        let totals = try #require(json["totals"] as? [String: Any])
        #expect(figures(totals) == "inserted 155, updated 0, unchanged 0, rejected 0, deleted 0, links 192, unresolved 0")
        #expect(Set(totals.keys) == Set(keys))
    }

    @Test func statsFileWhenTheSummaryIsQuiet() throws {
        let workspace = Workspace()
        try workspace.write(Fixtures.itemModel, to: "model.json")
        let result = try workspace.sluice("import", "--db", "t.sqlite", "--model", "model.json", "--quiet", "--stats", "s.json",
                                          stdin: Array(#"{"id": 1} {"id": 2} {"id": 1, "n": "x"}"#.utf8))
        #expect(result.status == 0 && result.stderr == "", "\(result)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(workspace.bytes(of: "s.json") ?? [])) as? [String: Any])
        let totals = try #require(json["totals"] as? [String: Any])
        #expect(totals["inserted"] as? Int == 2 && totals["updated"] as? Int == 1, "\(json)")
        #expect(json["records"] as? Int == 3)
    }

    @Test func batchSizeTwoGivesTheSameRowsAsTheDefault() throws {
        let workspace = Workspace()
        let sample = try PackageFiles.bytes(Fixtures.transitSample)
        let model = PackageFiles.path(Fixtures.transitModel)

        let byDefault = try workspace.sluice("import", "--db", "default.sqlite", "--model", model, stdin: sample)
        let small = try workspace.sluice("import", "--db", "small.sqlite", "--model", model, "--batch-size", "2", stdin: sample)

        #expect(byDefault.status == 0, "\(byDefault)")
        #expect(small.status == 0, "\(small)")
        #expect(small.entityLines == byDefault.entityLines)
        let one = try workspace.database("default.sqlite")
        let two = try workspace.database("small.sqlite")
        for table in ["stops", "routes", "trips", "stop_times"] {
            let rows = try one.dump(table)
            #expect(!rows.isEmpty)
            #expect(try two.dump(table) == rows, "table \(table)")
        }
    }

    @Test func batchSizeTwoMergesDuplicateIdentitiesAcrossBatches() throws {
        let workspace = Workspace()
        try workspace.write(Fixtures.itemModel, to: "model.json")
        let input = "{\"id\":1,\"n\":\"a\"}\n{\"id\":2,\"n\":\"b\"}\n{\"id\":1,\"n\":\"a2\"}\n{\"id\":3,\"n\":\"c\"}\n{\"id\":1,\"n\":\"a2\"}\n"

        let result = try workspace.sluice("import", "--db", "out.sqlite", "--model", "model.json", "--batch-size", "2",
                                          stdin: Array(input.utf8))

        #expect(result.status == 0, "\(result)")
        #expect(result.entityLines == ["T: inserted 3, updated 1, unchanged 1, rejected 0"], "\(result)")
        let rows = try workspace.database("out.sqlite").rows(#"SELECT "id", "n" FROM "t" ORDER BY "id""#)
        #expect(rows == [[.integer(1), .text("a2")], [.integer(2), .text("b")], [.integer(3), .text("c")]])
    }

    @Test func analyzeAndVacuumStillImport() throws {
        let workspace = Workspace()
        let sample = try PackageFiles.bytes(Fixtures.transitSample)
        let model = PackageFiles.path(Fixtures.transitModel)

        let result = try workspace.sluice("import", "--db", "t.sqlite", "--model", model, "--analyze", "--vacuum", stdin: sample)

        #expect(result.status == 0, "\(result)")
        let db = try workspace.database("t.sqlite")
        #expect(try db.count("stops") == 76)
        #expect(try db.integrityCheck() == .text("ok"))
        #expect(workspace.contents == ["t.sqlite"])
    }

    // MARK: Version and help

    @Test func versionAndHelp() throws {
        let workspace = Workspace()
        let version = try workspace.sluice("--version")
        #expect(version.status == 0, "\(version)")
        #expect(version.stdout == SluiceVersion.current + "\n")
        #expect(version.stderr == "")

        let help = try workspace.sluice("--help")
        #expect(help.status == 0, "\(help)")
        for command in ["import", "schema", "check"] {
            #expect(help.stdout.contains(command), "help lists \(command)")
        }
    }
}
