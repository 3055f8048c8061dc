/// The shapes a transit fixture can be written in. Each has a model in `LargeFixtures/models/`.
public enum FixtureShape: String, CaseIterable, Sendable {
    /// One JSON array of stop times (`docs/performance.md` W1 input): `[{…},{…}]`, one record per line.
    case flat
    /// The same stop times as NDJSON: one object per line, no array.
    case ndjson
    /// One object holding `stop_times`, `trips`, `routes`, `stops`, in that order, so every
    /// reference (stop time → trip and stop, trip → route, platform → station) points forward.
    case document
    /// `{"trips":[{…, "stop_times":[{…}]}], "routes":[…], "stops":[…]}`: each trip carries its
    /// stop times as nested records (without `trip_id`); routes and stops come after.
    case nested
}

/// A deterministic, GTFS-like transit dataset of a chosen scale, generated on the fly.
///
/// Scale 1 is Berlin-sized: 13,000 stops, 1,000 routes, 100,000 trips and 3,000,000 stop
/// times (every trip has 30 on average: trips come in pairs of 30+d and 30-d). Every value
/// is a pure function of the seed and the record's index, so all shapes of one scale and
/// seed hold exactly the same data, and the same arguments always give the same bytes.
///
/// What it looks like, as in real feeds: string ids (numeric-looking, as BVG's are),
/// `HH:MM:SS` times that pass 24:00 for trips after midnight, coordinates with six
/// decimals, UTF-8 names (one with escaped quotes), platforms grouped under parent
/// stations (some stops stand alone), optional keys that are present only when not the
/// default (`pickup_type`, `drop_off_type`, `parent_station`).
public struct TransitFixture: Sendable {
    public let scale: Double
    public let seed: UInt64
    public let stopCount: Int
    public let routeCount: Int
    public let tripCount: Int

    public init(scale: Double, seed: UInt64 = 1) {
        precondition(scale > 0, "scale must be positive")
        self.scale = scale
        self.seed = seed
        stopCount = max(5, Int((13_000 * scale).rounded()))
        routeCount = max(1, Int((1_000 * scale).rounded()))
        tripCount = max(1, Int((100_000 * scale).rounded()))
    }

    /// Stop times of all trips: exactly 30 per trip.
    public var stopTimeCount: Int { tripCount * 30 }

    /// How many records of each kind a shape holds: (stop times, trips, routes, stops).
    public var recordCounts: (stopTimes: Int, trips: Int, routes: Int, stops: Int) {
        (stopTimeCount, tripCount, routeCount, stopCount)
    }

    /// Writes the whole fixture in `shape` to `sink`, then flushes it.
    public func write(_ shape: FixtureShape, to sink: ByteSink) throws {
        switch shape {
        case .flat:
            sink.raw("[\n")
            try writeStopTimes(to: sink, separator: ",\n", withTripID: true)
            try sink.reserve(4)
            sink.raw("\n]\n")
        case .ndjson:
            try writeStopTimes(to: sink, separator: "\n", withTripID: true)
            try sink.reserve(1)
            sink.raw("\n")
        case .document:
            sink.raw("{\"stop_times\":[\n")
            try writeStopTimes(to: sink, separator: ",\n", withTripID: true)
            try sink.reserve(16)
            sink.raw("\n],\n\"trips\":[\n")
            try writeTrips(to: sink, nested: false)
            try writeRoutesAndStops(to: sink)
        case .nested:
            sink.raw("{\"trips\":[\n")
            try writeTrips(to: sink, nested: true)
            try writeRoutesAndStops(to: sink)
        }
        try sink.flush()
    }

    /// The whole fixture in memory (for small scales: tests, in-process benchmarks).
    public func bytes(_ shape: FixtureShape) -> [UInt8] {
        var result: [UInt8] = []
        let sink = ByteSink(capacity: 1 << 20) { block in result.append(contentsOf: block) }
        // Appending to an array cannot fail.
        try! write(shape, to: sink)
        return result
    }

    // MARK: - Records

    private func writeRoutesAndStops(to sink: ByteSink) throws {
        try sink.reserve(16)
        sink.raw("\n],\n\"routes\":[\n")
        for route in 0..<routeCount {
            try sink.reserve(512)
            if route > 0 { sink.raw(",\n") }
            writeRoute(route, to: sink)
        }
        try sink.reserve(16)
        sink.raw("\n],\n\"stops\":[\n")
        for stop in 0..<stopCount {
            try sink.reserve(512)
            if stop > 0 { sink.raw(",\n") }
            writeStop(stop, to: sink)
        }
        try sink.reserve(8)
        sink.raw("\n]}\n")
    }

