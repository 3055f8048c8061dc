import Foundation
import Testing
@testable import Sluice

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The database cannot be written: read-only, locked, on a full or read-only file system.
/// A clear one-line error, exit 73 (cannot write) or 74 (I/O: the disk is full), and the
/// database exactly as it was (or no database at all).
@Suite struct DatabaseFaultTests {
    static let smallInput = Array("{\"id\": 1, \"n\": \"one\"}\n{\"id\": 2, \"n\": \"two\"}\n".utf8)

    /// `count` records of about 200 bytes: a database of several MiB.
    static func largeInput(_ count: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        let padding = String(repeating: "p", count: 180)
        for id in 0..<count { bytes.append(contentsOf: "{\"id\": \(id + 100), \"n\": \"\(padding)\(id)\"}\n".utf8) }
        return bytes
    }

    /// An existing database holding two rows, and what it holds.
    static func existingDatabase(_ workspace: Workspace, at path: String = "out.sqlite") throws -> (rows: [[ColumnValue]], bytes: [UInt8]?) {
        let setup = try workspace.sluice("import", "--db", path, "--model", "model.json", stdin: smallInput)
        try #require(setup.status == 0, "\(setup)")
        return (try workspace.database(path).dump("t"), workspace.bytes(of: path))
    }

    @Test func readOnlyDatabaseFile() throws {
        let workspace = Workspace()
        try workspace.write(Fixtures.itemModel, to: "model.json")
        let before = try Self.existingDatabase(workspace)
        chmod(workspace.file("out.sqlite"), 0o444)
        defer { chmod(workspace.file("out.sqlite"), 0o644) }
        let contents = workspace.contents

        let result = try workspace.sluice("import", "--db", "out.sqlite", "--model", "model.json",
                                          stdin: Array("{\"id\": 3, \"n\": \"three\"}\n".utf8))

        #expect(result.status == 73, "\(result)")
        #expect(result.stderrLines == ["sluice: error: cannot write database 'out.sqlite': the file is read-only"], "\(result)")
        #expect(workspace.contents == contents)
        #expect(workspace.bytes(of: "out.sqlite") == before.bytes ? true : false, "byte for byte as it was")
    }

    @Test func lockedDatabase() throws {
        let workspace = Workspace()
        try workspace.write(Fixtures.itemModel, to: "model.json")
        let before = try Self.existingDatabase(workspace)
        // Another process (this one) holds the write lock for longer than sluice waits (2 s).
        let holder = try Connection(path: workspace.file("out.sqlite"), mode: .readWrite)
        try holder.execute("BEGIN IMMEDIATE")

        let result = try workspace.sluice("import", "--db", "out.sqlite", "--model", "model.json",
                                          stdin: Array("{\"id\": 3, \"n\": \"three\"}\n".utf8))

        #expect(result.status == 73, "\(result)")
        #expect(result.stderrLines == ["sluice: error: cannot write database 'out.sqlite': database is locked"], "\(result)")
        try holder.execute("ROLLBACK")
        holder.close()
        #expect(workspace.bytes(of: "out.sqlite") == before.bytes ? true : false, "byte for byte as it was")
        // Once the lock is gone the next import works.
        let next = try workspace.sluice("import", "--db", "out.sqlite", "--model", "model.json",
                                        stdin: Array("{\"id\": 3, \"n\": \"three\"}\n".utf8))
        #expect(next.status == 0, "\(next)")
        #expect(try workspace.database("out.sqlite").count("t") == 3)
    }

    // MARK: Real small file systems (root only)

