import Foundation
import SluiceTestSupport
import Testing
@testable import Sluice

/// Ctrl-C and SIGTERM while an import into PostgreSQL waits on one long statement: the
/// statement is cancelled on the server at once, the import rolls back, exit 130.
@Suite(.enabled(if: PostgresServer.isAvailable, "no PostgreSQL server binaries (initdb, pg_ctl) on this machine"))
struct PostgresInterruptionTests {
    let workspace = Workspace()

    /// The transit model's tables made beforehand, with a statement trigger on `stops` that
    /// sleeps two minutes: the `COPY` of the stops becomes one statement that long.
    @Test(arguments: [SIGINT, SIGTERM])
    func aLongStatementIsCancelledAndRolledBack(_ signal: Int32) throws {
        let server = try PostgresServer.started()
        let database = try server.makeDatabase()
        let model = PackageFiles.path(Fixtures.transitModel)
        let ddl = try workspace.sluice("schema", "--model", model, "--dialect", "postgresql")
        try #require(ddl.status == 0, "\(ddl)")
        try server.psql(database, ddl.stdout)
        try server.psql(database, """
            CREATE FUNCTION slow() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN PERFORM pg_sleep(120); RETURN NULL; END $$;
            CREATE TRIGGER slow AFTER INSERT ON stops FOR EACH STATEMENT EXECUTE FUNCTION slow();
            """)

        let process = Process()
        process.executableURL = SluiceRunner.executable
        process.arguments = ["import", "--db", server.uri(database), "--model", model, "--quiet", PackageFiles.path(Fixtures.transitSample)]
        let errors = Pipe()
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Inside the sleeping statement: the server says so.
        let deadline = Date().addingTimeInterval(60)
        var sleeping = false
        while Date() < deadline, !sleeping {
            sleeping = (try? server.rows(database, """
                SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event = 'PgSleep'
                """)) == ["1"]
            if !sleeping { usleep(20_000) }
        }
        try #require(sleeping, "the import never reached the long statement")
        let signalled = Date()
        kill(process.processIdentifier, signal)
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        // Without the cancel it would wait the trigger's two minutes.
        #expect(Date().timeIntervalSince(signalled) < 20, "took \(Date().timeIntervalSince(signalled)) s")
        #expect(process.terminationStatus == 130, "\(stderr)")
        #expect(stderr.hasSuffix("sluice: error: import into database '\(server.uri(database))' interrupted: nothing was written\n"), "\(stderr)")
        #expect(try server.rows(database, "SELECT (SELECT count(*) FROM stops) + (SELECT count(*) FROM sluice_imports)") == ["0"])
        // The server is not still sleeping on the import's behalf.
        #expect(try server.rows(database, "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event = 'PgSleep'")
            == ["0"])
    }
}
