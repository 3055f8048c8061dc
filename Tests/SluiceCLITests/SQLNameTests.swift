import Foundation
import SluiceTestSupport
import Testing
@testable import Sluice

/// Names SQL cannot confuse (`docs/database-layout.md`): `check` refuses a model whose layout
/// would give two tables or indexes one name, a reserved name, or a name holding U+0000; and
/// the SQL an import generates refers to every table through a quoted alias of its own, so no
/// table name can be mistaken for one.
@Suite struct SQLNameTests {
    private func check(_ model: String) throws -> SluiceResult {
        let workspace = Workspace()
        try workspace.write(model, to: "model.json")
        return try workspace.sluice("check", "--model", "model.json")
    }

    @Test func aToOnesIndexNamedLikeAnotherTablesIdentityIndex() throws {
        // B's to-one column "x_identity" on table "a" is indexed as "a_x_identity", the
        // identity index of table "a_x".
        let result = try check("""
            {"entities": {
              "A": {"table": "a_x", "identity": "id", "attributes": {"id": "integer"}},
              "B": {"table": "a", "attributes": {"n": "integer"},
                    "relationships": {"x": {"entity": "A", "column": "x_identity"}}}
            }}
            """)
        #expect(result.status == 64, "\(result)")
        #expect(result.stderrLines == [
            #"sluice: error: model.json: entities.B.relationships.x: the index "a_x_identity" of table "a"'s column "#
                + #""x_identity" has the name of the identity index "a_x_identity" of table "a_x" (tables and indexes "#
                + "share one namespace, and SQLite ignores case): rename a table, column or relationship",
        ], "\(result)")
        #expect(result.stdout == "")
    }

    @Test func aTableNamedLikeAJoinTablesIndex() throws {
        let result = try check("""
            {"entities": {
              "P": {"table": "p", "relationships": {"f": {"entity": "P", "toMany": true}}},
              "Q": {"table": "P_F_TARGET_PK", "attributes": {"n": "integer"}}
            }}
            """)
        #expect(result.status == 64, "\(result)")
        #expect(result.stderrLines == [
            #"sluice: error: model.json: entities.Q.table: table "P_F_TARGET_PK" has the name of the index "#
                + #""p_f_target_pk" of join table "p_f" (tables and indexes share one namespace, and SQLite ignores "#
                + "case): rename a table, column or relationship",
        ], "\(result)")
    }

    @Test func aTableNamedLikeAnIdentityIndexComingFirst() throws {
        // The table comes first in the file: the identity index after it is the one reported.
        let result = try check("""
            {"entities": {
              "Z": {"table": "a_identity", "attributes": {"n": "integer"}},
              "A": {"table": "a", "identity": "id", "attributes": {"id": "integer"}}
            }}
            """)
        #expect(result.status == 64, "\(result)")
        #expect(result.stderrLines == [
            #"sluice: error: model.json: entities.A.identity: the identity index "a_identity" of table "a" has the "#
                + #"name of table "a_identity" (tables and indexes share one namespace, and SQLite ignores case): "#
                + "rename a table, column or relationship",
        ], "\(result)")
    }

    @Test func tablesStartingWithSluice() throws {
        let result = try check("""
            {"entities": {
              "T": {"table": "sluice", "attributes": {"n": "integer"}},
              "S": {"table": "Sluice_x", "attributes": {"n": "integer"}}
            }}
            """)
        #expect(result.status == 64, "\(result)")
        #expect(result.stderrLines == [
            #"sluice: error: model.json: entities.S.table: table "Sluice_x" is reserved by Sluice (names starting "#
                + #"with "sluice_" are its own tables)"#,
        ], "\(result)")
    }

    @Test func aToOnesIndexNamedLikeTheImportLog() throws {
        let result = try check("""
            {"entities": {
              "T": {"table": "sluice", "attributes": {"n": "integer"},
                    "relationships": {"log": {"entity": "T", "column": "IMPORTS"}}}
            }}
            """)
        #expect(result.status == 64, "\(result)")
        #expect(result.stderrLines == [
            #"sluice: error: model.json: entities.T.relationships.log: the index "sluice_IMPORTS" of table "#
                + #""sluice"'s column "IMPORTS" has the name of the import log "sluice_imports" (tables and indexes "#
                + "share one namespace, and SQLite ignores case): rename a table, column or relationship",
        ], "\(result)")
    }

    @Test func anIndexNameReservedBySQLite() throws {
        let result = try check("""
            {"entities": {"T": {"table": "SQLite", "identity": "id", "attributes": {"id": "integer"}}}}
            """)
        #expect(result.status == 64, "\(result)")
        #expect(result.stderrLines == [
            #"sluice: error: model.json: entities.T.identity: the identity index "SQLite_identity" of table "SQLite": "#
                + #"a name starting with "sqlite_" is reserved by SQLite: rename the table"#,
        ], "\(result)")
    }

    @Test func namesHoldingNUL() throws {
        let result = try check(#"""
            {"entities": {
              "A\u0000B": {"attributes": {"n": "integer"}},
              "C": {"table": "c\u0000", "attributes": {"n\u0000": "integer", "m": {"type": "string", "column": "m\u0000"}},
                    "relationships": {"r\u0000": {"entity": "C", "toMany": true}}}
            }}
            """#)
        #expect(result.status == 64, "\(result)")
        #expect(result.stderrLines == [
            #"sluice: error: model.json: entities.A\u0000B: an entity name must not contain U+0000: SQL names end at it"#,
            #"sluice: error: model.json: entities.C.table: must not contain U+0000: SQL names end at it"#,
            #"sluice: error: model.json: entities.C.attributes.n\u0000: an attribute name must not contain U+0000: SQL names end at it"#,
            #"sluice: error: model.json: entities.C.attributes.m.column: must not contain U+0000: SQL names end at it"#,
            #"sluice: error: model.json: entities.C.relationships.r\u0000: a relationship name must not contain U+0000: SQL names end at it"#,
        ], "\(result)")
        #expect(!result.stderr.utf8.contains(0))
    }

    @Test func importRefusesWhatCheckRefuses() throws {
        let workspace = Workspace()
        try workspace.write("""
            {"entities": {"T": {"table": "sluice_pending_0", "attributes": {"n": "integer"}}}}
            """, to: "model.json")
        let result = try workspace.sluice("import", "--db", "t.sqlite", "--model", "model.json", "--entity", "T",
                                          stdin: Array("{\"n\": 1}\n".utf8))
        #expect(result.status == 64, "\(result)")
        #expect(result.stderrLines == [
            #"sluice: error: model.json: entities.T.table: table "sluice_pending_0" is reserved by Sluice (names "#
                + #"starting with "sluice_" are its own tables)"#,
        ], "\(result)")
        #expect(!FileManager.default.fileExists(atPath: workspace.file("t.sqlite")))
    }

    // MARK: Aliases in the second pass

    /// Tables named like the aliases the second pass used (`t0`, `T1`, `p`): each batch of one
    /// record leaves its forward references to the second pass.
    @Test(arguments: [("t0", "T1"), ("p", "s"), ("T0", "t")])
    func tablesNamedLikeAliases(people: String, teams: String) throws {
        let workspace = Workspace()
        try workspace.write("""
            {"root": {"people": "Person", "teams": "Team"},
             "entities": {
              "Person": {"table": "\(people)", "identity": "id", "attributes": {"id": "integer"},
                         "relationships": {"team": {"entity": "Team", "key": "team", "relatedBy": "id"}}},
              "Team": {"table": "\(teams)", "identity": "id", "attributes": {"id": "integer"},
                       "relationships": {"lead": {"entity": "Person", "key": "lead", "relatedBy": "id"}}}
             }}
            """, to: "model.json")
        let first = #"{"people": [{"id": 1, "team": 10}, {"id": 2, "team": 11}], "teams": [{"id": 10, "lead": 2}, {"id": 11, "lead": 1}]}"#
        let second = #"{"people": [{"id": 1, "team": 20}], "teams": [{"id": 20, "lead": 1}]}"#
        for input in [first, second] {
            let result = try workspace.sluice("import", "--db", "t.sqlite", "--model", "model.json", "--batch-size", "1",
                                              "--quiet", stdin: Array(input.utf8))
            #expect(result.status == 0, "\(result)")
            #expect(result.stderr == "", "\(result)")
        }
        let database = try workspace.database("t.sqlite")
        #expect(try database.rows("SELECT p.\"id\", t.\"id\" FROM \"\(people)\" p JOIN \"\(teams)\" t ON t.\"pk\" = p.\"team_pk\" ORDER BY 1")
            == [[.integer(1), .integer(20)], [.integer(2), .integer(11)]])
        #expect(try database.rows("SELECT t.\"id\", p.\"id\" FROM \"\(teams)\" t JOIN \"\(people)\" p ON p.\"pk\" = t.\"lead_pk\" ORDER BY 1")
            == [[.integer(10), .integer(2)], [.integer(11), .integer(1)], [.integer(20), .integer(1)]])
    }

    /// A to-one of an entity to itself whose id is a column of its own rows: the subquery that
    /// finds the target named the table unaliased, so the source's column meant the target's
    /// own, and every link waiting for the second pass stayed empty (exit 0, 0 links).
    @Test func aToOneToItsOwnEntityLinkedInTheSecondPass() throws {
        let workspace = Workspace()
        try workspace.write("""
            {"entities": {"Person": {"table": "people", "identity": "id", "attributes": {"id": "integer", "boss": "integer"},
              "relationships": {"bossLink": {"entity": "Person", "key": "boss", "relatedBy": "id"}}}}}
            """, to: "model.json")
        let result = try workspace.sluice("import", "--db", "t.sqlite", "--model", "model.json", "--entity", "Person",
                                          "--batch-size", "1", stdin: Array("{\"id\":1,\"boss\":2}\n{\"id\":2,\"boss\":3}\n{\"id\":3}\n".utf8))
        #expect(result.status == 0, "\(result)")
        #expect(try workspace.database("t.sqlite").rows(
            "SELECT p.\"id\", b.\"id\" FROM \"people\" p LEFT JOIN \"people\" b ON b.\"pk\" = p.\"bossLink_pk\" ORDER BY 1")
            == [[.integer(1), .integer(2)], [.integer(2), .integer(3)], [.integer(3), .null]])
    }
}
