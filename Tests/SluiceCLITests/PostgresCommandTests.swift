import Foundation
import SluiceTestSupport
import Testing
@testable import Sluice

/// `sluice import --db postgresql://…` end to end against the test process's own server
/// (`PostgresServer`): connection forms and their errors, the transit example, a re-import
/// that writes nothing, `--schema`, and all or nothing under `kill -9`.
@Suite(.enabled(if: PostgresServer.isAvailable, "no PostgreSQL server binaries (initdb, pg_ctl) on this machine"))
struct PostgresCommandTests {
    let workspace = Workspace()

    private func server() throws -> PostgresServer {
        try PostgresServer.started()
    }

    private func transitImport(_ target: String, _ extra: [String] = [], environment: [String: String] = [:]) throws -> SluiceResult {
        try workspace.sluice(["import", "--db", target, "--model", PackageFiles.path(Fixtures.transitModel)] + extra,
                             stdin: PackageFiles.bytes(Fixtures.transitSample), environment: environment)
    }

    @Test func transitExampleThroughStandardInput() throws {
        let server = try server()
        let database = try server.makeDatabase()
        let result = try transitImport(server.uri(database))
        #expect(result.status == 0, "\(result)")
        #expect(result.entityLines.last == "total: inserted 155, updated 0, unchanged 0, rejected 0, links 192, unresolved 0")
        #expect(try server.rows(database, #"SELECT count(*) FROM "stop_times" WHERE "trip_pk" IS NULL OR "stop_pk" IS NULL"#) == ["0"])
        #expect(try server.rows(database, #"SELECT t."headsign", r."routeID" FROM "trips" t JOIN "routes" r ON r."pk" = t."route_pk" ORDER BY 1 LIMIT 1"#)
            == ["South Ferry|1"])
        #expect(try server.rows(database, #"SELECT "records", "inserted", "sources" FROM "sluice_imports""#) == ["155|155|<stdin>"])
        // PostgreSQL's own types, and the indexes of docs/database-layout.md.
        #expect(try server.rows(database, """
            SELECT column_name || ' ' || data_type FROM information_schema.columns
            WHERE table_name = 'trips' ORDER BY ordinal_position
            """) == ["pk bigint", "tripID text", "headsign text", "route_pk bigint"])
        #expect(try server.rows(database, "SELECT indexname FROM pg_indexes WHERE tablename = 'trips' ORDER BY 1")
            == ["trips_identity", "trips_pkey", "trips_route_pk"])
    }

    @Test func reimportWritesNothing() throws {
        let server = try server()
        let database = try server.makeDatabase()
        #expect(try transitImport(server.uri(database)).status == 0)
        // A trigger on every table counts the rows any statement writes.
        try server.psql(database, """
            CREATE TABLE writes (n integer);
            CREATE FUNCTION count_write() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN INSERT INTO writes VALUES (1); RETURN NULL; END $$;
            CREATE TRIGGER w AFTER INSERT OR UPDATE OR DELETE ON stops FOR EACH ROW EXECUTE FUNCTION count_write();
            CREATE TRIGGER w AFTER INSERT OR UPDATE OR DELETE ON routes FOR EACH ROW EXECUTE FUNCTION count_write();
            CREATE TRIGGER w AFTER INSERT OR UPDATE OR DELETE ON trips FOR EACH ROW EXECUTE FUNCTION count_write();
            CREATE TRIGGER w AFTER INSERT OR UPDATE OR DELETE ON stop_times FOR EACH ROW EXECUTE FUNCTION count_write();
            """)
        let second = try transitImport(server.uri(database))
        #expect(second.status == 0, "\(second)")
        #expect(second.entityLines.last == "total: inserted 0, updated 0, unchanged 155, rejected 0, links 0, unresolved 0")
        #expect(try server.rows(database, "SELECT count(*) FROM writes") == ["0"])
        #expect(try server.rows(database, #"SELECT count(*) FROM "sluice_imports""#) == ["2"])
    }

    /// The 76 stop times come before their trips and stops (4 records a batch: none shares a
    /// batch with a trip or a stop): both to-ones wait, and the second pass links them in one
    /// statement that writes each row once.
    @Test func theSecondPassWritesEachRowOnce() throws {
        let server = try server()
        let database = try server.makeDatabase()
        #expect(try workspace.sluice(["import", "--db", server.uri(database), "--model", PackageFiles.path(Fixtures.transitModel)],
                                     stdin: Array("{}".utf8)).status == 0)
        try server.psql(database, """
            CREATE TABLE writes (n integer);
            CREATE FUNCTION count_write() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN INSERT INTO writes VALUES (1); RETURN NULL; END $$;
            CREATE TRIGGER w AFTER UPDATE ON stop_times FOR EACH ROW EXECUTE FUNCTION count_write();
            """)
        let result = try transitImport(server.uri(database), ["--batch-size", "4"])
        #expect(result.entityLines.last == "total: inserted 155, updated 0, unchanged 0, rejected 0, links 192, unresolved 0", "\(result)")
        #expect(try server.rows(database, #"SELECT count(*) FROM "stop_times" WHERE "trip_pk" IS NULL OR "stop_pk" IS NULL"#) == ["0"])
        #expect(try server.rows(database, "SELECT count(*) FROM writes") == ["76"], "\(result)")
    }

    /// A batch makes an ordered to-many's links (stored by the inverse, and in a join table)
    /// in three statements per table, however many records and links: the links no longer
    /// listed go, the new ones come with their places, the others take theirs. A statement
    /// trigger counts them.
    @Test func aBatchMakesAToManysLinksInAFewStatements() throws {
        let server = try server()
        let database = try server.makeDatabase()
        try workspace.write(StoreScenarioTests.orderedModel, to: "model.json")
        func load(_ input: String) throws -> SluiceResult {
            try workspace.sluice(["import", "--db", server.uri(database), "--model", "model.json"], stdin: Array(input.utf8))
        }
        let targets = #"{"tracks": [{"id": "t1"}, {"id": "t2"}, {"id": "t3"}, {"id": "t4"}], "tags": [{"id": "live"}, {"id": "rock"}]}"#
        #expect(try load(targets).status == 0)
        try server.psql(database, """
            CREATE TABLE statements (name text);
            CREATE FUNCTION count_statement() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN INSERT INTO statements VALUES (TG_TABLE_NAME || ' ' || TG_OP); RETURN NULL; END $$;
            CREATE TRIGGER s AFTER UPDATE ON "Track" FOR EACH STATEMENT EXECUTE FUNCTION count_statement();
            CREATE TRIGGER s AFTER INSERT OR UPDATE OR DELETE ON "Album_tags" FOR EACH STATEMENT EXECUTE FUNCTION count_statement();
            """)
        let counted = #"SELECT name || ' ' || count(*) FROM statements GROUP BY name ORDER BY name"#
        let lists = """
            {"albums": [{"id": "a1", "tracks": ["t1", "t2"], "tags": ["rock", "live"]},
                        {"id": "a2", "tracks": ["t3", "t4"], "tags": ["live"]}]}
            """
        let first = try load(lists)
        #expect(first.entityLines.last == "total: inserted 2, updated 0, unchanged 0, rejected 0, links 7, unresolved 0", "\(first)")
        #expect(try server.rows(database, StoreScenarioTests.orderedTracks) == ["a1|t1|0", "a1|t2|1", "a2|t3|0", "a2|t4|1"])
        #expect(try server.rows(database, StoreScenarioTests.orderedTags) == ["a1|rock|0", "a1|live|1", "a2|live|0"])
        #expect(try server.rows(database, counted)
            == ["Album_tags DELETE 1", "Album_tags INSERT 1", "Album_tags UPDATE 1", "Track UPDATE 3"])

        // t4 moves to a1, t2 is no longer listed, a1's tags swap.
        try server.psql(database, "DELETE FROM statements")
        let moved = """
            {"albums": [{"id": "a1", "tracks": ["t4", "t1"], "tags": ["live", "rock"]},
                        {"id": "a2", "tracks": ["t3"], "tags": ["live"]}]}
            """
        let second = try load(moved)
        #expect(second.entityLines.last == "total: inserted 0, updated 0, unchanged 2, rejected 0, links 6, unresolved 0", "\(second)")
        #expect(try server.rows(database, StoreScenarioTests.orderedTracks) == ["a1|t4|0", "a1|t1|1", "a2|t3|0"])
        #expect(try server.rows(database, #"SELECT "album_pk", "album_position" FROM "Track" WHERE "trackID" = 't2'"#) == ["|"])
        #expect(try server.rows(database, StoreScenarioTests.orderedTags) == ["a1|live|0", "a1|rock|1", "a2|live|0"])
        #expect(try server.rows(database, counted)
            == ["Album_tags DELETE 1", "Album_tags INSERT 1", "Album_tags UPDATE 1", "Track UPDATE 3"])
    }

    @Test func everyConnectionForm() throws {
        let server = try server()
        let database = try server.makeDatabase()
        // A Unix socket named in the URI, TCP, the postgres:// scheme, and the local socket
        // with host and port from libpq's environment variables.
        #expect(try transitImport(server.uri(database)).status == 0)
        #expect(try transitImport(server.tcpURI(database)).status == 0)
        #expect(try transitImport(server.tcpURI(database).replacing("postgresql://", with: "postgres://")).status == 0)
        let environment = ["PGHOST": server.folder, "PGPORT": String(server.port), "PGUSER": "sluice"]
        #expect(try transitImport("postgresql:///\(database)", environment: environment).status == 0)
        #expect(try server.rows(database, #"SELECT count(*) FROM "sluice_imports""#) == ["4"])
    }

    @Test func passwordsFromTheURIThePasswordFileAndTheEnvironment() throws {
        let server = try server()
        let database = try server.makeDatabase()
        try server.psql(database, "GRANT ALL ON SCHEMA public TO secret")
        let withPassword = try transitImport(server.tcpURI(database, user: "secret", password: "hunter2"))
        #expect(withPassword.status == 0, "\(withPassword)")
        #expect(!withPassword.stderr.contains("hunter2"))
        let fromEnvironment = try transitImport(server.tcpURI(database, user: "secret"), environment: ["PGPASSWORD": "hunter2"])
        #expect(fromEnvironment.status == 0, "\(fromEnvironment)")
        let passFile = workspace.file("pgpass")
        try workspace.writeFile(Array("127.0.0.1:\(server.port):*:secret:hunter2\n".utf8), named: "pgpass")
        chmod(passFile, 0o600)
        let fromFile = try transitImport(server.tcpURI(database, user: "secret"), environment: ["PGPASSFILE": passFile])
        #expect(fromFile.status == 0, "\(fromFile)")
    }

    @Test func badCredentialsAreOneLineWithoutThePassword() throws {
        let server = try server()
        let database = try server.makeDatabase()
        let uri = server.tcpURI(database, user: "secret", password: "wrong-s3cret")
        let result = try transitImport(uri)
        #expect(result.status == 73, "\(result)")
        #expect(result.stderrLines.count == 1, "\(result)")
        let name = "postgresql://secret:***@127.0.0.1:\(server.port)/\(database)"
        #expect(result.stderrLines.first?.hasPrefix("sluice: error: cannot connect to database '\(name)': ") == true, "\(result)")
        #expect(result.stderr.contains("password authentication failed for user \"secret\""), "\(result)")
        #expect(!result.stderr.contains("wrong-s3cret"))
    }

    @Test func unreachableServerAndBadURI() throws {
        let unreachable = try transitImport("postgresql://sluice:pw@127.0.0.1:1/nowhere")
        #expect(unreachable.status == 73, "\(unreachable)")
        #expect(unreachable.stderrLines.count == 1, "\(unreachable)")
        #expect(unreachable.stderrLines.first?.hasPrefix(
            "sluice: error: cannot connect to database 'postgresql://sluice:***@127.0.0.1:1/nowhere': ") == true, "\(unreachable)")
        #expect(unreachable.stderr.contains("Connection refused"), "\(unreachable)")
        #expect(!unreachable.stderr.contains(":pw@"))

        let bad = try transitImport("postgresql://sluice@127.0.0.1:notaport/x")
        #expect(bad.status == 73, "\(bad)")
        #expect(bad.stderrLines.count == 1, "\(bad)")
        #expect(bad.stderr.contains("invalid"), "\(bad)")
    }

    @Test func schemaOptionCreatesAndFillsTheSchema() throws {
        let server = try server()
        let database = try server.makeDatabase()
        let result = try transitImport(server.uri(database), ["--schema", "Transit Data"])
        #expect(result.status == 0, "\(result)")
        #expect(try server.rows(database, #"SELECT count(*) FROM "Transit Data"."stops""#) == ["76"])
        #expect(try server.rows(database, "SELECT count(*) FROM pg_tables WHERE schemaname = 'public'") == ["0"])
    }

    @Test func killedImportLeavesTheServerAsItWas() throws {
        let server = try server()
        let database = try server.makeDatabase()
        #expect(try transitImport(server.uri(database)).status == 0)
        let before = try server.rows(database, #"SELECT count(*), sum("pk") FROM "stop_times""#)
        // Many stop times, fed slowly through a pipe: the import is under way when it dies.
        var records = ""
        for index in 0..<20_000 {
            records += #"{"trip_id": "T\#(index % 50)", "stop_id": "S\#(index % 300)", "stop_sequence": \#(index)}"# + "\n"
        }
        let model = try workspace.write("""
            {"root": "StopTime", "entities": {
              "StopTime": {"table": "stop_times", "identity": ["tripID", "sequence"],
                "attributes": {"tripID": {"type": "string", "key": "trip_id"}, "sequence": {"type": "integer", "key": "stop_sequence"}},
                "relationships": {"stop": {"entity": "Stop", "key": "stop_id"}}},
              "Stop": {"table": "stops", "identity": "stopID", "attributes": {"stopID": {"type": "string", "key": "stop_id"}}}}}
            """, to: "model.json")
        let process = Process()
        process.executableURL = SluiceRunner.executable
        process.arguments = ["import", "--db", server.uri(database), "--model", workspace.file(model), "--batch-size", "100"]
        let input = Pipe()
        process.standardInput = input
        process.standardError = FileHandle.nullDevice
        try process.run()
        let bytes = Array(records.utf8)
        signal(SIGPIPE, SIG_IGN)
        try input.fileHandleForWriting.write(contentsOf: Data(bytes[..<(bytes.count / 2)]))
        // Batches are being written (rows COPYed in the open transaction) when it is killed.
        try Self.waitUntil(server, database, "SELECT count(*) FROM pg_stat_activity WHERE datname = '\(database)' AND xact_start IS NOT NULL")
        usleep(300_000)
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        try? input.fileHandleForWriting.close()
        // The server notices the lost connection and rolls the transaction back.
        var after: [String] = []
        for _ in 0..<100 {
            after = try server.rows(database, #"SELECT count(*), sum("pk") FROM "stop_times""#)
            if after == before { break }
            usleep(50_000)
        }
        #expect(after == before)
        #expect(try server.rows(database, #"SELECT count(*) FROM "sluice_imports""#) == ["1"])
        // And the next import goes ahead (the lock went with the killed connection).
        #expect(try transitImport(server.uri(database)).status == 0)
    }

    @Test func aLostConnectionIsOneLineAndExit74() throws {
        let server = try server()
        let database = try server.makeDatabase()
        let (process, input, errors) = try Self.startTransitImport(server.uri(database))
        // The import's transaction is open (its advisory lock held) when its backend is ended.
        try Self.waitForAnImportsLock(server, database)
        try server.psql(database, "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '\(database)' AND pid <> pg_backend_pid()")
        // The import may be gone already: a write to its pipe must fail, not kill the tests.
        signal(SIGPIPE, SIG_IGN)
        try? input.fileHandleForWriting.write(contentsOf: Data(PackageFiles.bytes(Fixtures.transitSample)))
        try? input.fileHandleForWriting.close()
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 74, "\(stderr)")
        let lines = stderr.split(separator: "\n").map(String.init)
        #expect(lines.count == 1, "\(stderr)")
        #expect(lines.first?.hasPrefix("sluice: error: lost the connection to database '\(server.uri(database))'") == true, "\(stderr)")
        #expect(try server.rows(database, "SELECT count(*) FROM pg_tables WHERE schemaname = 'public'") == ["0"])
    }

    @Test func interruptedImportRollsBack() throws {
        let server = try server()
        let database = try server.makeDatabase()
        let (process, input, errors) = try Self.startTransitImport(server.uri(database))
        signal(SIGPIPE, SIG_IGN)
        // Some batches are written; then the import waits for more input and gets Ctrl-C.
        let sample = try PackageFiles.bytes(Fixtures.transitSample)
        try input.fileHandleForWriting.write(contentsOf: Data(sample[..<(sample.count / 2)]))
        try Self.waitForAnImportsLock(server, database)
        usleep(300_000)
        kill(process.processIdentifier, SIGINT)
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        try? input.fileHandleForWriting.close()
        #expect(process.terminationStatus == 130, "\(stderr)")
        #expect(stderr.hasSuffix("sluice: error: import into database '\(server.uri(database))' interrupted: nothing was written\n"), "\(stderr)")
        #expect(try server.rows(database, "SELECT count(*) FROM pg_tables WHERE schemaname = 'public'") == ["0"])
    }

    @Test func aSecondImportWaitsForTheFirst() throws {
        let server = try server()
        let database = try server.makeDatabase()
        #expect(try transitImport(server.uri(database)).status == 0)
        // The first import holds its transaction open while its standard input stays open.
        let first = Process()
        first.executableURL = SluiceRunner.executable
        first.arguments = ["import", "--db", server.uri(database), "--model", PackageFiles.path(Fixtures.transitModel), "--quiet"]
        let input = Pipe()
        first.standardInput = input
        try first.run()
        try Self.waitForAnImportsLock(server, database)
        let started = Date()
        let holder = DispatchQueue(label: "first import")
        holder.asyncAfter(deadline: .now() + 1.5) {
            try? input.fileHandleForWriting.write(contentsOf: Data(try! PackageFiles.bytes(Fixtures.transitSample)))
            try? input.fileHandleForWriting.close()
        }
        let second = try transitImport(server.uri(database))
        #expect(second.status == 0, "\(second)")
        #expect(Date().timeIntervalSince(started) >= 1.4, "the second import did not wait")
        first.waitUntilExit()
        #expect(first.terminationStatus == 0)
        #expect(try server.rows(database, #"SELECT count(*) FROM "sluice_imports""#) == ["3"])
    }

    /// Waits (at most 60 s) until an import into `database` holds its advisory lock. Only that
    /// database's locks count: the suites run in parallel, each import in a database of its own.
    private static func waitForAnImportsLock(_ server: PostgresServer, _ database: String) throws {
        try waitUntil(server, database, """
            SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted
              AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
            """)
    }

    /// Waits (at most 60 s) until `countQuery` counts something. A failed query (a busy
    /// machine) means "not yet": a test must not go on before the import has begun.
    private static func waitUntil(_ server: PostgresServer, _ database: String, _ countQuery: String) throws {
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            if let count = try? server.rows(database, countQuery), count != ["0"] { return }
            usleep(20_000)
        }
        Issue.record("waited 60 s for: \(countQuery)")
        throw CancellationError()
    }

    /// Starts `sluice import` of the transit model into `uri`, 10 records a batch, its standard
    /// input and error on pipes the test holds (the import waits for input until it is closed).
    private static func startTransitImport(_ uri: String) throws -> (Process, input: Pipe, errors: Pipe) {
        let process = Process()
        process.executableURL = SluiceRunner.executable
        process.arguments = ["import", "--db", uri, "--model", PackageFiles.path(Fixtures.transitModel), "--batch-size", "10"]
        let input = Pipe()
        let errors = Pipe()
        process.standardInput = input
        process.standardError = errors
        try process.run()
        return (process, input, errors)
    }
}
