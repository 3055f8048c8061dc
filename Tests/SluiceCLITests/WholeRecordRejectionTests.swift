import Foundation
import SluiceTestSupport
import Testing
@testable import Sluice

/// The unit of rejection is the top-level record (SPEC section 4, `docs/import-semantics.md`):
/// an error anywhere inside it, a nested record included, rejects it whole, with the records
/// nested in it and their links, so the rejects file holds exactly what was not imported and
/// importing it once corrected completes the import with nothing twice. On both stores.
@Suite struct WholeRecordRejectionTests {
    static let stores = StoreKind.allCases

    static let model = """
        {"entities": {
          "Thing": {"table": "things", "identity": "id", "attributes": {"id": "integer", "name": "string"},
                    "relationships": {"owner": {"entity": "Owner"},
                                      "parts": {"entity": "Part", "toMany": true, "inverse": "thing"}}},
          "Owner": {"table": "owners", "identity": "id", "attributes": {"id": "string", "age": "integer"}},
          "Part": {"table": "parts", "identity": "id", "attributes": {"id": "integer"},
                   "relationships": {"thing": {"entity": "Thing"}}}}}
        """
    /// Record 2's owner is wrong after two of its parts were read; record 4's last part is.
    static let input = """
        {"id": 1, "name": "a", "parts": [{"id": 10}], "owner": {"id": "p", "age": 30}}
        {"id": 2, "name": "b", "parts": [{"id": 20}, {"id": 21}], "owner": {"id": "q", "age": "old"}}
        {"id": 3, "name": "c", "owner": "p"}
        {"id": 4, "name": "d", "parts": [{"id": 40}, {"id": "forty-one"}], "owner": {"id": "r", "age": 5}}

        """

    @Test(arguments: stores)
    func aNestedRecordsErrorRejectsItsTopLevelRecordWhole(_ store: StoreKind) throws {
        let workspace = Workspace()
        try workspace.write(Self.model, to: "model.json")
        let db = try store.makeDatabase(in: workspace)

        let first = try db.sluiceImport("--model", "model.json", "--entity", "Thing", "--on-error", "skip",
                                        "--rejects", "rejects.ndjson", "--batch-size", "2", stdin: Array(Self.input.utf8))

        #expect(first.status == 0, "\(first)")
        #expect(first.entityLines == [
            "Thing: inserted 2, updated 0, unchanged 0, rejected 2, links 3, unresolved 0",
            "Owner: inserted 1, updated 0, unchanged 0, rejected 0, links -, unresolved -",
            "Part: inserted 1, updated 0, unchanged 0, rejected 0, links 0, unresolved 0",
            "total: inserted 4, updated 0, unchanged 0, rejected 2, links 3, unresolved 0",
        ], "\(first)")
        #expect(try db.rows(#"SELECT "id" FROM "things" ORDER BY "id""#) == ["1", "3"])
        #expect(try db.rows(#"SELECT "id" FROM "owners" ORDER BY "id""#) == ["p"])
        #expect(try db.rows(#"SELECT "id" FROM "parts" ORDER BY "id""#) == ["10"])
        let rejects = String(decoding: workspace.bytes(of: "rejects.ndjson") ?? [], as: UTF8.self)
        #expect(rejects.split(separator: "\n").map(String.init) == [
            #"{"file":"<stdin>","line":2,"column":68,"entity":"Thing","reason":"Owner.age: cannot convert \"old\" to integer","record":{"id":2,"name":"b","parts":[{"id":20},{"id":21}],"owner":{"id":"q","age":"old"}}}"#,
            #"{"file":"<stdin>","line":4,"column":46,"entity":"Thing","reason":"Part.id: cannot convert \"forty-one\" to integer","record":{"id":4,"name":"d","parts":[{"id":40},{"id":"forty-one"}],"owner":{"id":"r","age":5}}}"#,
        ])

        // Corrected, the rejects file imports (each line's record under `--path record`) and
        // completes the import: every row once, nothing twice.
        let corrected = rejects.replacing(#""age":"old""#, with: #""age":40"#).replacing(#""forty-one""#, with: "41")
        try workspace.write(corrected, to: "corrected.ndjson")
        let second = try db.sluiceImport("--model", "model.json", "--entity", "Thing", "--path", "record", "corrected.ndjson")
        #expect(second.status == 0, "\(second)")
        #expect(second.entityLines == [
            "Thing: inserted 2, updated 0, unchanged 0, rejected 0, links 6, unresolved 0",
            "Owner: inserted 2, updated 0, unchanged 0, rejected 0, links -, unresolved -",
            "Part: inserted 4, updated 0, unchanged 0, rejected 0, links 0, unresolved 0",
            "total: inserted 8, updated 0, unchanged 0, rejected 0, links 6, unresolved 0",
        ], "\(second)")
        #expect(try db.rows(#"SELECT "id", "name" FROM "things" ORDER BY "id""#) == ["1|a", "2|b", "3|c", "4|d"])
        #expect(try db.rows(#"SELECT "id", "age" FROM "owners" ORDER BY "id""#) == ["p|30", "q|40", "r|5"])
        #expect(try db.rows(#"SELECT p."id", t."id" FROM "parts" p JOIN "things" t ON t."pk" = p."thing_pk" ORDER BY p."id""#)
            == ["10|1", "20|2", "21|2", "40|4", "41|4"])
        #expect(try db.rows(#"SELECT t."id", o."id" FROM "things" t JOIN "owners" o ON o."pk" = t."owner_pk" ORDER BY t."id""#)
            == ["1|p", "2|q", "3|p", "4|r"])
    }

    /// Under `abort` the first nested error stops the import, with the nested record's place.
    @Test func underAbortANestedErrorStopsTheImportWithItsPlace() throws {
        let workspace = Workspace()
        try workspace.write(Self.model, to: "model.json")
        let result = try workspace.sluice("import", "--db", "out.sqlite", "--model", "model.json", "--entity", "Thing",
                                          stdin: Array(Self.input.utf8))
        #expect(result.status == 65, "\(result)")
        #expect(result.stderrLines == [#"sluice: error: <stdin>:2:68: Owner.age: cannot convert "old" to integer"#], "\(result)")
        #expect(!workspace.exists("out.sqlite"))
    }
}
