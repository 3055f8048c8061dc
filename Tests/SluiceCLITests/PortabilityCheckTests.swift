import Foundation
import SluiceTestSupport
import Testing

/// `scripts/check-portability`, which `scripts/test` runs before the tests: it passes on this
/// checkout, and fails, one line per problem, on what would break a clone or a build on macOS.
@Suite struct PortabilityCheckTests {
    @Test func thisCheckoutPasses() throws {
        let result = try Self.check(PackageFiles.root)
        #expect(result.status == 0, "\(result.stderr)")
    }

    @Test func caseOnlyCollisionsAndUnguardedLibcAndFoundationImportsFail() throws {
        let repository = TemporaryDirectory()
        let files = [
            "Sources/Tool/main.swift": "print(1)\n",
            "Sources/tool/Other.swift": "#if canImport(Glibc)\nimport Glibc\n#endif\n",
            "Sources/Lib/Bare.swift": "import Glibc\n",
            "Tests/LibTests/Guarded.swift": "#if canImport(Darwin)\nimport Darwin\n#elseif canImport(Glibc)\nimport Glibc\n#endif\n",
            "Tests/LibTests/Mismatched.swift": "#if canImport(Glibc)\nimport Darwin\n#endif\n",
            "Sources/Lib/Whole.swift": "import Foundation\n",
            "Sources/Lib/Essentials.swift": "#if canImport(FoundationEssentials)\nimport FoundationEssentials\n#else\nimport Foundation\n#endif\n",
            "Sources/Lib/OnDarwin.swift": "#if canImport(Darwin)\nimport Foundation\n#endif\n",
            "Tests/LibTests/Whole.swift": "import Foundation\n",
        ]
        for (path, text) in files {
            try FileManager.default.createDirectory(atPath: repository.file((path as NSString).deletingLastPathComponent),
                                                    withIntermediateDirectories: true)
            try repository.writeFile(Array(text.utf8), named: path)
        }
        try runProgram("/usr/bin/env", ["git", "init", "-q", repository.path])

        let result = try Self.check(repository.path)
        #expect(result.status == 1)
        #expect(result.stderr == """
            check-portability: Sources/tool: differs only in case from Sources/Tool
            check-portability: Sources/Lib/Bare.swift:1: `import Glibc` without `#if canImport(Glibc)` on the line before
            check-portability: Sources/Lib/Bare.swift:1: imports Glibc; the product reaches libc through Sources/Sluice/Platform/
            check-portability: Sources/tool/Other.swift:2: imports Glibc; the product reaches libc through Sources/Sluice/Platform/
            check-portability: Tests/LibTests/Mismatched.swift:2: `import Darwin` without `#if canImport(Darwin)` on the line before
            check-portability: Sources/Lib/Whole.swift:1: `import Foundation` outside `#if canImport(FoundationEssentials)`'s `#else` or `#if canImport(Darwin)`: on Linux it loads ICU's data

            """)
    }

    private static func check(_ directory: String) throws -> (status: Int32, stderr: String) {
        try runProgram(PackageFiles.path("scripts/check-portability"), [directory])
    }
}
