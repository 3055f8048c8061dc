import Foundation
import Testing
@testable import Sluice

/// A new database appears exactly once (`docs/import-semantics.md`, all or nothing): the
/// finished file is moved to `--db` only if nothing is there. Two `sluice` processes race
/// for one new path deterministically: the first is held just before its move
/// (`SLUICE_TEST_PAUSE_BEFORE_PLACING_DATABASE`, a test-only gate) while the second runs.
@Suite struct NewDatabasePlacementTests {
    /// Runs `sluice arguments…` in the background, held before placing its new database until
    /// `gate` exists; returns once it waits there.
    private func startHeld(_ arguments: [String], in workspace: Workspace, gate: String,
                           stdin: [UInt8]) -> (DispatchGroup, Box) {
        let box = Box()
        let group = DispatchGroup()
        let environment = ["SLUICE_TEST_PAUSE_BEFORE_PLACING_DATABASE": gate]
        let directory = workspace.path
        DispatchQueue.global().async(group: group) {
            box.result = try? SluiceRunner.run(arguments, stdin: stdin, in: directory, environment: environment)
        }
        while !FileManager.default.fileExists(atPath: gate + ".waiting") {
            if group.wait(timeout: .now() + .milliseconds(20)) == .success { break }  // it ended early: the test fails below
        }
        return (group, box)
    }

    final class Box: @unchecked Sendable {
        var result: SluiceResult?
    }

    @Test func twoImportsIntoOneNewPathOneWinsTheOtherFailsNothingLost() throws {
        let workspace = Workspace()
        let gate = workspace.file("gate")
        var big: [UInt8] = []
        for id in 0..<20_000 { big.append(contentsOf: "{\"id\": \(id), \"text\": \"row \(id)\"}\n".utf8) }

        let (first, box) = startHeld(["import", "--db", "new.sqlite", "--table", "big", "-"], in: workspace, gate: gate,
                                         stdin: big)
        let second = try workspace.sluice(["import", "--db", "new.sqlite", "--table", "small", "-"],
                                          stdin: Array("{\"a\": 1}\n{\"a\": 2}\n".utf8))
        try #require(second.status == 0, "\(second)")
        let placed = workspace.bytes(of: "new.sqlite")
        _ = FileManager.default.createFile(atPath: gate, contents: Data())
        first.wait()

        let result = try #require(box.result)
        #expect(result.status == 73, "\(result)")
        #expect(result.stderrLines == ["sluice: error: cannot create database 'new.sqlite': another file appeared at that path "
            + "during the import; it was left as it is and nothing of this import was written"], "\(result)")
        #expect(workspace.bytes(of: "new.sqlite") == placed, "the winner's database is untouched")
        let db = try workspace.database("new.sqlite")
        #expect(try db.tables() == ["sluice_imports", "small"])
        #expect(try db.count("small") == 2)
        #expect(workspace.contents == ["gate", "gate.waiting", "new.sqlite"], "the loser's temporary file is gone")
    }

    /// Any file another program makes at the path meanwhile is kept the same way.
    @Test func aFileMadeMeanwhileByAnotherProgramIsKept() throws {
        let workspace = Workspace()
        let gate = workspace.file("gate")

        let (first, box) = startHeld(["import", "--db", "new.sqlite", "-"], in: workspace, gate: gate,
                                         stdin: Array("{\"a\": 1}\n".utf8))
        try workspace.write("another program's file", to: "new.sqlite")
        _ = FileManager.default.createFile(atPath: gate, contents: Data())
        first.wait()

        let result = try #require(box.result)
        #expect(result.status == 73, "\(result)")
        #expect(workspace.bytes(of: "new.sqlite") == Array("another program's file".utf8))
        #expect(workspace.contents == ["gate", "gate.waiting", "new.sqlite"])
    }

    /// A `--db` that is a symbolic link to nothing is refused (73), not replaced by a file,
    /// and nothing is created where it points.
    @Test func aDanglingSymbolicLinkIsNotReplaced() throws {
        let workspace = Workspace()
        try FileManager.default.createSymbolicLink(atPath: workspace.file("db.sqlite"), withDestinationPath: "real.sqlite")

        let result = try workspace.sluice(["import", "--db", "db.sqlite", "-"], stdin: Array("{\"a\": 1}\n".utf8))

        #expect(result.status == 73, "\(result)")
        #expect(result.stderrLines == ["sluice: error: cannot create database 'db.sqlite': it is a symbolic link to 'real.sqlite', "
            + "which does not exist"], "\(result)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: workspace.file("db.sqlite")) == "real.sqlite")
        #expect(workspace.contents == ["db.sqlite"])
    }

    /// A symbolic link to an existing database is followed, as SQLite does.
    @Test func aSymbolicLinkToADatabaseIsFollowed() throws {
        let workspace = Workspace()
        let setup = try workspace.sluice(["import", "--db", "real.sqlite", "--table", "t", "-"], stdin: Array("{\"a\": 1}\n".utf8))
        try #require(setup.status == 0, "\(setup)")
        try FileManager.default.createSymbolicLink(atPath: workspace.file("db.sqlite"), withDestinationPath: "real.sqlite")

        let result = try workspace.sluice(["import", "--db", "db.sqlite", "--table", "t", "-"], stdin: Array("{\"a\": 2}\n".utf8))

        #expect(result.status == 0, "\(result)")
        #expect(try workspace.database("real.sqlite").count("t") == 2)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: workspace.file("db.sqlite")) == "real.sqlite")
    }
}
