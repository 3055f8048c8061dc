import Foundation
import SluiceTestSupport
import Testing
@testable import Sluice

/// An existing database made with another identity is refused before any write, with what
/// differs and the SQL that makes it fit (`docs/database-layout.md`, existing databases).
@Suite struct ChangedIdentityTests {
    private let orders = #"[{"id": 1, "number": "A-1", "total": 2.5}, {"id": 2, "number": "A-2", "total": 3}]"#

    private func model(identity: String?, in workspace: Workspace) throws -> String {
        let identityField = identity.map { #""identity": ["\#($0)"], "# } ?? ""
        return try workspace.write(#"""
            {"entities": {"Order": {"table": "orders", \#(identityField)"attributes": {"id": "integer", "number": "string", "total": "double"}}}}
            """#, to: "model-\(identity ?? "none").json")
    }

    @Test func aChangedIdentityIsRefusedWithTheSQLThatMigrates() throws {
        let workspace = Workspace()
        let first = try workspace.sluice("import", "--db", "o.sqlite", "--model", model(identity: "id", in: workspace),
                                         stdin: Array(orders.utf8))
        try #require(first.status == 0, "\(first)")
        let changed = try model(identity: "number", in: workspace)
        let result = try workspace.sluice("import", "--db", "o.sqlite", "--model", changed, stdin: Array(orders.utf8))
        #expect(result.status == 73, "\(result)")
        #expect(result.stderrLines == [
            #"sluice: error: database 'o.sqlite' does not fit the model: table "orders" has the identity ("id"), "#
                + #"the model's is ("number") (its unique index "orders_identity"); import into a new database, or make "#
                + #"the table fit the model first: DROP INDEX "orders_identity"; CREATE UNIQUE INDEX "orders_identity" ON "orders" ("number");"#,
        ], "\(result)")
        #expect(try workspace.database("o.sqlite").count("orders") == 2)

        // The SQL it gives makes the table fit: the import then finds every row by its new identity.
        let connection = try Connection(path: workspace.file("o.sqlite"), mode: .readWrite)
        try connection.execute(#"DROP INDEX "orders_identity""#)
        try connection.execute(#"CREATE UNIQUE INDEX "orders_identity" ON "orders"("number")"#)
        let migrated = try workspace.sluice("import", "--db", "o.sqlite", "--model", changed, stdin: Array(orders.utf8))
        #expect(migrated.status == 0, "\(migrated)")
        #expect(migrated.entityLines == ["Order: inserted 0, updated 0, unchanged 2, rejected 0"], "\(migrated)")
    }

    @Test func aRemovedIdentityIsRefusedBeforeAnyRowClashes() throws {
        let workspace = Workspace()
        let first = try workspace.sluice("import", "--db", "o.sqlite", "--model", model(identity: "id", in: workspace),
                                         stdin: Array(orders.utf8))
        try #require(first.status == 0, "\(first)")
        let result = try workspace.sluice("import", "--db", "o.sqlite", "--model", model(identity: nil, in: workspace),
                                          stdin: Array(orders.utf8))
        #expect(result.status == 73, "\(result)")
        #expect(result.stderrLines == [
            #"sluice: error: database 'o.sqlite' does not fit the model: table "orders" has the identity ("id"), "#
                + #"the model has none (its unique index "orders_identity"); import into a new database, or make "#
                + #"the table fit the model first: DROP INDEX "orders_identity";"#,
        ], "\(result)")
    }
}

/// The same refusal on PostgreSQL.
@Suite(.enabled(if: PostgresServer.isAvailable, "no PostgreSQL server binaries (initdb, pg_ctl) on this machine"))
struct PostgresChangedIdentityTests {
    @Test func aChangedIdentityIsRefusedWithTheSQLThatMigrates() throws {
        let workspace = Workspace()
        let server = try PostgresServer.started()
        let database = try server.makeDatabase()
        let uri = server.uri(database)
        let orders = Array(#"[{"id": 1, "number": "A-1"}, {"id": 2, "number": "A-2"}]"#.utf8)
        func model(_ identity: String) throws -> String {
            try workspace.write(#"""
                {"entities": {"Order": {"table": "orders", "identity": ["\#(identity)"], "attributes": {"id": "integer", "number": "string"}}}}
                """#, to: "model-\(identity).json")
        }
        let first = try workspace.sluice("import", "--db", uri, "--model", model("id"), stdin: orders)
        try #require(first.status == 0, "\(first)")
        let result = try workspace.sluice("import", "--db", uri, "--model", model("number"), stdin: orders)
        #expect(result.status == 73, "\(result)")
        #expect(result.stderrLines.count == 1, "\(result)")
        #expect(result.stderr.hasSuffix(#"does not fit the model: table "orders" has the identity ("id"), "#
            + #"the model's is ("number") (its unique index "orders_identity"); import into a new database, or make "#
            + #"the table fit the model first: DROP INDEX "orders_identity"; CREATE UNIQUE INDEX "orders_identity" ON "orders" ("number");"# + "\n"),
            "\(result)")
        #expect(try server.rows(database, #"SELECT count(*) FROM "orders""#) == ["2"])
    }
}
