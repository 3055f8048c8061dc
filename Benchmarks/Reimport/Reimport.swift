import Benchmark
import BenchmarkSupport
import Sluice

// Cold import into a new database versus re-importing the same data (hot): the NDJSON stop
// times with an identity, 90,000 records. A re-import finds every row, changes nothing and
// writes nothing (`docs/performance.md`: it must take less time than the first import).
let benchmarks: @Sendable () -> Void = {
    let scale = 0.03

    Benchmark("Cold import ndjson 90k rows", configuration: .sluice()) { benchmark, file in
        let model = try! BenchFixtures.model(.ndjson)
        benchmark.measureOnFreshDatabase("reimport-cold") { database in
            try BenchFixtures.importFile(file, model: model, into: database)
        }
    } setup: {
        try BenchFixtures.file(.ndjson, scale: scale)
    }

    Benchmark("Hot re-import ndjson 90k rows", configuration: .sluice()) { benchmark, setup in
        let (file, database, model) = setup
        for _ in benchmark.scaledIterations {
            benchmark.run {
                let report = try BenchFixtures.importFile(file, model: model, into: database)
                precondition(report.inserted == 0 && report.updated == 0, "a re-import changed rows")
            }
        }
    } setup: { () throws -> (String, String, Model) in
        let file = try BenchFixtures.file(.ndjson, scale: scale)
        let model = try BenchFixtures.model(.ndjson)
        let database = BenchFixtures.freshDatabase("reimport-hot")
        try BenchFixtures.importFile(file, model: model, into: database)
        return (file, database, model)
    }
}
