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
        // SHA-256 of the model file for `sluice_imports.model_sha256`.
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
    ],
    targets: [
        // C libraries through system-library targets: a module map and a shim header, nothing else.
        .systemLibrary(name: "CYajl", pkgConfig: "yajl", providers: [.apt(["libyajl-dev"])]),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .target(
            name: "Sluice",
            dependencies: ["CYajl", "CSQLite", "CZlib", .product(name: "Crypto", package: "swift-crypto")]
        ),
        .executableTarget(
            name: "sluice",
            dependencies: ["Sluice", .product(name: "ArgumentParser", package: "swift-argument-parser")]
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
