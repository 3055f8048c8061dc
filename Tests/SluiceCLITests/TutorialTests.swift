import Foundation
import SluiceTestSupport
import Testing

/// The tutorial of `docs/tutorial.md`, run as written by `scripts/tutorial` with this build's
/// `sluice` (`SLUICE=`): its steps run from the root of a clean copy of the checkout with
/// nothing beside it (the GTFS feed is the bundled `Examples/gtfs/feeds/cairns_gtfs.zip`), every
/// command succeeds, and every output the tutorial marks is the real one, the inferred model
/// and the query result included.
@Suite struct TutorialTests {
    static let sqlite3 = ["/usr/bin/sqlite3", "/bin/sqlite3", "/usr/local/bin/sqlite3"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }

    @Test(.enabled(if: sqlite3 != nil, "needs the sqlite3 shell (scripts/install-deps installs it)"),
          .timeLimit(.minutes(3)))
    func theTutorialRunsAsWritten() throws {
        let (status, stdout, stderr) = try runTutorial()
        #expect(status == 0, "\(stdout)\n\(stderr)")
        #expect(stdout.contains("""
            stop_name|departures|routes
            The Pier Cairns - Terminus Stop E|607|17
            """), "\(stdout)")
        #expect(stdout.hasSuffix("tutorial: every step ran and showed what docs/tutorial.md shows\n"), "\(stdout)")
    }

    /// docs/coredata-tutorial.md: the app's seed store made from the feed through the app's
    /// Core Data model, queried, updated and compacted, as written.
    @Test(.enabled(if: sqlite3 != nil, "needs the sqlite3 shell (scripts/install-deps installs it)"),
          .timeLimit(.minutes(3)))
    func theCoreDataTutorialRunsAsWritten() throws {
        let (status, stdout, stderr) = try runTutorial("docs/coredata-tutorial.md")
        #expect(status == 0, "\(stdout)\n\(stderr)")
        #expect(stdout.contains("Route|22\nStop|416\nStopTime|37790\nTrip|1339\n"), "\(stdout)")
        #expect(stdout.hasSuffix("tutorial: every step ran and showed what docs/coredata-tutorial.md shows\n"), "\(stdout)")
    }

    /// Runs `scripts/tutorial [page]` with this build's `sluice`: exit status, stdout, stderr.
    private func runTutorial(_ page: String? = nil) throws -> (Int32, String, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: PackageFiles.path("scripts/tutorial"))
        process.arguments = page.map { [$0] } ?? []
        process.currentDirectoryURL = URL(fileURLWithPath: PackageFiles.root)
        var environment = ProcessInfo.processInfo.environment
        environment["SLUICE"] = SluiceRunner.executable.path
        environment["LC_ALL"] = "C"
        process.environment = environment
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        // Drain stderr beside stdout, so neither pipe fills and blocks the script.
        let collected = ErrorText()
        let reader = Thread { collected.set(errors.fileHandleForReading.readDataToEndOfFile()) }
        reader.start()
        let stdout = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        while !collected.isSet { usleep(1_000) }
        return (process.terminationStatus, stdout, collected.text)
    }

    private final class ErrorText: @unchecked Sendable {
        private let lock = NSLock()
        private var data: Data?
        func set(_ value: Data) { lock.withLock { data = value } }
        var isSet: Bool { lock.withLock { data != nil } }
        var text: String { lock.withLock { String(decoding: data ?? Data(), as: UTF8.self) } }
    }
}
