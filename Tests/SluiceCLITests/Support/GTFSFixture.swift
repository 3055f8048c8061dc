import Foundation
import SluiceTestSupport
import Testing

/// The real GTFS feeds of `Examples/gtfs/feeds/`, converted to JSON by
/// `LargeFixtures/gtfs_to_json.py` (the document shape: one object holding record arrays).
enum GTFSFixture {
    static let directory = PackageFiles.root + "/Examples/gtfs/feeds/"


    /// Converts `feed` (e.g. `cairns_gtfs.zip`) into `name` in `workspace`.
    static func convert(_ feed: String, into workspace: Workspace, as name: String = "feed.json") throws {
        try python([PackageFiles.path("LargeFixtures/gtfs_to_json.py"), directory + feed, "-o", workspace.file(name)])
    }

    /// Runs `python3 arguments…`; fails the test when it fails. Returns its standard output.
    @discardableResult
    static func python(_ arguments: [String], in directory: String? = nil, environment: [String: String] = [:]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3"] + arguments
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "python3 \(arguments.first ?? "") failed")
        return String(decoding: data, as: UTF8.self)
    }
}
