import Testing
import SluiceTestSupport
@testable import Sluice

extension ZeroConfigTests {
    @Suite struct ZeroConfigImportTests {
        let directory = TemporaryDirectory()

        @Test func importsNDJSONIntoOneTableAndLogsTheImport() throws {
            let path = directory.file("out.sqlite")
            let importer = try Importer(databasePath: path, table: "events")
            let ndjson = """
                {"id": 1, "kind": "start", "at": {"x": 1.5, "y": [1, 2]}}
                {"id": 2, "kind": "stop", "ok": true}
                {"id": 3, "note": null}

                """
            try importer.importBytes(Array(ndjson.utf8), name: "events.ndjson")
            let report = try importer.finish()
            #expect(importer.model == nil)
            #expect(report.records == 3)
            #expect(report.entities == [{
                var counts = ImportReport.EntityCounts(entity: "events")
                counts.inserted = 3
                return counts
            }()])

            let connection = try Connection(path: path, mode: .readOnly)
            #expect(try connection.rows("SELECT pk, id, kind, at, ok, note FROM events ORDER BY pk") == [
                [.integer(1), .integer(1), .text("start"), .text(#"{"x":1.5,"y":[1,2]}"#), .null, .null],
                [.integer(2), .integer(2), .text("stop"), .null, .integer(1), .null],
                [.integer(3), .integer(3), .null, .null, .null, .null],
            ])
            #expect(try connection.rows("SELECT sources, records, inserted, model_sha256 FROM sluice_imports") == [
                [.text("events.ndjson"), .integer(3), .integer(3), .text("")],
            ])
        }

        @Test func reimportingAppendsAgainAndAddsOnlyNewColumns() throws {
            let path = directory.file("out.sqlite")
            for json in [#"[{"a": 1}]"#, #"[{"a": 2, "b": 3}]"#] {
                let importer = try Importer(databasePath: path, table: "t")
                try importer.importBytes(Array(json.utf8))
                _ = try importer.finish()
            }
            let connection = try Connection(path: path, mode: .readOnly)
            #expect(try connection.rows("SELECT a, b FROM t ORDER BY pk") == [[.integer(1), .null], [.integer(2), .integer(3)]])
            #expect(try connection.integer("SELECT count(*) FROM sluice_imports") == 2)
        }

        @Test func aKeyIsOneColumnAcrossInputs() throws {
            let path = directory.file("out.sqlite")
            let importer = try Importer(databasePath: path, table: "t")
            try importer.importBytes(Array(#"{"a": 1, "b": 2}"#.utf8), name: "one")
            try importer.importBytes(Array(#"{"b": 3, "c": 4}"#.utf8), name: "two")
            let report = try importer.finish()
            #expect(report.records == 2)
            let connection = try Connection(path: path, mode: .readOnly)
            #expect(try connection.rows("SELECT a, b, c FROM t ORDER BY pk") == [
                [.integer(1), .integer(2), .null], [.null, .integer(3), .integer(4)],
            ])
        }

        @Test func aPathSelectsRecordsInsideAnEnvelope() throws {
            let path = directory.file("out.sqlite")
            var options = ImportOptions()
            options.path = "data.items"
            let importer = try Importer(databasePath: path, table: "items", options: options)
            try importer.importBytes(Array(#"{"data": {"items": [{"a": 1}, {"a": 2}]}, "meta": {"a": 0}}"#.utf8))
            _ = try importer.finish()
            let connection = try Connection(path: path, mode: .readOnly)
            #expect(try connection.rows("SELECT a FROM items ORDER BY pk") == [[.integer(1)], [.integer(2)]])
        }

        @Test func aBadRecordAbortsAndLeavesNoDatabase() throws {
            let path = directory.file("out.sqlite")
            let importer = try Importer(databasePath: path, table: "t")
            let error = #expect(throws: SluiceError.self) { try importer.importBytes(Array("{\"a\": 1}\n42\n".utf8), name: "in.ndjson") }
            #expect(error?.description == "in.ndjson:2:1: a record of t must be an object, got a number")
            #expect(error?.kind == .data)
            #expect(directory.contents == [])
        }

        @Test func tableNamesThatCannotBeUsedAreUsageErrors() throws {
            let path = directory.file("out.sqlite")
            for table in ["", "SLUICE_IMPORTS"] {
                let error = #expect(throws: SluiceError.self) { _ = try Importer(databasePath: path, table: table) }
                #expect(error?.kind == .usage)
            }
            var options = ImportOptions()
            options.entity = "Stop"
            let error = #expect(throws: SluiceError.self) { _ = try Importer(databasePath: path, table: "t", options: options) }
            #expect(error?.kind == .usage)
            #expect(directory.contents == [])
        }
    }
}
