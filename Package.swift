// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "Sluice",
    // Noncopyable generic types and typed throws need the Swift 6 runtime of these releases.
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        .library(name: "Sluice", targets: ["Sluice"]),
        .executable(name: "sluice", targets: ["SluiceCLI"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        // SHA-256 and SHA-512 (Model/SHA2.swift): its 4.x imports FoundationEssentials, not Foundation.
        .package(url: "https://github.com/apple/swift-crypto", from: "4.5.2"),
    ],
    targets: [
        // yajl 2.1.0's parser, compiled from its sources (Vendor/CYajl/README.md) on every
        // platform: nothing to install, and iOS, which has no yajl, builds it the same way.
        // Vendor/, not Sources/: code we did not write, kept apart from ours.
        // NDEBUG as yajl's own release build: its asserts out of release builds.
        .target(name: "CYajl", path: "Vendor/CYajl", exclude: ["README.md", "COPYING"],
                cSettings: [.define("NDEBUG", .when(configuration: .release))]),
        // The other C libraries through system-library targets: a module map and a shim header,
        // nothing else. On Apple platforms SQLite and zlib come with the SDK (pkg-config may find
        // nothing there, and the module maps link the SDK's libraries).
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        // libpq's header, for `--db postgresql://…` (docs/postgresql.md). No pkg-config: the
        // library is opened at run time, by imports into PostgreSQL only (the shim finds the header).
        .systemLibrary(name: "CLibPQ", providers: [.apt(["libpq-dev"]), .brew(["libpq"])]),
        // malloc.h, for the one malloc setting a process running big imports may make.
        .systemLibrary(name: "CMalloc"),
        // The part of libxml2's interface that reading Core Data models uses, declared in the shim:
        // no header, no pkg-config (whose flags would link libxml2 into every program). The
        // library is opened at run time, by imports through a Core Data model only.
        .systemLibrary(name: "CLibXML2"),
        // The processor's prefetch hint (`KnownIDs.rows(of:)`).
        .systemLibrary(name: "CPrefetch"),
        .target(
            name: "Sluice",
            dependencies: ["CYajl", "CSQLite", "CZlib", "CLibPQ", "CMalloc", "CLibXML2", "CPrefetch",
                           .product(name: "Crypto", package: "swift-crypto")],
            // The built-in models (`--model gtfs`), compiled in as bytes (`PackageResources`):
            // no bundle and no file to find at run time, on every platform.
            resources: [.embedInCode("Model/BuiltInModels/gtfs.json")]
        ),
        // The `sluice` command. The target is not called `sluice`: a case-insensitive disk
        // would make its folder one with the library's `Sources/Sluice`.
        .executableTarget(
            name: "SluiceCLI",
            dependencies: ["Sluice", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        // The generator of large inputs: a library (so benchmarks generate in-process) and a thin CLI.
        .target(name: "SluiceFixtures", path: "LargeFixtures/Sources/SluiceFixtures"),
        .executableTarget(
            name: "sluice-fixtures",
            dependencies: ["SluiceFixtures", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            path: "LargeFixtures/Sources/sluice-fixtures"
        ),
        // What both test targets use: temporary directories, the package's files, gzip data.
        .target(name: "SluiceTestSupport", path: "Tests/SluiceTestSupport"),
        .testTarget(name: "SluiceTests", dependencies: ["Sluice", "SluiceTestSupport"]),
        .testTarget(name: "SluiceCLITests", dependencies: ["SluiceCLI", "Sluice", "SluiceTestSupport"]),
    ]
)

// The DocC plugin, for `swift package generate-documentation` (scripts/docs), only when
// SLUICE_DOCS is set: a package that depends on Sluice never fetches it.
if Context.environment["SLUICE_DOCS"] != nil {
    package.dependencies.append(.package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"))
}
