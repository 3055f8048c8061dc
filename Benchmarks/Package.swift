// swift-tools-version:6.1
// Benchmarks of Sluice with ordo-one/package-benchmark. A nested package, so that `swift build`
// and `swift test` of Sluice never compile them. Run from this folder:
//
//   swift package benchmark                       # every suite
//   swift package benchmark --target Import       # one suite
//
// Fixtures are generated in-process by SluiceFixtures (../LargeFixtures, through the link
// Fixtures) into a temporary folder.
import PackageDescription

let benchmark = Target.Dependency.product(name: "Benchmark", package: "package-benchmark")
let plugin = Target.PluginUsage.plugin(name: "BenchmarkPlugin", package: "package-benchmark")
let sluice: [Target.Dependency] = [.product(name: "Sluice", package: "Sluice"), "SluiceFixtures"]

let package = Package(
    name: "SluiceBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Sluice", path: "../"),
        .package(url: "https://github.com/ordo-one/package-benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        // SQLite itself, for the plain insert loop (the storage floor): a module map and a shim.
        .systemLibrary(name: "CSQLiteBench", path: "CSQLiteBench", pkgConfig: "sqlite3"),
        // The generator of large inputs, LargeFixtures/Sources/SluiceFixtures through a symbolic
        // link: Sluice keeps it out of the products its consumers see.
        .target(name: "SluiceFixtures", path: "Fixtures"),
        .target(name: "BenchmarkSupport", dependencies: sluice + ["CSQLiteBench", benchmark], path: "Support"),
        // End-to-end import at three sizes, parse only, and the plain SQLite insert loop.
        .executableTarget(name: "Import", dependencies: [benchmark, "BenchmarkSupport"] + sluice,
                          path: "Import", plugins: [plugin]),
        // Cold import versus re-import of the same data.
        .executableTarget(name: "Reimport", dependencies: [benchmark, "BenchmarkSupport"] + sluice,
                          path: "Reimport", plugins: [plugin]),
        // FastEasyMapping's classic: 3,000 Person records with Phone records, cold and hot.
        .executableTarget(name: "Relationships", dependencies: [benchmark, "BenchmarkSupport"] + sluice,
                          path: "Relationships", plugins: [plugin]),
        // Find-or-create per record (batch size 1) versus per batch.
        .executableTarget(name: "FindOrCreate", dependencies: [benchmark, "BenchmarkSupport"] + sluice,
                          path: "FindOrCreate", plugins: [plugin]),
    ]
)