    private func writeStopTimes(to sink: ByteSink, separator: StaticString, withTripID: Bool) throws {
        var first = true
        for trip in 0..<tripCount {
            var state = tripState(trip)
            for sequence in 1...stopsInTrip(trip) {
                try sink.reserve(512)
                if !first { sink.raw(separator) }
                first = false
                writeStopTime(trip: trip, sequence: sequence, last: sequence == stopsInTrip(trip),
                              state: &state, withTripID: withTripID, to: sink)
            }
        }
    }

    private func writeTrips(to sink: ByteSink, nested: Bool) throws {
        for trip in 0..<tripCount {
            try sink.reserve(1024)
            if trip > 0 { sink.raw(",\n") }
            let random = mix(kind: 2, trip)
            let route = trip * routeCount / tripCount
            sink.raw("{\"trip_id\":\"")
            tripID(trip, to: sink)
            sink.raw("\",\"route_id\":\"")
            routeID(route, to: sink)
            sink.raw("\",\"service_id\":\"")
            sink.unsigned(1 + random % 97)
            sink.raw("\",\"trip_headsign\":\"")
            stopName(Int((random >> 8) % UInt64(stopCount)), to: sink)
            sink.raw("\",\"direction_id\":")
            sink.unsigned(UInt64(trip & 1))
            sink.raw(",\"shape_id\":\"")
            sink.unsigned(UInt64(route) * 4 + (random >> 20) % 4)
            sink.raw("\",\"wheelchair_accessible\":")
            sink.unsigned((random >> 24) % 3)
            if nested {
                sink.raw(",\"stop_times\":[")
                var state = tripState(trip)
                let count = stopsInTrip(trip)
                for sequence in 1...count {
                    try sink.reserve(512)
                    if sequence > 1 { sink.byte(UInt8(ascii: ",")) }
                    writeStopTime(trip: trip, sequence: sequence, last: sequence == count,
                                  state: &state, withTripID: false, to: sink)
                }
                try sink.reserve(4)
                sink.byte(UInt8(ascii: "]"))
            }
            sink.byte(UInt8(ascii: "}"))
        }
    }

    private struct TripState {
        var random: SplitMix64
        var seconds: Int
        var distance: Int  // decimetres
    }

    private func tripState(_ trip: Int) -> TripState {
        var random = SplitMix64(seed: mix(kind: 3, trip))
        // First departure between 04:00 and 25:30: late trips run past midnight.
        let start = 4 * 3600 + Int(random.next() % UInt64(21 * 3600 + 1800)) / 60 * 60
        return TripState(random: random, seconds: start, distance: 0)
    }

    /// 30 stop times per trip on average: trip 2k has 30+d, trip 2k+1 has 30-d, d < 25.
    private func stopsInTrip(_ trip: Int) -> Int {
        if trip == tripCount - 1 && trip % 2 == 0 { return 30 }
        let delta = Int(mix(kind: 4, trip / 2) % 25)
        return trip % 2 == 0 ? 30 + delta : 30 - delta
    }

    /// The next stop time of a trip: a pure function of the trip's state.
    @inline(__always)
    private func nextStopTime(trip: Int, sequence: Int, last: Bool, state: inout TripState) -> StopTimeRow {
        let random = state.random.next()
        if sequence > 1 {
            state.seconds += 60 + Int(random % 121)
            state.distance += 3_000 + Int((random >> 8) % 12_000)
        }
        let dwell = (random >> 24) % 4 == 0 ? 30 : 0
        var stop = Int((random >> 32) % UInt64(stopCount))
        if isStation(stop) { stop -= 1 }
        let row = StopTimeRow(trip: trip, sequence: sequence, arrival: state.seconds, departure: state.seconds + dwell,
                              stop: stop, pickupType: last ? 1 : nil, dropOffType: sequence == 1 ? 1 : nil,
                              distanceDecimetres: state.distance)
        state.seconds += dwell
        return row
    }

