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

/// `--rejects` and `--stats` never destroy what they name (`docs/cli.md`, output files): an
/// output that is the database, one of its files or an input is a usage error (64) before
/// anything is opened; one that cannot be written stops the import before it starts (74); and
/// each is written beside its target and moved into place only when the import's outcome is
/// known.
@Suite struct OutputPathSafetyTests {
    static let input = "{\"id\": 1, \"n\": 11}\n{\"id\": 2, \"n\": 22}\n"

    /// A workspace holding `model.json`, `in.ndjson` and `keep.sqlite` (imported from it).
    private func prepared() throws -> Workspace {
        let workspace = Workspace()
        try workspace.write(Fixtures.numberModel, to: "model.json")
        try workspace.write(Self.input, to: "in.ndjson")
        let setup = try workspace.sluice("import", "--db", "keep.sqlite", "--model", "model.json", "--quiet", "in.ndjson")
        try #require(setup.status == 0, "\(setup)")
        return workspace
    }

    /// Everything in the workspace, folders' files included, name and bytes (a symbolic link
    /// by where it points).
    private func snapshot(_ workspace: Workspace) -> [String: [UInt8]] {
        var files: [String: [UInt8]] = [:]
        for name in FileManager.default.enumerator(atPath: workspace.path)?.compactMap({ $0 as? String }) ?? [] {
            if let target = try? FileManager.default.destinationOfSymbolicLink(atPath: workspace.file(name)) {
                files[name] = Array("-> \(target)".utf8)
            } else {
                files[name] = workspace.bytes(of: name) ?? []
            }
        }
        return files
    }

    struct Clash: Sendable, CustomTestStringConvertible {
        var name: String
        var arguments: [String]
        var message: String
        var testDescription: String { name }
    }

    static let clashes: [Clash] = [
        Clash(name: "--rejects is the database", arguments: ["--db", "keep.sqlite", "--rejects", "keep.sqlite", "in.ndjson"],
              message: "--rejects 'keep.sqlite' is the database 'keep.sqlite'; choose another path"),
        Clash(name: "--stats is the database", arguments: ["--db", "keep.sqlite", "--stats", "keep.sqlite", "in.ndjson"],
              message: "--stats 'keep.sqlite' is the database 'keep.sqlite'; choose another path"),
        Clash(name: "--stats is the database by another spelling", arguments: ["--db", "keep.sqlite", "--stats", "./sub/../keep.sqlite", "in.ndjson"],
              message: "--stats './sub/../keep.sqlite' is the database 'keep.sqlite'; choose another path"),
        Clash(name: "--stats is a symbolic link to the database", arguments: ["--db", "keep.sqlite", "--stats", "link.json", "in.ndjson"],
              message: "--stats 'link.json' is the database 'keep.sqlite'; choose another path"),
        Clash(name: "--rejects is a hard link to the database", arguments: ["--db", "keep.sqlite", "--rejects", "hard.sqlite", "in.ndjson"],
              message: "--rejects 'hard.sqlite' is the database 'keep.sqlite'; choose another path"),
        Clash(name: "--rejects is the input", arguments: ["--db", "keep.sqlite", "--rejects", "in.ndjson", "in.ndjson"],
              message: "--rejects 'in.ndjson' is the input 'in.ndjson'; choose another path"),
        Clash(name: "--stats is the second input", arguments: ["--db", "keep.sqlite", "--stats", "in.ndjson", "-", "in.ndjson"],
              message: "--stats 'in.ndjson' is the input 'in.ndjson'; choose another path"),
        Clash(name: "--stats is the database's journal", arguments: ["--db", "keep.sqlite", "--stats", "keep.sqlite-journal", "in.ndjson"],
              message: "--stats 'keep.sqlite-journal' is the rollback journal of the database 'keep.sqlite'; choose another path"),
        Clash(name: "--rejects is the database's WAL", arguments: ["--db", "keep.sqlite", "--rejects", "keep.sqlite-wal", "in.ndjson"],
              message: "--rejects 'keep.sqlite-wal' is the write-ahead log of the database 'keep.sqlite'; choose another path"),
        Clash(name: "--stats is the database's shared memory", arguments: ["--db", "keep.sqlite", "--stats", "keep.sqlite-shm", "in.ndjson"],
              message: "--stats 'keep.sqlite-shm' is the shared-memory file of the database 'keep.sqlite'; choose another path"),
        Clash(name: "--rejects is a new database", arguments: ["--db", "new.sqlite", "--rejects", "new.sqlite", "in.ndjson"],
              message: "--rejects 'new.sqlite' is the database 'new.sqlite'; choose another path"),
        Clash(name: "--stats is a new database's temporary file",
              arguments: ["--db", "new.sqlite", "--stats", ".new.sqlite.sluice-42.tmp", "in.ndjson"],
              message: "--stats '.new.sqlite.sluice-42.tmp' is a temporary file of the database 'new.sqlite'; choose another path"),
        Clash(name: "--rejects and --stats are one file", arguments: ["--db", "keep.sqlite", "--rejects", "out.json", "--stats", "./out.json", "in.ndjson"],
              message: "--rejects 'out.json' and --stats './out.json' are the same file; choose another path"),
    ]

