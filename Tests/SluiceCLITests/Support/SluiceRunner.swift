import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What one run of the `sluice` binary did.
struct SluiceResult: CustomStringConvertible {
    var status: Int32
    var stdout: String
    var stderr: String
    /// On a terminal: when the bytes of `stderr` arrived, read by read.
    var stderrArrivals: [Arrival] = []

    /// stderr split into lines, without the empty piece after the final newline.
    var stderrLines: [String] {
        var lines = stderr.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        return lines
    }

    /// The rows of the import summary's table, each cell named by its column:
    /// `Stop: inserted 76, updated 0, unchanged 0, rejected 0, links 38, unresolved 0`, then
    /// `total: …` when there are several entities. Names may hold spaces (a zero-config table
    /// named after a file): the cells are the last fields of a row.
    var entityLines: [String] {
        let table = stderrLines.filter { $0.hasPrefix("  ") }
        guard let header = table.first else { return [] }
        let columns = header.split(separator: " ").map(String.init)
        return table.dropFirst().map { row in
            let fields = row.split(separator: " ").map(String.init)
            guard fields.count > columns.count else { return "malformed row: \(row)" }
            let name = fields.dropLast(columns.count).joined(separator: " ")
            let cells = zip(columns, fields.suffix(columns.count)).map { "\($0) \($1)" }
            return "\(name): " + cells.joined(separator: ", ")
        }
    }

    /// The `sluice: note: …` lines, in order.
    var noteLines: [String] {
        stderrLines.filter { $0.hasPrefix("sluice: note: ") }
    }

    /// The summary's closing line, `sluice: imported 155 records (…) in …`.
    var summaryLine: String? {
        stderrLines.first { $0.hasPrefix("sluice: imported ") }
    }

    var description: String { "exit \(status)\n--- stdout\n\(stdout)--- stderr\n\(stderr)" }
}

/// Runs the `sluice` binary built next to this test bundle, the way a user does: arguments,
/// bytes piped into standard input, a working directory; captures stdout, stderr and the
/// exit status.
enum SluiceRunner {
    /// The `sluice` executable: SwiftPM builds it into the same directory as the test
    /// executable (the `SluiceCLITests` target depends on it).
    static let executable: URL = {
        #if os(Linux)
        let running = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        var directory = running.deletingLastPathComponent()
        #else
        // Darwin: <dir>/SluicePackageTests.xctest/Contents/MacOS/SluicePackageTests
        var directory = Bundle.main.bundleURL
        for bundle in Bundle.allBundles where bundle.bundleURL.pathExtension == "xctest" {
            directory = bundle.bundleURL
        }
        directory = directory.deletingLastPathComponent()
        #endif
        // The xctest bundle may be a directory holding the executable (…/X.xctest/X).
        while directory.pathExtension == "xctest" || directory.lastPathComponent == "MacOS"
            || directory.lastPathComponent == "Contents" {
            directory = directory.deletingLastPathComponent()
        }
        return directory.appendingPathComponent("sluice")
    }()

    /// Runs `sluice arguments…` in `directory` with `stdin` piped in. Fails the run (status -1)
    /// after `timeout` seconds rather than hanging the test suite. The environment is the
    /// test's with `LC_ALL=C`, then `environment` on top. With `terminalColumns`, stderr is a
    /// pseudo-terminal that wide instead of a pipe (`stderr` is then what was drawn on it).
    static func run(_ arguments: [String], stdin: [UInt8] = [], in directory: String,
                    environment extra: [String: String] = [:], terminalColumns: Int? = nil,
                    stdinOnTerminal: Bool = false, timeout: TimeInterval = 120) throws -> SluiceResult {
        // A write to a pipe whose reader has exited must fail with EPIPE, not kill the tests.
        signal(SIGPIPE, SIG_IGN)

        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        var environment = ProcessInfo.processInfo.environment
        environment["LC_ALL"] = "C"
        environment.merge(extra) { _, new in new }
        process.environment = environment

        let input = Pipe()
        let output = Pipe()
        let errors = Pipe()
        // With `stdinOnTerminal`, standard input is a terminal that edits lines, and `stdin` is
        // typed into it (0x04 is Ctrl-D).
        let keyboard = stdinOnTerminal ? try PseudoTerminal(columns: 80, raw: false) : nil
        if let keyboard {
            process.standardInput = FileHandle(fileDescriptor: keyboard.terminal, closeOnDealloc: false)
        } else {
            process.standardInput = input
        }
        process.standardOutput = output
        let terminal = try terminalColumns.map { try PseudoTerminal(columns: $0) }
        if let terminal {
            process.standardError = FileHandle(fileDescriptor: terminal.terminal, closeOnDealloc: false)
        } else {
            process.standardError = errors
        }
        try process.run()
        terminal?.closeTerminal()
        if let keyboard {
            keyboard.closeTerminal()
            _ = stdin.withUnsafeBytes { write(keyboard.controller, $0.baseAddress, $0.count) }
        }

        // Feed stdin and drain stdout/stderr concurrently: any one of them can fill its pipe
        // and block the child while we wait on another.
        let collected = Collected()
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group) {
            try? input.fileHandleForWriting.write(contentsOf: Data(stdin))
            try? input.fileHandleForWriting.close()
        }
        DispatchQueue.global().async(group: group) {
            collected.set(stdout: output.fileHandleForReading.readDataToEndOfFile())
        }
        DispatchQueue.global().async(group: group) {
            var arrivals: [Arrival] = []
            collected.set(stderr: terminal?.readToEnd(arrivals: &arrivals) ?? errors.fileHandleForReading.readDataToEndOfFile(),
                          arrivals: arrivals)
        }

        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(5_000) }
        var timedOut = false
        if process.isRunning {
            timedOut = true
            process.terminate()
            // A child that does not stop on SIGTERM (blocked where no handler looks) is killed.
            let killAt = Date().addingTimeInterval(5)
            while process.isRunning && Date() < killAt { usleep(5_000) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        }
        process.waitUntilExit()
        group.wait()
        let (out, err, arrivals) = collected.values
        return SluiceResult(status: timedOut ? -1 : process.terminationStatus,
                            stdout: String(decoding: out, as: UTF8.self),
                            stderr: String(decoding: err, as: UTF8.self), stderrArrivals: arrivals)
    }

    /// The bytes the readers collected, written from other threads.
    private final class Collected: @unchecked Sendable {
        private let lock = NSLock()
        private var stdout = Data()
        private var stderr = Data()
        private var arrivals: [Arrival] = []

        func set(stdout data: Data) { lock.withLock { stdout = data } }
        func set(stderr data: Data, arrivals: [Arrival]) { lock.withLock { (stderr, self.arrivals) = (data, arrivals) } }
        var values: (Data, Data, [Arrival]) { lock.withLock { (stdout, stderr, arrivals) } }
    }
}
