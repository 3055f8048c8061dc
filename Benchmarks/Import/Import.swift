import Benchmark
import BenchmarkSupport
@_spi(Benchmarks) import Sluice
import SluiceFixtures

// End-to-end import of the flat W1 shape at three sizes (the peak memory must not grow with
// the size), the parser alone over the same input (the ceiling), and a plain loop of
// prepared SQLite inserts of the same rows (the floor). Scale 0.1 is 300,000 stop times.
let benchmarks: @Sendable () -> Void = {
    for scale in [0.01, 0.03, 0.1] {
        let rows = TransitFixture(scale: scale).stopTimeCount
        Benchmark("Import flat \(rows / 1000)k rows", configuration: .sluice()) { benchmark, file in
            let model = try! BenchFixtures.model(.flat)
            benchmark.measureOnFreshDatabase("import-flat-\(scale)") { database in
                try BenchFixtures.importFile(file, model: model, into: database)
            }
        } setup: {
            try BenchFixtures.file(.flat, scale: scale)
        }
    }

    // The same 300k rows with hooks (docs/library.md): a didImport that only counts, then a
    // willImport that replaces one value. "Import flat 300k rows" above is the import without
    // hooks, which must cost what it did before hooks existed.
    let hooked: [(String, EntityHooks)] = [
        ("didImport", EntityHooks(didImport: { _, pk in blackHole(pk) })),
        ("willImport", EntityHooks(willImport: { record in record["pickup_type"] = .integer(0) })),
    ]
    for (name, hooks) in hooked {
        Benchmark("Import flat 300k rows with \(name)", configuration: .sluice()) { benchmark, file in
            let model = try! BenchFixtures.model(.flat)
            benchmark.measureOnFreshDatabase("import-flat-\(name)") { database in
                try BenchFixtures.importFile(file, model: model, into: database, hooks: ["StopTime": hooks])
            }
        } setup: {
            try BenchFixtures.file(.flat, scale: 0.1)
        }
    }

    Benchmark("Parse only flat 300k rows", configuration: .sluice(iterations: 5)) { benchmark, file in
        for _ in benchmark.scaledIterations {
            benchmark.run { blackHole(try Benchmarking.countEvents(inFile: file)) }
        }
    } setup: {
        try BenchFixtures.file(.flat, scale: 0.1)
    }

    Benchmark("Plain SQLite inserts 300k rows", configuration: .sluice(iterations: 5)) { benchmark, rows in
        benchmark.measureOnFreshDatabase("plain-inserts") { database in
            PlainInsertLoop.insert(rows, into: database)
        }
    } setup: {
        PlainInsertLoop.rows(scale: 0.1)
    }
}
