// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "Sluice",
    products: [
        .library(name: "Sluice", targets: ["Sluice"]),
        .executable(name: "sluice", targets: ["sluice"]),
        // Large deterministic inputs for benchmarks (LargeFixtures/README.md).
        .library(name: "SluiceFixtures", targets: ["SluiceFixtures"]),
        .executable(name: "sluice-fixtures", targets: ["sluice-fixtures"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        // C libraries through system-library targets: a module map and a shim header, nothing else.
        .systemLibrary(name: "CYajl", pkgConfig: "yajl", providers: [.apt(["libyajl-dev"])]),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        // malloc.h, for the CLI's one malloc setting (and CSQLite for its one SQLite setting).
        .systemLibrary(name: "CMalloc"),
        .target(
            name: "Sluice",
            dependencies: ["CYajl", "CSQLite", "CZlib", "CCrypto"]
        ),
        .executableTarget(
            name: "sluice",
            dependencies: ["Sluice", "CMalloc", "CSQLite", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        // The generator of large inputs: a library (so benchmarks generate in-process) and a thin CLI.
        .target(name: "SluiceFixtures", path: "LargeFixtures/Sources/SluiceFixtures"),
        .executableTarget(
            name: "sluice-fixtures",
            dependencies: ["SluiceFixtures", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            path: "LargeFixtures/Sources/sluice-fixtures"
        ),
        .testTarget(name: "SluiceTests", dependencies: ["Sluice"]),
        .testTarget(name: "sluiceTests", dependencies: ["sluice", "Sluice"]),
    ]
)
