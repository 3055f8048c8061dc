import Foundation
import SluiceTestSupport
import Testing

/// `--vacuum` within the import's memory (SPEC section 7: peak RSS under 48 MiB whatever the
/// flags): SQLite gives a vacuum's copy a page cache as large as the connection's, and with the
/// import's cache a vacuum of 16 KiB pages was the whole run's peak (W2 in Sluice's layout:
/// 53 MiB with `--vacuum`, 43 without). `ImportDatabase.vacuumCache` keeps it small; the
/// figures are each run's own peak from `--stats`, the binary's maxrss at the end.
@Suite struct VacuumMemoryTests {
    static let model = """
        { "root": "T",
          "entities": { "T": { "table": "t", "identity": "id",
                               "attributes": { "id": { "type": "integer" }, "name": { "type": "string" } } } } }
        """

    /// About 40 MB of rows in a 16 KiB-page file: far more than any page cache.
    static let input: [UInt8] = {
        var text = ""
        text.reserveCapacity(300_000 * 120)
        for id in 0..<300_000 {
            text += "{\"id\": \(id), \"name\": \"row \(id) of the vacuum memory test, padded to fill pages: \(id * 7919)\"}\n"
        }
        return Array(text.utf8)
    }()

    /// Runs an import of `input` through stdin in `workspace` and returns its peak resident
    /// bytes. Through `sh`, which forks it: on Linux a process's maxrss survives `exec`, so
    /// the binary started straight from this test process would report at least the test
    /// process's own (100 MB and more), hiding what the import took.
    static func peak(_ workspace: Workspace, _ extra: String...) throws -> Int {
        try workspace.write(input, to: "input.ndjson")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", #""$0" "$@" < input.ndjson; exit $?"#, SluiceRunner.executable.path,
                             "import", "--quiet", "--db", "t.sqlite", "--model", "model.json", "--stats", "stats.json", "-"]
            + extra
        process.currentDirectoryURL = URL(fileURLWithPath: workspace.path)
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let data = try #require(workspace.bytes(of: "stats.json"))
        let json = try #require(try JSONSerialization.jsonObject(with: Data(data)) as? [String: Any])
        return try #require(json["peakMemoryBytes"] as? Int)
    }

    /// How much more a vacuum may take than the import alone: its two 2 MiB caches (the file's
    /// and the copy's) where the heap the import freed does not hold them, and allocator noise.
    /// With the import's cache a vacuum took 24 MiB more.
    static let margin = 6 << 20

    @Test func vacuumingANewFileTakesNoMoreMemoryThanTheImport() throws {
        let plain = Workspace()
        try plain.write(Self.model, to: "model.json")
        let vacuumed = Workspace()
        try vacuumed.write(Self.model, to: "model.json")

        let importOnly = try Self.peak(plain)
        let withVacuum = try Self.peak(vacuumed, "--vacuum")

        #expect(withVacuum <= importOnly + Self.margin, "\(withVacuum >> 10) KiB with --vacuum, \(importOnly >> 10) KiB without")
        #expect(try vacuumed.database("t.sqlite").count("t") == 300_000)
    }

    @Test func vacuumingAnExistingFileInPlaceTakesNoMoreMemoryThanTheImport() throws {
        let workspace = Workspace()
        try workspace.write(Self.model, to: "model.json")
        _ = try Self.peak(workspace)

        let importOnly = try Self.peak(workspace)  // a re-import: nothing changes
        let withVacuum = try Self.peak(workspace, "--vacuum")

        #expect(withVacuum <= importOnly + Self.margin, "\(withVacuum >> 10) KiB with --vacuum, \(importOnly >> 10) KiB without")
        let db = try workspace.database("t.sqlite")
        #expect(try db.count("t") == 300_000)
        #expect(try db.integrityCheck() == .text("ok"))
    }
}
