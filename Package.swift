// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "Sluice",
    products: [
        .library(name: "Sluice", targets: ["Sluice"]),
        .executable(name: "sluice", targets: ["sluice"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        // C libraries through system-library targets: a module map and a shim header, nothing else.
        .systemLibrary(name: "CYajl", pkgConfig: "yajl", providers: [.apt(["libyajl-dev"])]),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .target(name: "Sluice", dependencies: ["CYajl", "CSQLite", "CZlib"]),
        .executableTarget(
            name: "sluice",
            dependencies: ["Sluice", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        .testTarget(name: "SluiceTests", dependencies: ["Sluice"]),
        .testTarget(name: "sluiceTests", dependencies: ["sluice"]),
    ]
)
