import Benchmark
import BenchmarkSupport
import Sluice

// FastEasyMapping's classic case: 3,000 Person records, each with 2-5 nested Phone records
// (10,500 phones), imported into a new database (cold) and again into the same one (hot).
let benchmarks: @Sendable () -> Void = {
    Benchmark("People with phones cold", configuration: .sluice(iterations: 10)) { benchmark, setup in
        let (bytes, model) = setup
        benchmark.measureOnFreshDatabase("people-cold") { database in
            try BenchFixtures.importBytes(bytes, model: model, into: database)
        }
    } setup: {
        (PeopleFixture.json(), try PeopleFixture.model())
    }

    Benchmark("People with phones hot", configuration: .sluice(iterations: 10)) { benchmark, setup in
        let (bytes, model, database) = setup
        for _ in benchmark.scaledIterations {
            benchmark.run { try BenchFixtures.importBytes(bytes, model: model, into: database) }
        }
    } setup: { () throws -> ([UInt8], Model, String) in
        let bytes = PeopleFixture.json()
        let model = try PeopleFixture.model()
        let database = BenchFixtures.freshDatabase("people-hot")
        try BenchFixtures.importBytes(bytes, model: model, into: database)
        return (bytes, model, database)
    }
}