    @inline(__always)
    private func writeStopTime(trip: Int, sequence: Int, last: Bool, state: inout TripState,
                               withTripID: Bool, to sink: ByteSink) {
        let row = nextStopTime(trip: trip, sequence: sequence, last: last, state: &state)
        sink.byte(UInt8(ascii: "{"))
        if withTripID {
            sink.raw("\"trip_id\":\"")
            tripID(trip, to: sink)
            sink.raw("\",")
        }
        sink.raw("\"arrival_time\":\"")
        sink.time(row.arrival)
        sink.raw("\",\"departure_time\":\"")
        sink.time(row.departure)
        sink.raw("\",\"stop_id\":\"")
        stopID(row.stop, to: sink)
        sink.raw("\",\"stop_sequence\":")
        sink.unsigned(UInt64(sequence))
        if row.dropOffType != nil { sink.raw(",\"drop_off_type\":1") }
        if row.pickupType != nil { sink.raw(",\"pickup_type\":1") }
        sink.raw(",\"shape_dist_traveled\":")
        sink.fixed(row.distanceDecimetres, decimals: 1)
        sink.byte(UInt8(ascii: "}"))
    }

    // MARK: - Rows without JSON (for insert loops that measure storage alone)

    /// Calls `body` with every stop time, in the order of the JSON shapes.
    public func forEachStopTime(_ body: (StopTimeRow) throws -> Void) rethrows {
        for trip in 0..<tripCount {
            var state = tripState(trip)
            let count = stopsInTrip(trip)
            for sequence in 1...count {
                try body(nextStopTime(trip: trip, sequence: sequence, last: sequence == count, state: &state))
            }
        }
    }

    /// The stop times as tab-separated text, one per line, in the column order
    /// trip_id, arrival_time, departure_time, stop_id, stop_sequence, pickup_type,
    /// drop_off_type, shape_dist_traveled; an absent value is an empty field. No header.
    /// The plain C insert loop of `Benchmarks/compare.sh` reads this, so it parses nothing.
    public func writeStopTimesTSV(to sink: ByteSink) throws {
        try forEachStopTime { row in
            try sink.reserve(256)
            tripID(row.trip, to: sink)
            sink.byte(9)
            sink.time(row.arrival)
            sink.byte(9)
            sink.time(row.departure)
            sink.byte(9)
            stopID(row.stop, to: sink)
            sink.byte(9)
            sink.unsigned(UInt64(row.sequence))
            sink.byte(9)
            if let value = row.pickupType { sink.integer(value) }
            sink.byte(9)
            if let value = row.dropOffType { sink.integer(value) }
            sink.byte(9)
            sink.fixed(row.distanceDecimetres, decimals: 1)
            sink.byte(10)
        }
        try sink.flush()
    }

    /// A trip id as the JSON holds it, e.g. `100000042`.
    public func tripID(_ trip: Int) -> String { "1" + Self.zeroPadded(trip, 8) }
    /// A stop id as the JSON holds it, e.g. `900000042`.
    public func stopID(_ stop: Int) -> String { "9" + Self.zeroPadded(stop, 8) }

