import Foundation
import Testing
@testable import Sluice

/// What a PostgreSQL `--db` is refused for before any server is asked, each in a line of
/// Sluice's own (`docs/postgresql.md`): no server runs for these.
@Suite struct PostgresRefusedBeforeConnectingTests {
    /// A schema name PostgreSQL keeps for itself: exit 64 before connecting (no server listens
    /// on port 1), not the server's "unacceptable schema name".
    @Test(arguments: ["pg_x", "pg_catalog"])
    func aSchemaNamePostgreSQLReservesIsAUsageError(_ schema: String) throws {
        let workspace = Workspace()

        let result = try workspace.sluice(["import", "--db", "postgresql://me@127.0.0.1:1/db", "--schema", schema, "-"],
                                          stdin: Array(#"{"a": 1}"#.utf8))

        #expect(result.status == 64, "\(result)")
        #expect(result.stderrLines == ["sluice: error: the schema name (--schema) \"\(schema)\" begins with pg_, which PostgreSQL "
            + "keeps for its system schemas"], "\(result)")
    }

    /// A password of one or two characters that libpq echoes (here taken for a port, as a
    /// password holding `/` is) is masked too: no part of a password is ever printed.
    @Test(arguments: [("a/b", "a"), ("x/yz", "x"), ("p/q", "p")])
    func aShortPasswordIsNeverPrinted(_ password: String, _ echoed: String) throws {
        let workspace = Workspace()

        let result = try workspace.sluice(["import", "--db", "postgresql://me:\(password)@localhost/db", "-"], stdin: [])

        #expect(result.status == 73, "\(result)")
        #expect(result.stderrLines == ["sluice: error: cannot connect to database 'postgresql://me:***@localhost/db': "
            + "invalid integer value \"***\" for connection option \"port\""], "\(result)")
        #expect(!result.stderr.contains("\"\(echoed)\""), "\(result)")
    }
}
