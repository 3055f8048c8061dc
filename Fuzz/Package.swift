// swift-tools-version:6.1
// The fuzz target: a nested package (like Benchmarks/), so `swift build`/`swift test` of
// Sluice and CI never compile it. Build and run it with `Fuzz/run.sh` (see Fuzz/README.md).
import PackageDescription

let package = Package(
    name: "SluiceFuzz",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Sluice", path: "../"),
    ],
    targets: [
        .target(name: "CFuzzerDriver"),
        // The entry point hands LLVMFuzzerTestOneInput to libFuzzer's driver.
        .executableTarget(
            name: "SluiceFuzz",
            dependencies: ["CFuzzerDriver", .product(name: "Sluice", package: "Sluice")],
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]
        ),
    ]
)
