import Benchmark

extension Benchmark.Configuration {
    /// Few iterations of long runs: every suite finishes in a minute or two.
    public static func sluice(iterations: Int = 3, seconds: Int = 30) -> Benchmark.Configuration {
        .init(metrics: [.wallClock, .throughput, .peakMemoryResident, .mallocCountTotal],
              timeUnits: .milliseconds, warmupIterations: 0, maxDuration: .seconds(seconds), maxIterations: iterations)
    }
}

extension Benchmark {
    /// Runs `body`, reporting an error to the benchmark instead of crashing.
    public func run(_ body: () throws -> Void) {
        do {
            try body()
        } catch {
            self.error("\(name) failed: \(error)")
        }
    }

    /// Each iteration on a new, empty database (`BenchFixtures.freshDatabase(name)`), measuring
    /// only `body`; an error is reported as by `run`.
    public func measureOnFreshDatabase(_ name: String, _ body: (String) throws -> Void) {
        for _ in scaledIterations {
            let database = BenchFixtures.freshDatabase(name)
            startMeasurement()
            run { try body(database) }
            stopMeasurement()
        }
    }
}
