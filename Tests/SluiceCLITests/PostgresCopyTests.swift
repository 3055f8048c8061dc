import Foundation
import SluiceTestSupport
import Testing
@testable import Sluice

/// How the PostgreSQL store sends new rows (`docs/postgresql.md`, how rows are written): pks
/// taken from the sequence as one range per batch, `COPY` in binary form, and the outcome of a
/// `COPY` read before the next statement.
@Suite(.enabled(if: PostgresServer.isAvailable, "no PostgreSQL server binaries (initdb, pg_ctl) on this machine"))
struct PostgresCopyTests {
    let workspace = Workspace()

    static let model = """
        {"root": "Item", "entities": {"Item": {"table": "items", "identity": "id",
          "attributes": {"id": "string", "n": "integer", "x": "double", "ok": "boolean", "raw": "binary"}}}}
        """

    /// Ranges of pks per batch, and other writers between imports take the numbers after them.
    @Test func pksComeFromTheSequenceInRanges() throws {
        let server = try PostgresServer.started()
        let database = try server.makeDatabase()
        try workspace.write(Self.model, to: "model.json")
        let first = try workspace.sluice(["import", "--db", server.uri(database), "--model", "model.json", "--batch-size", "2", "--quiet"],
                                         stdin: Array(#"[{"id": "a"}, {"id": "b"}, {"id": "c"}]"#.utf8))
        #expect(first.status == 0, "\(first)")
        #expect(try server.rows(database, #"INSERT INTO items ("id") VALUES ('other') RETURNING pk"#) == ["4"])
        let second = try workspace.sluice(["import", "--db", server.uri(database), "--model", "model.json", "--batch-size", "2", "--quiet"],
                                          stdin: Array(#"[{"id": "d"}, {"id": "a"}, {"id": "e"}]"#.utf8))
        #expect(second.status == 0, "\(second)")
        #expect(try server.rows(database, "SELECT pk, id FROM items ORDER BY pk") == ["1|a", "2|b", "3|c", "4|other", "5|d", "6|e"])
    }

    /// Every column has a binary form here: numbers, booleans and bytes arrive exactly.
    @Test func binaryRowsKeepEveryValue() throws {
        let server = try PostgresServer.started()
        let database = try server.makeDatabase()
        try workspace.write(Self.model, to: "model.json")
        let input = """
            {"id": "a", "n": -9223372036854775808, "x": 0.1, "ok": true, "raw": "AAEC/w=="}
            {"id": "b", "n": 9223372036854775807, "x": -1.5e300, "ok": false, "raw": ""}
            {"id": "tab\\tand\\\\ é", "n": null, "x": 3}
            """
        let result = try workspace.sluice(["import", "--db", server.uri(database), "--model", "model.json", "--quiet"], stdin: Array(input.utf8))
        #expect(result.status == 0, "\(result)")
        #expect(try server.rows(database, "SELECT id, n, x::text, ok, raw FROM items ORDER BY pk") == [
            #"a|-9223372036854775808|0.1|t|\x000102ff"#,
            #"b|9223372036854775807|-1.5e+300|f|\x"#,
            "tab\tand\\ é||3||",
        ])
    }

    /// A value the server refuses in a `COPY` sent without waiting is found at the next
    /// statement: one line naming the record, exit 65, nothing written.
    @Test func aRefusedRowStopsTheImport() throws {
        let server = try PostgresServer.started()
        let database = try server.makeDatabase()
        try workspace.write(Self.model, to: "model.json")
        let input = #"[{"id": "a"}, {"id": "b\u0000c"}, {"id": "d"}]"#
        let result = try workspace.sluice(["import", "--db", server.uri(database), "--model", "model.json", "--quiet"], stdin: Array(input.utf8))
        #expect(result.status == 65, "\(result)")
        #expect(result.stderrLines.count == 1, "\(result)")
        #expect(result.stderrLines.first?.hasPrefix("sluice: error: <stdin>:1:15: Item: cannot write database '\(server.uri(database))': invalid byte sequence for encoding \"UTF8\": 0x00") == true,
                "\(result)")
        #expect(try server.rows(database, "SELECT count(*) FROM pg_tables WHERE schemaname = 'public'") == ["0"])
    }

    /// Only a table nothing looks up by pk during the load gets its primary key afterwards:
    /// W1's append-only stop times, not a table with an identity, a to-one, or one a to-one
    /// points at.
    @Test func whichTablesGetTheirPrimaryKeyAfterTheLoad() throws {
        func deferred(_ modelPath: String) throws -> [String] {
            let layout = DatabaseLayout(try ModelFile.load(path: PackageFiles.path(modelPath)).model)
            return layout.tables.filter { PostgresSchema.keyIsUnusedDuringTheLoad($0, among: layout.tables) }.map(\.name)
        }
        #expect(try deferred("LargeFixtures/models/flat.json") == ["stop_times"])
        #expect(try deferred(Fixtures.transitModel) == [])
        let pets = """
            {"root": "Log", "entities": {"Log": {"attributes": {"m": "string"}},
              "Owner": {"attributes": {"n": "string"}}, "Pet": {"attributes": {"n": "string"},
              "relationships": {"owner": {"entity": "Owner"}}}}}
            """
        try workspace.write(pets, to: "pets.json")
        let layout = DatabaseLayout(try ModelFile.load(path: workspace.path + "/pets.json").model)
        #expect(layout.tables.filter { PostgresSchema.keyIsUnusedDuringTheLoad($0, among: layout.tables) }.map(\.name) == ["Log"])
    }

    /// The key built after the load is the one an inline key would have been.
    @Test func anAppendOnlyTableEndsWithItsPrimaryKey() throws {
        let server = try PostgresServer.started()
        let database = try server.makeDatabase()
        let input = Array(#"[{"trip_id": "t1", "stop_sequence": 1}, {"trip_id": "t1", "stop_sequence": 2}]"#.utf8)
        for _ in 0..<2 {
            let result = try workspace.sluice(["import", "--db", server.uri(database), "--model", PackageFiles.path("LargeFixtures/models/flat.json"),
                                               "--quiet"], stdin: input)
            #expect(result.status == 0, "\(result)")
        }
        #expect(try server.rows(database, "SELECT conname, contype, pg_get_constraintdef(oid) FROM pg_constraint WHERE conrelid = 'stop_times'::regclass")
            == ["stop_times_pkey|p|PRIMARY KEY (pk)"])
        #expect(try server.rows(database, "SELECT pk, trip_id, stop_sequence FROM stop_times ORDER BY pk") == ["1|t1|1", "2|t1|2", "3|t1|1", "4|t1|2"])
    }
}
