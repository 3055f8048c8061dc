import Benchmark
import BenchmarkSupport
import Sluice

// Why batches matter: find-or-create with one lookup per record (batch size 1, what
// MagicalRecord did) versus one `IN` query per 5,000 records, on 30,000 NDJSON stop times
// with an identity, into a new database (cold) and into one that has them all (hot).
let benchmarks: @Sendable () -> Void = {
    let scale = 0.01
    for batchSize in [1, 5_000] {
        let label = batchSize == 1 ? "per record" : "per batch of \(batchSize)"

        Benchmark("Find-or-create \(label) cold 30k rows", configuration: .sluice()) { benchmark, setup in
            let (file, model) = setup
            benchmark.measureOnFreshDatabase("find-or-create-cold-\(batchSize)") { database in
                try BenchFixtures.importFile(file, model: model, into: database, batchSize: batchSize)
            }
        } setup: {
            (try BenchFixtures.file(.ndjson, scale: scale), try BenchFixtures.model(.ndjson))
        }

        Benchmark("Find-or-create \(label) hot 30k rows", configuration: .sluice()) { benchmark, setup in
            let (file, model, database) = setup
            for _ in benchmark.scaledIterations {
                benchmark.run { try BenchFixtures.importFile(file, model: model, into: database, batchSize: batchSize) }
            }
        } setup: { () throws -> (String, Model, String) in
            let file = try BenchFixtures.file(.ndjson, scale: scale)
            let model = try BenchFixtures.model(.ndjson)
            let database = BenchFixtures.freshDatabase("find-or-create-hot-\(batchSize)")
            try BenchFixtures.importFile(file, model: model, into: database)
            return (file, model, database)
        }
    }
}