    @Test(.enabled(if: SmallFileSystem.available, SmallFileSystem.reason))
    func fullDiskWhileCreatingANewDatabase() throws {
        let workspace = Workspace()
        try workspace.write(Fixtures.itemModel, to: "model.json")
        try workspace.write(Self.largeInput(20_000), to: "big.ndjson")  // about 4 MiB of rows
        let disk = try SmallFileSystem(in: workspace, name: "disk", size: "1m")
        defer { disk.unmount() }

        let result = try workspace.sluice("import", "--db", "disk/out.sqlite", "--model", "model.json", "big.ndjson")

        #expect(result.status == 74, "\(result)")
        #expect(result.stderrLines.count == 1 && result.stderrLines[0].hasPrefix(
            "sluice: error: cannot write database 'disk/out.sqlite': database or disk is full"), "\(result)")
        #expect(disk.contents == [], "nothing is left on the full disk")
    }

    @Test(.enabled(if: SmallFileSystem.available, SmallFileSystem.reason))
    func fullDiskWhileUpdatingAnExistingDatabase() throws {
        let workspace = Workspace()
        try workspace.write(Fixtures.itemModel, to: "model.json")
        try workspace.write(Self.largeInput(20_000), to: "big.ndjson")
        let disk = try SmallFileSystem(in: workspace, name: "disk", size: "1m")
        defer { disk.unmount() }
        let before = try Self.existingDatabase(workspace, at: "disk/out.sqlite")
        let log = try workspace.database("disk/out.sqlite").dump("sluice_imports", orderBy: "id")

        let result = try workspace.sluice("import", "--db", "disk/out.sqlite", "--model", "model.json", "big.ndjson")

        #expect(result.status == 74, "\(result)")
        #expect(result.stderrLines.count == 1 && result.stderrLines[0].hasPrefix(
            "sluice: error: cannot write database 'disk/out.sqlite': database or disk is full"), "\(result)")
        #expect(disk.contents == ["out.sqlite"], "no journal is left")
        #expect(workspace.bytes(of: "disk/out.sqlite") == before.bytes ? true : false, "byte for byte as it was")
        let db = try workspace.database("disk/out.sqlite")
        #expect(try db.integrityCheck() == .text("ok"))
        #expect(try db.dump("t") == before.rows)
        #expect(try db.dump("sluice_imports", orderBy: "id") == log)
        // The next import that fits works.
        let next = try workspace.sluice("import", "--db", "disk/out.sqlite", "--model", "model.json",
                                        stdin: Array("{\"id\": 3, \"n\": \"three\"}\n".utf8))
        #expect(next.status == 0, "\(next)")
    }

    @Test(.enabled(if: SmallFileSystem.available, SmallFileSystem.reason))
    func newDatabaseOnAReadOnlyFileSystem() throws {
        let workspace = Workspace()
        try workspace.write(Fixtures.itemModel, to: "model.json")
        let disk = try SmallFileSystem(in: workspace, name: "ro", size: "1m", readOnly: true)
        defer { disk.unmount() }

        let result = try workspace.sluice("import", "--db", "ro/out.sqlite", "--model", "model.json", stdin: Self.smallInput)

        #expect(result.status == 73, "\(result)")
        #expect(result.stderrLines == ["sluice: error: cannot create database 'ro/out.sqlite': Read-only file system"], "\(result)")
        #expect(disk.contents == [])
    }
}

/// A tmpfs of a given size mounted inside a workspace, for a real full (or read-only) disk
/// rather than SQLite's `max_page_count` imitation. Needs root (CAP_SYS_ADMIN).
struct SmallFileSystem {
    let path: String

    /// Whether tmpfs mounts work here: tried once with a throwaway mount.
    static let available: Bool = {
        guard geteuid() == 0 else { return false }
        let directory = NSTemporaryDirectory() + "sluice-mount-probe-\(getpid())"
        mkdir(directory, 0o700)
        defer { rmdir(directory) }
        guard run("/bin/mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", directory]) else { return false }
        return run("/bin/umount", [directory])
    }()

    static let reason: Comment = "needs root and tmpfs mounts (mount -t tmpfs) to fill a real small file system"

    init(in workspace: Workspace, name: String, size: String, readOnly: Bool = false) throws {
        path = workspace.file(name)
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        let options = "size=\(size)" + (readOnly ? ",ro" : "")
        guard Self.run("/bin/mount", ["-t", "tmpfs", "-o", options, "tmpfs", path]) else {
            throw CocoaError(.fileWriteUnknown)
        }
    }

    var contents: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
    }

    func unmount() {
        _ = Self.run("/bin/umount", [path])
    }

    @discardableResult
    static func run(_ tool: String, _ arguments: [String]) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }
}
