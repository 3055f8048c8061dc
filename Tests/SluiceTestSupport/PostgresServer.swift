import Foundation
import Testing

/// A throwaway PostgreSQL server for the tests: a cluster made with `initdb` in a temporary
/// folder, listening on 127.0.0.1 at a free port and on a Unix socket in that folder, with
/// `trust` authentication for the superuser `sluice` (and `password` authentication for the
/// user `secret`, password `hunter2`, to test credentials). Started once per test process, the
/// first time a test asks for it (`shared`), shared by every suite, and stopped (its folder
/// deleted) when the process exits.
///
/// PostgreSQL refuses to run as root: as root, the cluster is made and run as the `postgres`
/// user (which the server package creates), through `runuser`. Where no server binaries exist,
/// `isAvailable` is false and every test that asks for the server (`started()`) is reported as
/// skipped, with the reason: a test or a store argument never vanishes silently.
public final class PostgresServer: @unchecked Sendable {
    /// The folder of `initdb`, `pg_ctl`, `postgres` and `psql`: `$SLUICE_PG_BIN` alone when it
    /// is set (`SLUICE_PG_BIN=none swift test` shows what a machine without a server skips),
    /// else the first of Debian's and Homebrew's usual places that holds them.
    public static let binaries: String? = {
        let candidates = ProcessInfo.processInfo.environment["SLUICE_PG_BIN"].map { [$0] }
            ?? ["/usr/lib/postgresql/15/bin", "/usr/lib/postgresql/16/bin", "/usr/lib/postgresql/17/bin",
                "/opt/homebrew/opt/postgresql@15/bin", "/usr/local/opt/postgresql@15/bin"]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0 + "/initdb") }
    }()

    public static var isAvailable: Bool { binaries != nil }

    /// The server, started on first use; nil when it could not start (`startFailure` says why).
    public static let shared: PostgresServer? = {
        do {
            let server = try PostgresServer()
            running = server
            atexit { PostgresServer.running?.stop() }
            return server
        } catch {
            startFailure = "\(error)"
            return nil
        }
    }()

    nonisolated(unsafe) public private(set) static var startFailure: String?

    /// The shared server, or the reason it did not start. Without server binaries the calling
    /// test (or test case, for one argument of a parameterised test) records a warning saying
    /// it is skipped (the console shows warnings; a cancelled case alone prints as passed) and
    /// is cancelled; a server that fails to start is a failure.
    public static func started() throws -> PostgresServer {
        if !isAvailable {
            let reason: Comment = "skipped: no PostgreSQL server binaries (initdb, pg_ctl) on this machine; scripts/install-deps installs them"
            Issue.record(reason, severity: .warning)
            try Test.cancel(reason)
        }
        guard let shared else { throw Failure("PostgreSQL did not start: \(startFailure ?? "?")") }
        return shared
    }
    nonisolated(unsafe) private static var running: PostgresServer?

    /// The cluster's folder; its socket is `folder/.s.PGSQL.<port>`.
    public let folder: String
    public let port: Int
    private let binaries: String
    /// `runuser -u postgres --` when running as root, else nothing.
    private let runAs: [String]
    private let lock = NSLock()
    private var databases = 0

    private init() throws {
        guard let binaries = Self.binaries else { throw Failure("no PostgreSQL server binaries") }
        self.binaries = binaries
        var template = Array((NSTemporaryDirectory() + "sluice-pg-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else { throw Failure("mkdtemp failed: \(errno)") }
        folder = String(cString: made)
        runAs = getuid() == 0 ? ["/usr/sbin/runuser", "-u", "postgres", "--"] : []
        if getuid() == 0 {
            guard let user = getpwnam("postgres") else { throw Failure("running as root, and there is no user postgres") }
            chown(folder, user.pointee.pw_uid, user.pointee.pw_gid)
        }
        chmod(folder, 0o700)
        try Self.run(runAs + [binaries + "/initdb", "-D", folder + "/data", "-A", "trust", "-U", "sluice", "-E", "UTF8",
                              "--no-locale", "--no-sync"], timeout: 120)
        // Password authentication for TCP connections of the user `secret`, trust for the rest.
        let hba = "host all secret 127.0.0.1/32 scram-sha-256\nhost all all 127.0.0.1/32 trust\nlocal all all trust\n"
        try Self.run(runAs + ["/bin/sh", "-c", "printf '%s' \"$1\" > \"$2\"", "sh", hba, folder + "/data/pg_hba.conf"], timeout: 10)
        var port = 0
        for _ in 0..<5 {
            let candidate = Int.random(in: 20_000..<60_000)
            // Through Python, which closes every descriptor but 0–2 and then runs `pg_ctl`: the
            // server must not inherit this process's pipes (a test waiting for a pipe's end
            // would wait forever, and Foundation's `Process` would take `pg_ctl` for running as
            // long as the server runs). `sh` cannot close descriptors above 9.
            let closing = "import os, sys; os.closerange(3, 65536); os.execv(sys.argv[1], sys.argv[1:])"
            let options = "-p \(candidate) -k \(folder) -c listen_addresses=127.0.0.1 -c fsync=off "
                + "-c synchronous_commit=off -c full_page_writes=off -c max_connections=60"
            let process = Process()
            process.executableURL = URL(fileURLWithPath: runAs.first ?? "/usr/bin/env")
            process.arguments = Array(runAs.dropFirst()) + ["python3", "-c", closing, binaries + "/pg_ctl",
                                                            "-D", folder + "/data", "-l", folder + "/log", "-o", options, "start"]
            process.standardInput = FileHandle.nullDevice
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            // Ready once it answers; a port taken by another program makes it exit instead.
            let deadline = Date().addingTimeInterval(60)
            while Date() < deadline {
                if (try? Self.run([binaries + "/psql", "-X", "-At", "postgresql://sluice@/postgres?host=\(folder)&port=\(candidate)",
                                   "-c", "SELECT 1"], timeout: 10)) != nil {
                    port = candidate
                    break
                }
                // A FATAL line other than a connection refused while the server starts up
                // (which psql's first tries may cause) means it will not start on this port.
                if let log = try? String(contentsOfFile: folder + "/log", encoding: .utf8),
                   log.split(separator: "\n").contains(where: { $0.contains("FATAL") && !$0.contains("starting up") }) { break }
                usleep(100_000)
            }
            if port != 0 { break }
        }
        guard port != 0 else {
            let log = (try? String(contentsOfFile: folder + "/log", encoding: .utf8)) ?? ""
            throw Failure("the server did not start: \(log.suffix(500))")
        }
        self.port = port
        try psql("postgres", "CREATE ROLE secret LOGIN PASSWORD 'hunter2'")
    }

    /// Stops the server at once and deletes its folder.
    public func stop() {
        _ = try? Self.run(runAs + [binaries + "/pg_ctl", "-D", folder + "/data", "-m", "immediate", "-w", "stop"], timeout: 30, capturing: false)
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// A URI of `database` through the Unix socket of the server's folder.
    public func uri(_ database: String, user: String = "sluice") -> String {
        "postgresql://\(user)@/\(database)?host=\(folder)&port=\(port)"
    }

    /// A URI of `database` over TCP to 127.0.0.1.
    public func tcpURI(_ database: String, user: String = "sluice", password: String? = nil) -> String {
        "postgresql://\(user)\(password.map { ":" + $0 } ?? "")@127.0.0.1:\(port)/\(database)"
    }

    /// A new, empty database for one test; returns its name.
    public func makeDatabase() throws -> String {
        let name: String = lock.withLock {
            databases += 1
            return "test_\(getpid())_\(databases)"
        }
        try psql("postgres", "CREATE DATABASE \(name) OWNER sluice")
        return name
    }

    /// Runs `sql` with `psql` in `database`; returns its unaligned output, rows on lines and
    /// columns separated by `|`, NULL as an empty field.
    @discardableResult
    public func psql(_ database: String, _ sql: String) throws -> String {
        try Self.run([binaries + "/psql", "-X", "-q", "-At", "-v", "ON_ERROR_STOP=1", uri(database), "-c", sql], timeout: 60)
    }

    /// The rows of a query, each a line of `|`-separated fields.
    public func rows(_ database: String, _ sql: String) throws -> [String] {
        try psql(database, sql).split(separator: "\n", omittingEmptySubsequences: false).map(String.init).filter { !$0.isEmpty }
    }

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
        init(_ description: String) { self.description = description }
    }

    /// Runs a program, waiting at most `timeout` seconds; returns its stdout, throws with its
    /// stderr when it fails. Without `capturing`, its output goes nowhere: `pg_ctl start`
    /// leaves the server running with whatever it was given, and a pipe would then never end.
    @discardableResult
    static func run(_ arguments: [String], timeout: TimeInterval, capturing: Bool = true) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: arguments[0])
        process.arguments = Array(arguments.dropFirst())
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = capturing ? output : FileHandle.nullDevice
        process.standardError = capturing ? errors : FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let out = capturing ? OutputReader(output.fileHandleForReading) : nil
        let err = capturing ? OutputReader(errors.fileHandleForReading) : nil
        // Polled, not `waitUntilExit()`, which can miss the exit of a child whose own child lives on.
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(5_000) }
        if process.isRunning {
            process.terminate()
            throw Failure("\(arguments.joined(separator: " ")) timed out after \(Int(timeout)) s")
        }
        guard process.terminationStatus == 0 else {
            throw Failure("\(arguments.last ?? "") failed (\(process.terminationStatus)): \(err?.text ?? "")")
        }
        return out?.text ?? ""
    }

    /// Drains a pipe on its own thread, so a full pipe never blocks the child.
    private final class OutputReader: @unchecked Sendable {
        private var data = Data()
        private let done = DispatchSemaphore(value: 0)

        init(_ handle: FileHandle) {
            DispatchQueue.global().async {
                self.data = handle.readDataToEndOfFile()
                self.done.signal()
            }
        }

        var text: String {
            done.wait()
            return String(decoding: data, as: UTF8.self)
        }
    }
}
