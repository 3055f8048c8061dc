import Foundation
import Testing
@testable import Sluice

/// A table holds at most 2,000 columns (SQLite's `SQLITE_MAX_COLUMN`): `sluice check` refuses a
/// wider entity, and `sluice infer` never writes one (it keeps objects as `json`, then leaves
/// keys out, and says so). Through the binary.
@Suite struct ColumnLimitTests {
    @Test func theModelsLimitIsTheLinkedSQLites() throws {
        let connection = try Connection(path: ":memory:")
        #expect(connection.columnLimit == Model.maxColumns)
    }

    @Test func checkRefusesATableWiderThanSQLiteAllows() throws {
        let workspace = Workspace()
        var attributes = (0..<1998).map { "\"a\($0)\": \"string\"" }
        attributes.append("\"b\": \"json\"")
        let model = """
            { "entities": {
                "Other": { "identity": "id", "attributes": { "id": "integer" } },
                "Wide": { "table": "wide", "identity": "a0", "attributes": { \(attributes.joined(separator: ", ")) },
                          "relationships": { "other": { "entity": "Other" }, "others": { "entity": "Other", "toMany": true } } } } }
            """
        try workspace.write(model, to: "model.json")
        let check = try workspace.sluice("check", "--model", "model.json")
        #expect(check.status == 64)
        #expect(check.stderrLines == [
            #"sluice: error: model.json: entities.Wide: table "wide" would have 2001 columns (pk, 1999 attributes, 1 to-one relationships); an entity with identity may have at most 1999 (SQLite allows 2000 in a query's result, and finding rows by identity reads every column and one more): keep some keys as one json attribute, or split the entity"#,
        ])
        let imported = try workspace.sluice(["import", "--db", "out.sqlite", "--model", "model.json"], stdin: Array("{}".utf8))
        #expect(imported.status == 64)
        // Two columns fewer fit, and import.
        try workspace.write(model.replacingOccurrences(of: #", "b": "json""#, with: "")
            .replacingOccurrences(of: #""other": { "entity": "Other" }, "#, with: ""), to: "fits.json")
        #expect(try workspace.sluice("check", "--model", "fits.json", "--entity", "Wide").status == 0)
        let fits = try workspace.sluice(["import", "--db", "out.sqlite", "--model", "fits.json", "--entity", "Wide", "--quiet"],
                                        stdin: Array(#"{"a0": "x", "a1997": "y"}"#.utf8))
        #expect(fits.status == 0, "\(fits)")
    }

    /// Records with 2,100 keys: the model keeps the id and the next 1,997 keys, and leaves the
    /// rest out (the sample reads 2,000 keys of an object).
    @Test func inferLeavesOutKeysPastTheLimit() throws {
        let workspace = Workspace()
        var record = ["\"id\": 1"]
        record += (0..<2100).map { "\"k\($0)\": \($0)" }
        try workspace.write("{" + record.joined(separator: ", ") + "}\n", to: "wide.ndjson")
        let infer = try workspace.sluice("infer", "wide.ndjson")
        #expect(infer.status == 0, "\(infer)")
        #expect(infer.stderrLines.contains { $0 == #"sluice: note: Wide: 2000 attributes and 0 to-one relationships would make 2001 columns, more than the 1999 a table of an entity with identity may have; 2 keys are left out ("k1997", "k1998")"# })
        try workspace.write(infer.stdout, to: "model.json")
        #expect(try workspace.sluice("check", "--model", "model.json").status == 0)
        let imported = try workspace.sluice("import", "--db", "out.sqlite", "--model", "model.json", "--quiet", "wide.ndjson")
        #expect(imported.status == 0, "\(imported)")
        #expect(try workspace.database("out.sqlite").scalar("SELECT count(*) FROM pragma_table_info('wide')") == .integer(1999))
    }

    /// 110 objects of 19 keys would be 2,091 flattened columns: they are json instead.
    @Test func inferKeepsObjectsAsJSONWhenFlatteningIsTooWide() throws {
        let workspace = Workspace()
        var members = ["\"id\": 1"]
        for object in 0..<110 {
            members.append("\"o\(object)\": {" + (0..<19).map { "\"f\($0)\": \($0)" }.joined(separator: ", ") + "}")
        }
        try workspace.write("{" + members.joined(separator: ", ") + "}\n", to: "nested.ndjson")
        let infer = try workspace.sluice("infer", "nested.ndjson")
        #expect(infer.status == 0, "\(infer)")
        #expect(infer.stderrLines.contains(#"sluice: note: Nested: 2091 attributes and 0 to-one relationships would make 2092 columns, more than the 1999 a table of an entity with identity may have; 110 objects are kept as json instead of one column per key ("o0", "o1", "o2", "o3", "o4", …)"#))
        try workspace.write(infer.stdout, to: "model.json")
        let imported = try workspace.sluice("import", "--db", "out.sqlite", "--model", "model.json", "--quiet", "nested.ndjson")
        #expect(imported.status == 0, "\(imported)")
        #expect(try workspace.database("out.sqlite").scalar("SELECT json_extract(o7, '$.f3') FROM nested") == .integer(3))
    }
}