    private static func zeroPadded(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    private func writeRoute(_ route: Int, to sink: ByteSink) {
        let random = mix(kind: 5, route)
        let type = Self.routeTypes[Int(random % UInt64(Self.routeTypes.count))]
        sink.raw("{\"route_id\":\"")
        routeID(route, to: sink)
        sink.raw("\",\"agency_id\":\"")
        sink.unsigned(1 + (random >> 8) % 40)
        sink.raw("\",\"route_short_name\":\"")
        sink.raw(type.prefix)
        sink.unsigned(1 + UInt64(route) % 400)
        sink.raw("\",\"route_type\":")
        sink.unsigned(UInt64(type.code))
        sink.raw(",\"route_color\":\"")
        for shift in stride(from: 12, to: 36, by: 4) {
            sink.byte(Self.hexDigits[Int((random >> UInt64(shift)) & 0xF)])
        }
        sink.raw("\"}")
    }

    private func writeStop(_ stop: Int, to sink: ByteSink) {
        let random = mix(kind: 6, stop)
        let station = isStation(stop)
        sink.raw("{\"stop_id\":\"")
        stopID(stop, to: sink)
        sink.raw("\",\"stop_name\":\"")
        stopName(station || hasParent(stop) ? stop / 5 * 5 + 4 : stop, to: sink)
        // Berlin: latitude 52.34-52.68, longitude 13.09-13.76.
        sink.raw("\",\"stop_lat\":")
        sink.fixed(52_340_000 + Int(random % 340_000), decimals: 6)
        sink.raw(",\"stop_lon\":")
        sink.fixed(13_090_000 + Int((random >> 20) % 670_000), decimals: 6)
        sink.raw(",\"location_type\":")
        sink.unsigned(station ? 1 : 0)
        if hasParent(stop) {
            sink.raw(",\"parent_station\":\"")
            stopID(stop / 5 * 5 + 4, to: sink)
            sink.byte(UInt8(ascii: "\""))
        }
        sink.raw(",\"wheelchair_boarding\":")
        sink.unsigned((random >> 44) % 3)
        sink.byte(UInt8(ascii: "}"))
    }

    // MARK: - Ids and names

    /// Stops come in groups of five: four platforms, then their station (so in a list of
    /// stops a platform's parent comes after it); every third group has no station and its
    /// five stops stand alone.
    private func isStation(_ stop: Int) -> Bool {
        stop % 5 == 4 && (stop / 5) % 3 != 2 && stop / 5 * 5 + 4 < stopCount
    }

    private func hasParent(_ stop: Int) -> Bool {
        stop % 5 != 4 && (stop / 5) % 3 != 2 && stop / 5 * 5 + 4 < stopCount
    }

    @inline(__always)
    private func stopID(_ stop: Int, to sink: ByteSink) {
        sink.raw("9")
        sink.padded(UInt64(stop), width: 8)
    }

    @inline(__always)
    private func tripID(_ trip: Int, to sink: ByteSink) {
        sink.raw("1")
        sink.padded(UInt64(trip), width: 8)
    }

    @inline(__always)
    private func routeID(_ route: Int, to sink: ByteSink) {
        sink.padded(UInt64(route), width: 5)
        sink.raw("_700")
    }

    private func stopName(_ stop: Int, to sink: ByteSink) {
        let random = mix(kind: 7, stop)
        let prefix = Int(random % UInt64(Self.namePrefixes.count))
        sink.raw(Self.namePrefixes[prefix])
        sink.raw(Self.nameSuffixes[Int((random >> 16) % UInt64(Self.nameSuffixes.count))])
        if prefix == Self.namePrefixes.count - 1 { sink.raw("\\\"") }  // Kino \"…\"
        if (random >> 32) % 7 == 0 {
            sink.raw(" (Berlin)")
        }
    }

    /// A hash of (seed, kind, index): the seed of every value of one record.
    @inline(__always)
    private func mix(kind: UInt64, _ index: Int) -> UInt64 {
        var generator = SplitMix64(seed: seed &* 0x9E37_79B9_7F4A_7C15 ^ kind << 56 ^ UInt64(index))
        return generator.next()
    }

    private static let hexDigits = Array("0123456789ABCDEF".utf8)
    private static let routeTypes: [(prefix: StaticString, code: Int)] = [
        ("", 3), ("", 3), ("", 3), ("M", 900), ("U", 400), ("S", 109), ("X", 3), ("N", 3), ("RE", 2), ("F", 1000),
    ]
    // Already JSON-escaped UTF-8.
    private static let namePrefixes: [[UInt8]] = [
        "S+U ", "U ", "S ", "", "", "", "Am ", "Alt-", "Bhf ", "Kino \\\"",
    ].map { Array($0.utf8) }
    private static let nameSuffixes: [[UInt8]] = [
        "Alexanderplatz", "Zoologischer Garten", "Friedrichstraße", "Schöneweide", "Warschauer Straße",
        "Hermannplatz", "Rathaus Spandau", "Köpenick", "Gesundbrunnen", "Ostkreuz", "Südkreuz",
        "Müggelheimer Straße/Wendenschloßstraße", "Turmstraße", "Mehringdamm", "Görlitzer Bahnhof",
        "Prenzlauer Allee", "Weißensee", "Frankfurter Tor", "Tempelhof", "Brandenburger Tor",
    ].map { Array($0.utf8) }
}

/// One stop time as numbers; `TransitFixture.tripID(_:)`, `stopID(_:)` give the ids' text.
public struct StopTimeRow: Sendable {
    public var trip: Int
    public var sequence: Int
    /// Seconds after midnight of the service day (may pass 24 h).
    public var arrival: Int
    public var departure: Int
    public var stop: Int
    public var pickupType: Int?
    public var dropOffType: Int?
    public var distanceDecimetres: Int

    /// A GTFS time, `HH:MM:SS`.
    public static func timeText(_ seconds: Int) -> String {
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(two(seconds / 3600)):\(two(seconds / 60 % 60)):\(two(seconds % 60))"
    }

    /// `shape_dist_traveled` in metres.
    public var distance: Double { Double(distanceDecimetres) / 10 }
}

/// SplitMix64: tiny, fast and good enough for test data; the same seed gives the same stream.
struct SplitMix64 {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    @inline(__always)
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