    @Test(arguments: clashes)
    func anOutputThatWouldOverwriteIsAUsageError(_ clash: Clash) throws {
        let workspace = try prepared()
        try FileManager.default.createDirectory(atPath: workspace.file("sub"), withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(atPath: workspace.file("link.json"), withDestinationPath: "keep.sqlite")
        try FileManager.default.linkItem(atPath: workspace.file("keep.sqlite"), toPath: workspace.file("hard.sqlite"))
        let before = snapshot(workspace)

        let result = try workspace.sluice(["import", "--model", "model.json", "--on-error", "skip"] + clash.arguments,
                                          stdin: Array(Self.input.utf8))

        #expect(result.status == 64, "\(result)")
        #expect(result.stderrLines == ["sluice: error: " + clash.message], "\(result)")
        #expect(snapshot(workspace) == before, "nothing is touched")
    }

    /// One file an import reads or writes, and how the import names it.
    struct Guarded: Sendable, CustomTestStringConvertible {
        var path: String
        /// What the error line calls it.
        var what: String
        var database = "keep.sqlite"
        var model = "model.json"
        var testDescription: String { path }
    }

    static let temporary = ".new.sqlite.sluice-4242.tmp"
    static let bundle = "App.xcdatamodeld"
    static let version = "App.xcdatamodeld/App.xcdatamodel"

    /// Every file an import reads or writes: the database, its companions, a new database's
    /// temporary files (its own, its vacuumed copy, their journals), the inputs, the model (a
    /// JSON file; every file of a Core Data bundle, compiled or not, however it is named).
    static let guarded: [Guarded] = [
        Guarded(path: "keep.sqlite", what: "the database 'keep.sqlite'"),
        Guarded(path: "keep.sqlite-journal", what: "the rollback journal of the database 'keep.sqlite'"),
        Guarded(path: "keep.sqlite-wal", what: "the write-ahead log of the database 'keep.sqlite'"),
        Guarded(path: "keep.sqlite-shm", what: "the shared-memory file of the database 'keep.sqlite'"),
        Guarded(path: "new.sqlite-wal", what: "the write-ahead log of the database 'new.sqlite'", database: "new.sqlite"),
        Guarded(path: temporary, what: "a temporary file of the database 'new.sqlite'", database: "new.sqlite"),
        Guarded(path: temporary + "-journal", what: "a temporary file of the database 'new.sqlite'", database: "new.sqlite"),
        Guarded(path: temporary + "-vacuumed", what: "a temporary file of the database 'new.sqlite'", database: "new.sqlite"),
        Guarded(path: temporary + "-vacuumed-wal", what: "a temporary file of the database 'new.sqlite'", database: "new.sqlite"),
        Guarded(path: "in.ndjson", what: "the input 'in.ndjson'"),
        Guarded(path: "in2.ndjson", what: "the input 'in2.ndjson'"),
        Guarded(path: "model.json", what: "the model 'model.json'"),
        Guarded(path: version + "/contents", what: "inside the model '\(bundle)'", model: bundle),
        Guarded(path: bundle + "/.xccurrentversion", what: "inside the model '\(bundle)'", model: bundle),
        Guarded(path: "App.xcdatamodeld/App 2.xcdatamodel/contents", what: "inside the model '\(bundle)'", model: version),
        Guarded(path: version + "/contents", what: "the model '\(version)/contents'", model: version + "/contents"),
        Guarded(path: bundle + "/.xccurrentversion", what: "inside the model '\(bundle)'", model: version + "/contents"),
        Guarded(path: "App.momd/App.mom", what: "inside the model 'App.momd'", model: "App.momd"),
        Guarded(path: "App.momd/VersionInfo.plist", what: "inside the model 'App.momd'", model: "App.momd/"),
    ]

    /// Item 4 of issue 52 as a property: every output flag naming every file the import reads
    /// or writes is refused (64) with one line naming both, and every file stays byte for byte
    /// as it was.
    @Test(arguments: ["--stats", "--rejects"], guarded)
    func anOutputNamingAnyFileOfTheImportIsRefused(_ option: String, _ file: Guarded) throws {
        let workspace = try prepared()
        for name in ["keep.sqlite-journal", "keep.sqlite-wal", "keep.sqlite-shm", "new.sqlite-wal", Self.temporary,
                     Self.temporary + "-journal", Self.temporary + "-vacuumed", Self.temporary + "-vacuumed-wal",
                     Self.version + "/contents", Self.bundle + "/.xccurrentversion", "App.xcdatamodeld/App 2.xcdatamodel/contents",
                     "App.momd/App.mom", "App.momd/VersionInfo.plist"] {
            try FileManager.default.createDirectory(atPath: workspace.file(TemporaryFiles.splitPath(name).directory),
                                                    withIntermediateDirectories: true)
            try workspace.write("\(name) as it was\n", to: name)
        }
        try workspace.write(Self.input, to: "in2.ndjson")
        let before = snapshot(workspace)

        let result = try workspace.sluice(["import", "--db", file.database, "--model", file.model, "--on-error", "skip",
                                           option, file.path, "in.ndjson", "in2.ndjson"])

        #expect(result.status == 64, "\(result)")
        #expect(result.stderrLines == ["sluice: error: \(option) '\(file.path)' is \(file.what); choose another path"], "\(result)")
        #expect(snapshot(workspace) == before, "nothing is touched")
    }

    /// An output's temporary file is the other output's to write: naming it is refused too.
    @Test(arguments: [("--stats", "--rejects"), ("--rejects", "--stats")])
    func anOutputNamingTheOtherOutputsTemporaryFileIsRefused(_ option: String, _ other: String) throws {
        let workspace = try prepared()
        try workspace.write("another import's output\n", to: ".out.json.sluice-4242.tmp")
        let before = snapshot(workspace)

        let result = try workspace.sluice(["import", "--db", "keep.sqlite", "--model", "model.json", other, "out.json",
                                           option, ".out.json.sluice-4242.tmp", "in.ndjson"])

        #expect(result.status == 64, "\(result)")
        #expect(result.stderrLines == ["sluice: error: \(option) '.out.json.sluice-4242.tmp' is a temporary file of \(other) "
            + "'out.json'; choose another path"], "\(result)")
        #expect(snapshot(workspace) == before, "nothing is touched")
    }

    /// Standard input is no file: `--rejects` and `--stats` beside a `-` input are fine, and
    /// two outputs on one terminal or pipe (`/dev/stdout`) are not "the same file".
    @Test func standardInputAndStandardOutputAreNotClashes() throws {
        let workspace = try prepared()

        let result = try workspace.sluice(["import", "--db", "keep.sqlite", "--model", "model.json", "--quiet",
                                           "--stats", "/dev/stdout", "--rejects", "/dev/stdout", "-"],
                                          stdin: Array(Self.input.utf8))

        #expect(result.status == 0, "\(result)")
        let stats = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        #expect(stats?["records"] as? Int == 2, "the stats went to the pipe: \(result)")
        #expect(workspace.contents == ["in.ndjson", "keep.sqlite", "model.json"])
    }

    struct Unwritable: Sendable, CustomTestStringConvertible {
        var name: String
        var option: String
        var path: String
        var reason: String
        var testDescription: String { "\(option) \(name)" }
    }

    static let unwritable: [Unwritable] = ["--stats", "--rejects"].flatMap { option in
        let role = option == "--stats" ? "stats file" : "rejects file"
        var cases = [
            Unwritable(name: "a directory", option: option, path: "sub", reason: "cannot write \(role) 'sub': it is a directory"),
            Unwritable(name: "in a missing folder", option: option, path: "no/such/x.json",
                       reason: "cannot write \(role) 'no/such/x.json': No such file or directory"),
            Unwritable(name: "a read-only file", option: option, path: "readonly.json",
                       reason: "cannot write \(role) 'readonly.json': the file is read-only"),
            Unwritable(name: "a symbolic link to nothing", option: option, path: "dangling.json",
                       reason: "cannot write \(role) 'dangling.json': it is a symbolic link to 'nowhere.json', which does not exist"),
        ]
        #if os(Linux)
        cases.append(Unwritable(name: "/dev/full", option: option, path: "/dev/full",
                                reason: "cannot write \(role) '/dev/full': No space left on device"))
        #endif
        return cases
    }

    /// Found before the import starts: exit 74, the database as it was (no `sluice_imports`
    /// row either), or no new database at all.
    @Test(arguments: unwritable, [false, true])
    func anOutputThatCannotBeWrittenStopsTheImportBeforeItStarts(_ output: Unwritable, newDatabase: Bool) throws {
        let workspace = try prepared()
        try FileManager.default.createDirectory(atPath: workspace.file("sub"), withIntermediateDirectories: false)
        try workspace.write("{\"kept\": true}\n", to: "readonly.json")
        chmod(workspace.file("readonly.json"), 0o444)
        try FileManager.default.createSymbolicLink(atPath: workspace.file("dangling.json"), withDestinationPath: "nowhere.json")
        let before = snapshot(workspace)
        let database = newDatabase ? "new.sqlite" : "keep.sqlite"

        let result = try workspace.sluice(["import", "--db", database, "--model", "model.json", "--on-error", "skip",
                                           output.option, output.path, "in.ndjson"])

        #expect(result.status == 74, "\(result)")
        #expect(result.stderrLines == ["sluice: error: " + output.reason], "\(result)")
        #expect(snapshot(workspace) == before, "nothing imported, nothing created")
    }

    /// A failed import leaves `--stats` as it was; `--rejects` is moved into place (it shows
    /// the record that stopped the import), and neither leaves a temporary file.
    @Test func aFailedImportLeavesTheStatsFileAsItWas() throws {
        let workspace = try prepared()
        try workspace.write("old stats\n", to: "stats.json")
        try workspace.write("old rejects\n", to: "rejects.ndjson")
        let database = workspace.bytes(of: "keep.sqlite")

        let result = try workspace.sluice(["import", "--db", "keep.sqlite", "--model", "model.json",
                                           "--stats", "stats.json", "--rejects", "rejects.ndjson"],
                                          stdin: Array("{\"id\": 3, \"n\": 33}\n{\"id\": 4, \"n\": \"four\"}\n".utf8))

        #expect(result.status == 65, "\(result)")
        #expect(workspace.bytes(of: "stats.json") == Array("old stats\n".utf8))
        #expect(String(decoding: workspace.bytes(of: "rejects.ndjson") ?? [], as: UTF8.self) ==
            #"{"file":"<stdin>","line":2,"column":1,"entity":"T","reason":"T.n: cannot convert \"four\" to integer","record":{"id":4,"n":"four"}}"# + "\n")
        #expect(workspace.bytes(of: "keep.sqlite") == database)
        #expect(workspace.contents == ["in.ndjson", "keep.sqlite", "model.json", "rejects.ndjson", "stats.json"])
    }

    /// An import that fails before it begins (here the database is not a database) leaves
    /// `--rejects` as it was too.
    @Test func anImportThatNeverBeganLeavesTheRejectsFileAsItWas() throws {
        let workspace = try prepared()
        try workspace.write("not a database", to: "text.sqlite")
        try workspace.write("old rejects\n", to: "rejects.ndjson")

        let result = try workspace.sluice(["import", "--db", "text.sqlite", "--model", "model.json", "--on-error", "skip",
                                           "--rejects", "rejects.ndjson", "in.ndjson"])

        #expect(result.status == 73, "\(result)")
        #expect(workspace.bytes(of: "rejects.ndjson") == Array("old rejects\n".utf8))
        #expect(workspace.contents == ["in.ndjson", "keep.sqlite", "model.json", "rejects.ndjson", "text.sqlite"])
    }

    /// A symbolic link to an existing output stays a link; the file it names gets the output.
    @Test func anOutputThroughASymbolicLinkReplacesTheFileItNames() throws {
        let workspace = try prepared()
        try FileManager.default.createDirectory(atPath: workspace.file("reports"), withIntermediateDirectories: false)
        try workspace.write("old", to: "reports/stats.json")
        try FileManager.default.createSymbolicLink(atPath: workspace.file("stats.json"), withDestinationPath: "reports/stats.json")

        let result = try workspace.sluice("import", "--db", "keep.sqlite", "--model", "model.json", "--quiet",
                                          "--stats", "stats.json", "in.ndjson")

        #expect(result.status == 0, "\(result)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: workspace.file("stats.json")) == "reports/stats.json")
        let stats = try JSONSerialization.jsonObject(with: Data(workspace.bytes(of: "reports/stats.json") ?? [])) as? [String: Any]
        #expect(stats?["records"] as? Int == 2)
        #expect(try FileManager.default.contentsOfDirectory(atPath: workspace.file("reports")) == ["stats.json"])
    }

    /// A temporary output file left by a killed import (its pid no longer runs) is deleted by
    /// the next import writing the same output; another output's is not ours to judge.
    @Test func aStaleTemporaryOutputIsDeletedByTheNextImportWritingIt() throws {
        let workspace = try prepared()
        let dead = Self.deadProcessID()
        try workspace.write("left by a killed import", to: ".stats.json.sluice-\(dead).tmp")
        try workspace.write("someone else's", to: ".other.json.sluice-\(dead).tmp")

        let result = try workspace.sluice("import", "--db", "keep.sqlite", "--model", "model.json", "--quiet",
                                          "--stats", "stats.json", "in.ndjson")

        #expect(result.status == 0, "\(result)")
        #expect(workspace.contents == [".other.json.sluice-\(dead).tmp", "in.ndjson", "keep.sqlite", "model.json", "stats.json"])
    }

    /// A process id that no process has now: a child that has exited and been reaped.
    static func deadProcessID() -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "exit 0"]
        try? process.run()
        process.waitUntilExit()
        return process.processIdentifier
    }
}
