import Foundation
import SluiceTestSupport
import Testing

/// What a user who installs `sluice`, or a package that depends on Sluice, gets: a
/// self-contained binary, scripts that install only what they need, a version the changelog
/// names, and only Sluice's own products.
@Suite struct ReleaseTests {
    /// The binary `scripts/build` (the README's install) makes, when it has been built here:
    /// a release build takes minutes, too long for every test run, so this test checks the one
    /// that is there (`scripts/build` itself refuses a binary that links Swift's runtime).
    static let staticBinary = PackageFiles.path(".build-static/release/sluice")

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: staticBinary), "needs scripts/build's binary, .build-static/release/sluice"))
    func theInstalledBinaryRunsFromACleanFolderWithoutSwift() throws {
        let folder = TemporaryDirectory(prefix: "sluice-installed")
        let binary = folder.file("sluice")
        try FileManager.default.copyItem(atPath: Self.staticBinary, toPath: binary)
        try folder.writeFile(try PackageFiles.bytes(Fixtures.transitModel), named: "model.json")

        #if os(Linux)
        let libraries = try Self.run("/usr/bin/ldd", [binary])
        #expect(libraries.status == 0, "\(libraries)")
        for runtime in ["libswift", "libFoundation", "libdispatch", "libBlocksRuntime"] {
            #expect(!libraries.stdout.contains(runtime), "\(libraries.stdout)")
        }
        // yajl is compiled in (Vendor/CYajl), not loaded from the system.
        #expect(!libraries.stdout.contains("libyajl"), "\(libraries.stdout)")
        #endif
        // No toolchain on the path, no library path: what a machine without Swift has.
        let result = try Self.run(binary, ["import", "--db", "sample.sqlite", "--model", "model.json", "--quiet"],
                                  stdin: try PackageFiles.bytes(Fixtures.transitSample), in: folder.path,
                                  environment: ["PATH": "/usr/bin:/bin", "LC_ALL": "C"])
        #expect(result.status == 0, "\(result)")
        #expect(try TestDatabase(path: folder.file("sample.sqlite")).count("stops") == 76)
    }

    /// `scripts/install-deps --build`, which `scripts/build` and so `scripts/sample` and
    /// `scripts/install` run, installs what building needs and nothing the tests alone need.
    @Test func buildingInstallsOnlyWhatTheBuildNeeds() throws {
        let all = try Self.run(PackageFiles.path("scripts/install-deps"), ["--list"])
        let build = try Self.run(PackageFiles.path("scripts/install-deps"), ["--build", "--list"])
        #expect(all.status == 0 && build.status == 0, "\(all)\n\(build)")
        let allPackages = Set(all.stdout.split(separator: "\n").map(String.init))
        let buildPackages = Set(build.stdout.split(separator: "\n").map(String.init))
        #expect(buildPackages.isSubset(of: allPackages))
        #if os(Linux)
        #expect(buildPackages == ["libsqlite3-dev", "zlib1g-dev", "pkg-config"])
        #endif
        for testsOnly in ["postgresql", "postgresql@15", "python3", "sqlite3", "git"] {
            #expect(!buildPackages.contains(testsOnly), "building installs \(testsOnly)")
        }
        let unknown = try Self.run(PackageFiles.path("scripts/install-deps"), ["--bulid"])
        #expect(unknown.status == 64)
        #expect(unknown.stderr == "install-deps: unknown argument '--bulid' (--build, --list)\n")
    }

    /// The sample and the install build the binary the README's "Install" builds, in one place.
    @Test func sampleAndInstallBuildAsTheReadmeSays() throws {
        let readme = String(decoding: try PackageFiles.bytes("README.md"), as: UTF8.self)
        let build = String(decoding: try PackageFiles.bytes("scripts/build"), as: UTF8.self)
        #expect(readme.contains("scripts/install"))
        #expect(readme.contains("swift build -c release --static-swift-stdlib --product sluice"))
        #expect(build.contains("flags=(-c release --product sluice --build-path .build-static)"))
        #expect(build.contains("flags+=(--static-swift-stdlib)"))
        for script in ["scripts/sample", "scripts/install"] {
            let text = String(decoding: try PackageFiles.bytes(script), as: UTF8.self)
            #expect(text.contains("$(scripts/build)"), "\(script) builds through scripts/build")
            #expect(!text.contains("swift build"), "\(script) builds as scripts/build does, not on its own")
        }
    }

    /// A package that depends on Sluice sees the library and the command, not the generator of
    /// benchmark inputs (SwiftPM adds a product for each executable target of the root package
    /// only, so `swift run sluice-fixtures` still works in a checkout).
    @Test func consumersSeeOnlySluicesOwnProducts() throws {
        let scratch = TemporaryDirectory(prefix: "sluice-manifest")
        let manifest = try Self.run(Self.swift, ["package", "dump-package", "--package-path", PackageFiles.root,
                                                 "--scratch-path", scratch.path])
        try #require(manifest.status == 0, "\(manifest)")
        let package = try #require(try JSONSerialization.jsonObject(with: Data(manifest.stdout.utf8)) as? [String: Any])
        let products = try #require(package["products"] as? [[String: Any]])
        #expect(products.compactMap { $0["name"] as? String }.sorted() == ["Sluice", "sluice"])
        // The benchmarks build the generator through a link to its sources.
        let link = try FileManager.default.destinationOfSymbolicLink(atPath: PackageFiles.path("Benchmarks/Fixtures"))
        #expect(link == "../LargeFixtures/Sources/SluiceFixtures")
        #expect(FileManager.default.fileExists(atPath: PackageFiles.path("Benchmarks/Fixtures/TransitFixture.swift")))
    }

    /// The first entry of CHANGELOG.md is the version `sluice --version` prints.
    @Test func changelogBeginsWithTheVersion() throws {
        let version = try Workspace().sluice(["--version"])
        #expect(version.status == 0)
        let changelog = String(decoding: try PackageFiles.bytes("CHANGELOG.md"), as: UTF8.self)
        let first = try #require(changelog.split(separator: "\n").first { $0.hasPrefix("## ") })
        #expect(first.hasPrefix("## \(version.stdout.trimmingCharacters(in: .newlines)) "), "\(first)")
        let readme = String(decoding: try PackageFiles.bytes("README.md"), as: UTF8.self)
        #expect(readme.contains("from: \"\(version.stdout.trimmingCharacters(in: .newlines))\""))
    }

    /// The `swift` that runs these tests (on the path while `swift test` runs).
    static let swift: String = {
        for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
            let candidate = "\(directory)/swift"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return "/usr/bin/swift"
    }()

    struct Run: CustomStringConvertible {
        var status: Int32
        var stdout: String
        var stderr: String
        var description: String { "exit \(status)\n--- stdout\n\(stdout)--- stderr\n\(stderr)" }
    }

    static func run(_ executable: String, _ arguments: [String], stdin: [UInt8] = [], in directory: String? = nil,
                    environment: [String: String]? = nil) throws -> Run {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        if let environment { process.environment = environment }
        let input = Pipe(), output = Pipe(), errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        try input.fileHandleForWriting.write(contentsOf: Data(stdin))
        try input.fileHandleForWriting.close()
        // Small outputs only (a pipe holds 64 KiB): stdout to its end, then stderr.
        let stdout = output.fileHandleForReading.readDataToEndOfFile()
        let stderr = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                   stderr: String(decoding: stderr, as: UTF8.self))
    }
}
