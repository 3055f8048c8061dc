import Foundation
import SluiceTestSupport
import Testing
@testable import Sluice

/// CSV and TSV through the binary (`docs/import-semantics.md#csv`): by name or `--format`,
/// from a file or standard input, into the entity the model's root names for the file, with
/// the same conversions, record errors, rejects and re-import as JSON.
@Suite struct CSVImportTests {
    static let model = """
        { "root": { "stops.csv": "Stop" }, "entities": { "Stop": { "table": "stops", "identity": "stop_id",
          "attributes": { "stop_id": "string", "name": "string", "lat": "double", "level": "integer" } } } }
        """
    static let stops = "stop_id,name,lat,level\r\n1,\"Main \"\"A\"\"\",52.5,0\r\n2,\"North,\nGate\",,1\r\n3,South,-1.25,\r\n"

    private func stopRows(_ workspace: Workspace, _ database: String = "out.sqlite") throws -> [String] {
        try workspace.database(database).rows(#"SELECT "stop_id", "name", "lat", "level" FROM "stops" ORDER BY "stop_id""#)
            .map { row in row.map { $0.text ?? $0.integer.map { "\($0)" } ?? $0.real.map { "\($0)" } ?? "NULL" }.joined(separator: "|") }
    }

    @Test func aCSVFileGoesToTheEntityTheRootNamesForItsFileNameAndAReimportWritesNothing() throws {
        let workspace = Workspace()
        _ = try workspace.write(Self.model, to: "model.json")
        _ = try workspace.write(Self.stops, to: "stops.csv")
        let first = try workspace.sluice("import", "--db", "out.sqlite", "--model", "model.json", "stops.csv")
        #expect(first.status == 0, "\(first)")
        #expect(first.entityLines.first == "Stop: inserted 3, updated 0, unchanged 0, rejected 0")
        #expect(try stopRows(workspace) == ["1|Main \"A\"|52.5|0", "2|North,\nGate|NULL|1", "3|South|-1.25|NULL"])
        let second = try workspace.sluice("import", "--db", "out.sqlite", "--model", "model.json", "stops.csv")
        #expect(second.status == 0, "\(second)")
        #expect(second.entityLines.first == "Stop: inserted 0, updated 0, unchanged 3, rejected 0")
        // A relative `--db` is made in the working directory, its temporary file gone.
        #expect(workspace.contents == ["model.json", "out.sqlite", "stops.csv"])
    }

    @Test func standardInputIsCSVWithFormatAndAByteOrderMarkIsNotText() throws {
        let workspace = Workspace()
        _ = try workspace.write(Self.model, to: "model.json")
        let result = try workspace.sluice(["import", "--db", "out.sqlite", "--model", "model.json", "--entity", "Stop",
                                           "--format", "csv"], stdin: [0xEF, 0xBB, 0xBF] + Array(Self.stops.utf8))
        #expect(result.status == 0, "\(result)")
        #expect(try stopRows(workspace).count == 3)
    }

    @Test func tsvAndGzipByTheirNames() throws {
        let workspace = Workspace()
        _ = try workspace.write(Self.model.replacingOccurrences(of: "stops.csv", with: "stops.tsv"), to: "model.json")
        let tsv = "stop_id\tname\n7\tTab, Place\n"
        _ = try workspace.write(Gzip.stored(Array(tsv.utf8)), to: "stops.tsv.gz")
        let result = try workspace.sluice("import", "--db", "out.sqlite", "--model", "model.json", "stops.tsv.gz")
        #expect(result.status == 0, "\(result)")
        #expect(try stopRows(workspace) == ["7|Tab, Place|NULL|NULL"])
    }

    @Test func theFileStemMatchesARootKeyToo() throws {
        let workspace = Workspace()
        _ = try workspace.write(Self.model.replacingOccurrences(of: "stops.csv", with: "stops"), to: "model.json")
        _ = try workspace.write(Self.stops, to: "stops.csv")
        let result = try workspace.sluice("import", "--db", "out.sqlite", "--model", "model.json", "stops.csv")
        #expect(result.status == 0, "\(result)")
        #expect(try stopRows(workspace).count == 3)
    }

    @Test func rootOnTheCommandLineNamesTheFilesEntity() throws {
        let workspace = Workspace()
        _ = try workspace.write(Self.model, to: "model.json")
        _ = try workspace.write(Self.stops, to: "platforms.csv")
        let result = try workspace.sluice("import", "--db", "out.sqlite", "--model", "model.json", "--root", "platforms.csv=Stop",
                                          "platforms.csv")
        #expect(result.status == 0, "\(result)")
        #expect(try stopRows(workspace).count == 3)
    }

    @Test func aFileTheRootDoesNotNameIsAUsageError() throws {
        let workspace = Workspace()
        _ = try workspace.write(Self.model, to: "model.json")
        _ = try workspace.write(Self.stops, to: "other.csv")
        let result = try workspace.sluice("import", "--db", "out.sqlite", "--model", "model.json", "other.csv")
        #expect(result.status == 64)
        #expect(result.stderrLines == [
            "sluice: error: other.csv: the model's root names no entity for 'other.csv': map it with --root other.csv=ENTITY, "
                + "the model's root (\"other.csv\": \"ENTITY\") or --entity",
        ])
    }

    @Test func aRowWithMoreFieldsThanTheHeaderIsARecordError() throws {
        let workspace = Workspace()
        _ = try workspace.write(Self.model, to: "model.json")
        _ = try workspace.write("stop_id,name\n1,a\n2,b,extra\n3,c\n", to: "stops.csv")
        let aborted = try workspace.sluice("import", "--db", "out.sqlite", "--model", "model.json", "stops.csv")
        #expect(aborted.status == 65)
        #expect(aborted.stderrLines == ["sluice: error: stops.csv:3:1: Stop: a row has more fields than the header's 2 at line 3, column 5"])
        #expect(!FileManager.default.fileExists(atPath: workspace.file("out.sqlite")))

        let skipped = try workspace.sluice("import", "--db", "out.sqlite", "--model", "model.json", "--on-error", "skip",
                                           "--rejects", "rejects.ndjson", "stops.csv")
        #expect(skipped.status == 0, "\(skipped)")
        #expect(try stopRows(workspace) == ["1|a|NULL|NULL", "3|c|NULL|NULL"])
        let rejects = try String(contentsOfFile: workspace.file("rejects.ndjson"), encoding: .utf8)
        #expect(rejects.contains(#""line":3"#) && rejects.contains(#""record":{"stop_id":"2","name":"b"}"#), "\(rejects)")
    }

    @Test func aValueOfTheWrongTypeIsARecordErrorAsForAJSONString() throws {
        let workspace = Workspace()
        _ = try workspace.write(Self.model, to: "model.json")
        _ = try workspace.write("stop_id,level\n1,2\n2,high\n", to: "stops.csv")
        let result = try workspace.sluice("import", "--db", "out.sqlite", "--model", "model.json", "stops.csv")
        #expect(result.status == 65)
        #expect(result.stderrLines.first?.hasPrefix("sluice: error: stops.csv:3:1: Stop.level: ") == true, "\(result)")
    }

    @Test func anUnclosedQuoteAnOversizedFieldAndInvalidTextNameTheirPlace() throws {
        let workspace = Workspace()
        _ = try workspace.write(Self.model, to: "model.json")
        _ = try workspace.write("stop_id,name\n1,\"open\n2,b\n", to: "stops.csv")
        let unclosed = try workspace.sluice("import", "--db", "out.sqlite", "--model", "model.json", "stops.csv")
        #expect(unclosed.status == 65)
        #expect(unclosed.stderrLines == ["sluice: error: stops.csv:2:3: a quoted field is not closed: the input ends inside it"])

        _ = try workspace.write("stop_id,name\n1,abcdefghijklmnop\n", to: "stops.csv")
        let large = try workspace.sluice("import", "--db", "out.sqlite", "--model", "model.json", "--max-value-bytes", "14", "stops.csv")
        #expect(large.status == 65)
        #expect(large.stderrLines == ["sluice: error: stops.csv:2:3: a single value is larger than 14 bytes (--max-value-bytes)"])

        _ = try workspace.write(Array("stop_id,name\n1,ab".utf8) + [0xFF] + Array("\n".utf8), to: "stops.csv")
        let invalid = try workspace.sluice("import", "--db", "out.sqlite", "--model", "model.json", "stops.csv")
        #expect(invalid.status == 65)
        #expect(invalid.stderrLines == ["sluice: error: stops.csv:2:1: Stop: invalid UTF-8 (byte 0xFF, which never occurs in UTF-8) at line 2, column 5"])
        let replaced = try workspace.sluice("import", "--db", "out.sqlite", "--model", "model.json", "--invalid-text", "replace", "stops.csv")
        #expect(replaced.status == 0, "\(replaced)")
        #expect(try stopRows(workspace) == ["1|ab\u{FFFD}|NULL|NULL"])
    }

    /// A header naming a column twice is an input error at the second (exit 65, nothing
    /// written): each row would have two values for one key, and the first was dropped
    /// silently. With a model, zero-config, in a zip with `--model gtfs`, quoted or not.
    @Test func aHeaderNamingAColumnTwiceIsAnInputErrorAtTheSecond() throws {
        let workspace = Workspace()
        _ = try workspace.write(Self.model, to: "model.json")
        _ = try workspace.write("stop_id,name,lat,\"name\"\n1,a,2,b\n", to: "stops.csv")
        let expected = [#"sluice: error: stops.csv:1:18: the header names the column "name" twice, fields 2 and 4: "#
            + "each column needs a name of its own"]
        for model in [["--model", "model.json"], []] {
            let result = try workspace.sluice(["import", "--db", "out.sqlite"] + model + ["stops.csv"])
            #expect(result.status == 65, "\(result)")
            #expect(result.stderrLines == expected, "\(result)")
            #expect(!FileManager.default.fileExists(atPath: workspace.file("out.sqlite")))
        }
        // In a feed: a file of the model's fails the import; an extra file is not kept, with a
        // note, and the rest imports.
        for (file, header) in [("stops.txt", "stop_id,stop_id,,x,"), ("vehicles.txt", "id,id,,x,")] {
            _ = try workspace.write(try ZipBuilder([
                .init("routes.txt", Array("route_id,route_type\nr1,3\n".utf8)),
                .init(file, Array("\u{FEFF}\n\n\(header)\n1,2\n".utf8)),
            ]).bytes(), to: "feed.zip")
            let gtfs = try workspace.sluice("import", "--db", "out.sqlite", "--model", "gtfs", "feed.zip")
            let error = #"the header names the column "\#(header.prefix(while: { $0 != "," }))" twice, fields 1 and 2: "#
                + "each column needs a name of its own"
            if file == "stops.txt" {
                #expect(gtfs.status == 65, "\(gtfs)")
                #expect(gtfs.stderrLines == ["sluice: error: feed.zip:stops.txt:3:9: " + error], "\(gtfs)")
                #expect(!FileManager.default.fileExists(atPath: workspace.file("out.sqlite")))
            } else {
                #expect(gtfs.status == 0, "\(gtfs)")
                #expect(gtfs.noteLines.first == "sluice: note: feed.zip:vehicles.txt: not kept: its header at line 3, column 4: "
                    + error, "\(gtfs)")
                #expect(try workspace.database("out.sqlite").count("routes") == 1)
                try FileManager.default.removeItem(atPath: workspace.file("out.sqlite"))
            }
        }
        // Empty names are not columns' names: a spreadsheet's unnamed columns import.
        _ = try workspace.write("stop_id,,name,\n1,,a,\n", to: "stops.csv")
        let empty = try workspace.sluice("import", "--db", "out.sqlite", "--model", "model.json", "stops.csv")
        #expect(empty.status == 0, "\(empty)")
        #expect(try stopRows(workspace) == ["1|a|NULL|NULL"])
    }

    @Test func anEmptyFileAndAHeaderAloneImportNothing() throws {
        let workspace = Workspace()
        _ = try workspace.write(Self.model, to: "model.json")
        _ = try workspace.write("", to: "stops.csv")
        let empty = try workspace.sluice("import", "--db", "out.sqlite", "--model", "model.json", "stops.csv")
        #expect(empty.status == 0, "\(empty)")
        _ = try workspace.write("stop_id,name\r\n", to: "stops.csv")
        let header = try workspace.sluice("import", "--db", "out.sqlite", "--model", "model.json", "stops.csv")
        #expect(header.status == 0, "\(header)")
        #expect(header.summaryLine?.hasPrefix("sluice: imported 0 records") == true, "\(header)")
    }

    @Test func zeroConfigMakesATableOfTheRowsNamedAfterTheFile() throws {
        let workspace = Workspace()
        _ = try workspace.write(Self.stops, to: "stops.csv")
        let result = try workspace.sluice("import", "--db", "out.sqlite", "stops.csv")
        #expect(result.status == 0, "\(result)")
        #expect(try workspace.database("out.sqlite").rows(#"SELECT "stop_id", "name", "level" FROM "stops" ORDER BY "pk""#)
            .map { $0.map { $0.text ?? "NULL" } } == [["1", "Main \"A\"", "0"], ["2", "North,\nGate", "1"], ["3", "South", "NULL"]])
    }

    @Test func inferProposesAModelFromTheRowsWithNumbersWhereFieldsAreWrittenAsNumbers() throws {
        let workspace = Workspace()
        _ = try workspace.write("stop_id,code,lat,level\n1,007,52.5,0\n2,+1,-1e3,\n", to: "stops.csv")
        let inferred = try workspace.sluice("infer", "stops.csv")
        #expect(inferred.status == 0, "\(inferred)")
        let model = try JSONSerialization.jsonObject(with: Data(inferred.stdout.utf8)) as? [String: Any]
        let stop = (model?["entities"] as? [String: Any])?["Stop"] as? [String: Any]
        #expect(stop?["attributes"] as? [String: String]
            == ["stop_id": "integer", "code": "string", "lat": "double", "level": "integer"])
        _ = try workspace.write(inferred.stdout, to: "model.json")
        let imported = try workspace.sluice("import", "--db", "out.sqlite", "--model", "model.json", "stops.csv")
        #expect(imported.status == 0, "\(imported)")
        #expect(try workspace.database("out.sqlite").rows(#"SELECT "code", "lat" FROM "stops" ORDER BY "stop_id""#)
            .map { "\($0[0].text ?? "NULL")|\($0[1].real ?? 0)" } == ["007|52.5", "+1|-1000.0"])
    }

    @Test(.enabled(if: PostgresServer.isAvailable, "no PostgreSQL server binaries (initdb, pg_ctl) on this machine"))
    func aCSVFileIntoPostgreSQL() throws {
        let workspace = Workspace()
        let server = try PostgresServer.started()
        let database = try server.makeDatabase()
        _ = try workspace.write(Self.model, to: "model.json")
        _ = try workspace.write(Self.stops, to: "stops.csv")
        let result = try workspace.sluice("import", "--db", server.uri(database), "--model", "model.json", "stops.csv")
        #expect(result.status == 0, "\(result)")
        #expect(try server.rows(database, #"SELECT "stop_id", "name", "lat", "level" FROM "stops" WHERE "stop_id" <> '2' ORDER BY 1"#)
            == ["1|Main \"A\"|52.5|0", "3|South|-1.25|"])
        #expect(try server.rows(database, #"SELECT "name" = E'North,\nGate' FROM "stops" WHERE "stop_id" = '2'"#) == ["t"])
    }
}
