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

/// An import killed in the middle of a large input (`docs/import-semantics.md`: all or nothing under an
/// interruption or a crash). SIGINT and SIGTERM stop it promptly with exit 130 and roll it
/// back; SIGKILL gives it no chance, and SQLite's journal (existing database) or the
/// unrenamed temporary file (new database) keeps the database whole. Afterwards the
/// database is as it was (or absent), passes `PRAGMA integrity_check`, and the next import
/// works and removes what a killed one left behind.
@Suite(.serialized) struct InterruptionTests {
    enum Signal: String, CaseIterable, Sendable {
        case sigint, sigterm, sigkill
        var number: Int32 {
            switch self {
            case .sigint: return SIGINT
            case .sigterm: return SIGTERM
            case .sigkill: return SIGKILL
            }
        }
    }

    /// 250,000 NDJSON records, about 21 MB: the import takes seconds, and its dirty pages
    /// outgrow SQLite's 16 MiB cache, so pages reach the file before the kill.
    static let recordCount = 250_000

    static func largeInput() -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(recordCount * 90)
        for id in 0..<recordCount {
            bytes.append(contentsOf: "{\"id\": \(id), \"n\": \"record \(id), with some text to make the row longer\"}\n".utf8)
        }
        return bytes
    }

    static let cases: [(Signal, Bool)] = Signal.allCases.flatMap { signal in [(signal, true), (signal, false)] }

    @Test(arguments: cases)
    func killedInTheMiddle(_ signal: Signal, newDatabase: Bool) throws {
        let workspace = Workspace()
        try workspace.write(Fixtures.itemModel, to: "model.json")
        try workspace.write(Self.largeInput(), to: "big.ndjson")
        var rowsBefore: [[ColumnValue]] = []
        var logBefore: [[ColumnValue]] = []
        var bytesBefore: [UInt8]?
        if !newDatabase {
            let setup = try workspace.sluice("import", "--db", "out.sqlite", "--model", "model.json",
                                             stdin: Array("{\"id\": 1, \"n\": \"before\"}\n{\"id\": -5, \"n\": \"kept\"}\n".utf8))
            try #require(setup.status == 0, "\(setup)")
            let db = try workspace.database("out.sqlite")
            rowsBefore = try db.dump("t")
            logBefore = try db.dump("sluice_imports", orderBy: "id")
            bytesBefore = workspace.bytes(of: "out.sqlite")
        }
        let contentsBefore = workspace.contents

        // Start the import and wait until it is well into writing: a new database's temporary
        // file, or an existing database's file, has grown by 2 MiB (SQLite spilled pages).
        let process = try Self.launch(["import", "--db", "out.sqlite", "--model", "model.json", "big.ndjson"], in: workspace)
        let initialSize = Self.size(of: workspace.file("out.sqlite")) ?? 0
        let deadline = Date().addingTimeInterval(120)
        var inTheMiddle = false
        while process.isRunning, Date() < deadline {
            let written: Int64
            if newDatabase {
                let temporary = workspace.contents.first { $0.hasPrefix(".out.sqlite.sluice-") && $0.hasSuffix(".tmp") }
                written = temporary.flatMap { Self.size(of: workspace.file($0)) } ?? 0
            } else {
                written = (Self.size(of: workspace.file("out.sqlite")) ?? 0) - initialSize
            }
            if written >= 2 << 20 {
                inTheMiddle = true
                break
            }
            usleep(1_000)
        }
        try #require(inTheMiddle && process.isRunning, "the import ended before it could be killed; make the input larger")
        if !newDatabase {
            #expect(workspace.exists("out.sqlite-journal"), "the transaction is open: its journal exists")
        }
        let signalled = Date()
        kill(process.processIdentifier, signal.number)
        process.waitUntilExit()
        let stopTime = Date().timeIntervalSince(signalled)
        let stderr = String(decoding: (process.standardError as! Pipe).fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)

        switch signal {
        case .sigkill:
            #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL)
        case .sigint, .sigterm:
            #expect(process.terminationReason == .exit && process.terminationStatus == 130, "\(stderr)")
            #expect(stderr == "sluice: error: import into database 'out.sqlite' interrupted: nothing was written\n")
            #expect(stopTime < 10, "stops promptly (took \(stopTime) s)")
            // Rolled back in full: nothing of the import is left on disk.
            #expect(workspace.contents == contentsBefore)
            #expect(workspace.bytes(of: "out.sqlite") == bytesBefore ? true : false, "byte for byte as it was")
        }

        if newDatabase {
            #expect(!workspace.exists("out.sqlite"), "no database at the new path")
            if signal == .sigkill {
                #expect(workspace.contents.contains { $0.hasPrefix(".out.sqlite.sluice-") }, "the killed import's temporary file")
            }
        } else {
            // Opening read-write is what rolls a hot journal back (after SIGKILL).
            let connection = try Connection(path: workspace.file("out.sqlite"), mode: .readWrite)
            #expect(try connection.scalar("PRAGMA integrity_check") == .text("ok"))
            #expect(try connection.rows("SELECT * FROM \"t\" ORDER BY pk") == rowsBefore)
            #expect(try connection.rows("SELECT * FROM \"sluice_imports\" ORDER BY id") == logBefore)
            connection.close()
        }

        // The next import works, and leaves no temporary file or journal of the killed one.
        let next = try workspace.sluice("import", "--db", "out.sqlite", "--model", "model.json",
                                        stdin: Array("{\"id\": 7, \"n\": \"after\"}\n".utf8))
        #expect(next.status == 0, "\(next)")
        #expect(workspace.contents == ["big.ndjson", "model.json", "out.sqlite"])
        let db = try workspace.database("out.sqlite")
        #expect(try db.integrityCheck() == .text("ok"))
        #expect(try db.count("t") == Int64(rowsBefore.count + 1))
    }

    /// SIGINT while the import waits on an open pipe that sends nothing (a producer that
    /// hangs): the blocked read is interrupted and the import stops at once, once.
    @Test func interruptedWhileWaitingForInput() throws {
        let workspace = Workspace()
        try workspace.write(Fixtures.itemModel, to: "model.json")
        let input = Pipe()
        let process = Process()
        process.executableURL = SluiceRunner.executable
        process.arguments = ["import", "--db", "out.sqlite", "--model", "model.json"]
        process.currentDirectoryURL = URL(fileURLWithPath: workspace.path)
        process.standardInput = input
        process.standardOutput = Pipe()
        process.standardError = Pipe()
        try process.run()
        input.fileHandleForWriting.write(Data("{\"id\": 1, \"n\": \"a\"}\n".utf8))  // then nothing more
        usleep(500_000)
        let signalled = Date()
        kill(process.processIdentifier, SIGINT)
        let deadline = Date().addingTimeInterval(10)
        while process.isRunning, Date() < deadline { usleep(10_000) }
        let stillWaiting = process.isRunning
        if stillWaiting { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        try? input.fileHandleForWriting.close()
        #expect(!stillWaiting, "one SIGINT must stop an import blocked on its input")
        #expect(Date().timeIntervalSince(signalled) < 5)
        let stderr = String(decoding: (process.standardError as! Pipe).fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationStatus == 130)
        #expect(stderr == "sluice: error: import into database 'out.sqlite' interrupted: nothing was written\n")
        #expect(workspace.contents == ["model.json"])
    }

    /// SIGINT while opening a FIFO that no one writes (`open` waits for a writer): the wait
    /// is interrupted, and it is the interruption (130), not an input that cannot be opened.
    @Test func interruptedWhileOpeningAFIFO() throws {
        let workspace = Workspace()
        try #require(mkfifo(workspace.file("in.fifo"), 0o644) == 0)
        let process = try Self.launch(["import", "--db", "out.sqlite", "in.fifo"], in: workspace)
        // The database is opened (its temporary file made) before the input: once it is
        // there, the import is at the FIFO's open or about to be.
        let deadline = Date().addingTimeInterval(30)
        while !workspace.contents.contains(where: { $0.hasPrefix(".out.sqlite.sluice-") }), process.isRunning, Date() < deadline {
            usleep(10_000)
        }
        usleep(200_000)
        kill(process.processIdentifier, SIGINT)
        let stopBy = Date().addingTimeInterval(10)
        while process.isRunning, Date() < stopBy { usleep(10_000) }
        let stillWaiting = process.isRunning
        if stillWaiting { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        #expect(!stillWaiting, "one SIGINT must stop an import waiting to open a FIFO")
        let stderr = String(decoding: (process.standardError as! Pipe).fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationStatus == 130)
        #expect(stderr == "sluice: error: import into database 'out.sqlite' interrupted: nothing was written\n")
        #expect(workspace.contents == ["in.fifo"])
    }

    /// SIGTERM while `--model gtfs` reads the feed's headers ahead of the import: a streamed
    /// entry (sizes after its data) of 4,000 MB, which the read-ahead inflates to find its end,
    /// so the read-ahead lasts seconds. The signal ends it within a second, exit 130, nothing
    /// written (it ran to its end first: seconds).
    @Test func interruptedWhileReadingTheHeadersAhead() throws {
        let workspace = Workspace()
        let script = """
            import struct, sys, zlib
            name, block, count = b"stop_times.txt", b"0" * (1 << 20), 4000
            head = b"trip_id,stop_sequence\\n"
            deflate = zlib.compressobj(9, zlib.DEFLATED, -15)
            data = [deflate.compress(head) + deflate.flush(zlib.Z_FULL_FLUSH)]
            piece = deflate.compress(block) + deflate.flush(zlib.Z_FULL_FLUSH)  # the same for each block
            data += [piece] * count + [deflate.flush()]
            crc = zlib.crc32(head)
            for _ in range(count): crc = zlib.crc32(block, crc)
            compressed, size = sum(map(len, data)), len(head) + len(block) * count
            with open(sys.argv[1], "wb") as out:
                out.write(struct.pack("<IHHHHHIIIHH", 0x04034B50, 20, 0x0808, 8, 0, 0x21, 0, 0, 0, len(name), 0) + name)
                for part in data: out.write(part)
                out.write(struct.pack("<IIII", 0x08074B50, crc, compressed, size))
                offset = 30 + len(name) + compressed + 16
                directory = struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 20, 20, 0x0808, 8, 0, 0x21, crc, compressed, size,
                                        len(name), 0, 0, 0, 0, 0, 0) + name
                out.write(directory + struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, 1, 1, len(directory), offset, 0))
            """
        try GTFSFixture.python(["-c", script, workspace.file("feed.zip")])
        let process = try Self.launch(["import", "--db", "out.sqlite", "--model", "gtfs", "feed.zip"], in: workspace)
        // Past the model's loading, into the read-ahead, which lasts seconds.
        usleep(1_000_000)
        try #require(process.isRunning, "the read-ahead ended before the signal; make the entry larger")
        let signalled = Date()
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        let stopTime = Date().timeIntervalSince(signalled)
        let stderr = String(decoding: (process.standardError as! Pipe).fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationReason == .exit && process.terminationStatus == 130, "\(stderr)")
        #expect(stderr == "sluice: error: import into database 'out.sqlite' interrupted: nothing was written\n")
        #expect(stopTime < 1, "stops within a second (took \(stopTime) s)")
        #expect(workspace.contents == ["feed.zip"])
    }

    /// Starts `sluice` with no standard input; stdout and stderr go to pipes (the output is
    /// short: read after it exits).
    static func launch(_ arguments: [String], in workspace: Workspace) throws -> Process {
        let process = Process()
        process.executableURL = SluiceRunner.executable
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: workspace.path)
        var environment = ProcessInfo.processInfo.environment
        environment["LC_ALL"] = "C"
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = Pipe()
        process.standardError = Pipe()
        try process.run()
        return process
    }

    static func size(of path: String) -> Int64? {
        var info = stat()
        return stat(path, &info) == 0 ? Int64(info.st_size) : nil
    }
}
