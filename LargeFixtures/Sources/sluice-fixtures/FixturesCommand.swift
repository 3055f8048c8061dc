import ArgumentParser
import SluiceFixtures

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension FixtureShape: ExpressibleByArgument {}

/// `sluice-fixtures`: writes a deterministic transit-like JSON input of a chosen scale.
@main
struct FixturesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sluice-fixtures",
        abstract: "Write deterministic, GTFS-like transit JSON of a chosen scale (scale 1: Berlin, 3,000,000 stop times).",
        discussion: """
            Shapes: flat (a JSON array of stop times), ndjson (one stop time per line), document \
            (one object: stop_times, trips, routes, stops, every reference pointing forward), nested \
            (trips holding their stop times). Models for each: LargeFixtures/models/<shape>.json.
            Example: sluice-fixtures --shape flat --scale 1 | sluice import --db w1.sqlite --model LargeFixtures/models/flat.json
            """
    )

    @Option(help: "flat, ndjson, document or nested.")
    var shape: FixtureShape = .flat

    @Option(help: "1 is Berlin-sized (about 0.42 GB flat); may be fractional (0.01) or large (12).")
    var scale: Double = 1

    @Option(help: "Seed of the pseudo-random values; the same seed gives the same bytes.")
    var seed: UInt64 = 1

    @Option(help: "Write to this file instead of standard output.")
    var output: String?

    @Flag(help: "Write the stop times as tab-separated rows (no JSON), for plain insert loops; ignores --shape.")
    var tsv = false

    @Flag(help: "Print the record counts of this scale to stderr.")
    var counts = false

    func validate() throws {
        guard scale > 0, scale.isFinite else { throw ValidationError("--scale must be a positive number") }
    }

    func run() throws {
        let fixture = TransitFixture(scale: scale, seed: seed)
        var descriptor: Int32 = 1
        if let output {
            descriptor = open(output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            guard descriptor >= 0 else {
                throw FixtureError("cannot open \(output): \(String(cString: strerror(errno)))")
            }
        }
        defer { if descriptor != 1 { close(descriptor) } }
        let sink = ByteSink(fileDescriptor: descriptor)
        if tsv {
            try fixture.writeStopTimesTSV(to: sink)
        } else {
            try fixture.write(shape, to: sink)
        }
        if counts {
            let counts = fixture.recordCounts
            let line = "sluice-fixtures: \(sink.bytesWritten) bytes; \(counts.stopTimes) stop times, "
                + "\(counts.trips) trips, \(counts.routes) routes, \(counts.stops) stops\n"
            var bytes = Array(line.utf8)
            _ = write(2, &bytes, bytes.count)
        }
    }
}
