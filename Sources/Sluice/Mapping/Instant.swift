/// A point in time with every digit a date's input gives: whole seconds since
/// 1970-01-01T00:00:00Z (rounded down, so negative before 1970) and the attoseconds
/// (10⁻¹⁸ s) after them. Digits beyond the 18th of a second are dropped.
///
/// Not Int64 nanoseconds, whose range ends in 2262: the seconds cover the years 0000…9999
/// (`CivilTime.earliest...latest`) and far beyond. Eighteen digits keep the decimal form of
/// any double Core Data stores (17 significant digits) exactly, for all but the instants
/// within a tenth of a second of 2001-01-01, so that such a value comes back as the same
/// double (`coreDataValue`). Each layout rounds once, from this, as it stores the value
/// (`docs/database-layout.md`, `docs/postgresql.md`, `docs/coredata-store.md#values`).
struct Instant: Equatable, Sendable {
    var seconds: Int64
    /// 0 ..< `attosecondsPerSecond`.
    var attoseconds: UInt64

    static let attosecondsPerSecond: UInt64 = 1_000_000_000_000_000_000
    /// Seconds from 1970-01-01 to 2001-01-01, Core Data's reference date.
    static let coreDataReferenceSeconds: Int64 = 978_307_200

    /// The instant a Unix time number denotes (seconds, or milliseconds with `milliseconds`),
    /// every digit read from its text, never through a double; nil beyond 2⁵⁹ seconds. The
    /// caller checks the years (`isWithinCivilRange`).
    init?(unix number: NumberText, in bytes: UnsafeRawBufferPointer, milliseconds: Bool) {
        let integerCount = number.integerDigits.count
        let digitCount = integerCount + number.fractionDigits.count
        func digit(_ index: Int) -> UInt64 {
            let byte = index < integerCount
                ? bytes[number.integerDigits.lowerBound + index]
                : bytes[number.fractionDigits.lowerBound + index - integerCount]
            return UInt64(byte &- UInt8(ascii: "0"))
        }
        // The digits (integer then fraction) with the point after the first `point` of them.
        let point = integerCount + number.exponent - (milliseconds ? 3 : 0)
        // Far beyond any year 9999 in seconds, and small enough that × 10 stays in 64 bits.
        let limit: UInt64 = 1 << 59
        var whole: UInt64 = 0
        for index in 0..<min(max(point, 0), digitCount) {
            whole = whole * 10 + digit(index)
            if whole > limit { return nil }
        }
        if whole != 0 {
            for _ in digitCount..<max(point, digitCount) {
                whole *= 10
                if whole > limit { return nil }
            }
        }
        var fraction: UInt64 = 0
        var scale = Self.attosecondsPerSecond
        // Fraction digit k (1-based) is digit point + k - 1; before the digits it is a 0.
        var index = point
        while scale > 1 && index < digitCount {
            scale /= 10
            if index >= 0 { fraction += digit(index) * scale }
            index += 1
        }
        if number.negative && fraction != 0 {
            self.init(seconds: -Int64(whole) - 1, attoseconds: Self.attosecondsPerSecond - fraction)
        } else {
            self.init(seconds: number.negative ? -Int64(whole) : Int64(whole), attoseconds: fraction)
        }
    }

    init(seconds: Int64, attoseconds: UInt64) {
        self.seconds = seconds
        self.attoseconds = attoseconds
    }

    /// Whether the instant lies in the years 0000…9999 (UTC).
    var isWithinCivilRange: Bool { seconds >= CivilTime.earliest && seconds <= CivilTime.latest }

    /// To the nearest nanosecond, a half up (later): Sluice's own layout.
    func roundedToNanoseconds() -> (seconds: Int64, nanoseconds: Int) {
        let nanoseconds = (attoseconds + 500_000_000) / 1_000_000_000
        return nanoseconds == 1_000_000_000 ? (seconds + 1, 0) : (seconds, Int(nanoseconds))
    }

    /// To the microsecond as PostgreSQL rounds the fraction of a timestamp's text, so that
    /// what it stores compares equal to the value on a re-import: `rint(strtod(".fff…") *
    /// 1e6)`, the fraction parsed as a double, scaled, then rounded half to even.
    func roundedToMicrosecondsAsPostgreSQL() -> (seconds: Int64, nanoseconds: Int) {
        let microseconds: UInt64
        if attoseconds % 1_000_000_000_000 == 0 {
            microseconds = attoseconds / 1_000_000_000_000  // exact: the server's rounding changes nothing
        } else {
            // The nearest double of the fraction, as strtod reads its digits: one correctly
            // rounded division when nine digits hold it, else the digits' text parsed.
            let fraction = attoseconds % 1_000_000_000 == 0
                ? Double(attoseconds / 1_000_000_000) / 1e9
                : Double("0." + Self.eighteenDigits(attoseconds))!
            microseconds = UInt64((fraction * 1e6).rounded(.toNearestOrEven))
        }
        return microseconds == 1_000_000 ? (seconds + 1, 0) : (seconds, Int(microseconds) * 1000)
    }

    /// The nearest double (ties to even) of the seconds since 2001-01-01T00:00:00Z, as Core
    /// Data keeps a date; a whole number of seconds as an integer, which is what SQLite keeps
    /// of a whole REAL in a TIMESTAMP column (NUMERIC affinity), so that a re-import compares
    /// equal. Never through a double of Unix seconds: that rounds twice.
    func coreDataValue() -> ColumnValue {
        let whole = seconds - Self.coreDataReferenceSeconds
        guard attoseconds != 0 else { return .integer(whole) }
        // Most data: whole microseconds, within 285 years of 2001, make an integer below 2⁵³,
        // and one division by 10⁶ (exact) is correctly rounded.
        if attoseconds % 1_000_000_000_000 == 0, whole.magnitude < 9_000_000_000 {
            return .real(Double(whole * 1_000_000 + Int64(attoseconds / 1_000_000_000_000)) / 1e6)
        }
        // The magnitude as `units` whole seconds and `fraction` attoseconds.
        let negative = whole < 0
        let units = negative ? UInt64(-(whole + 1)) : UInt64(whole)
        let fraction = negative ? Self.attosecondsPerSecond - attoseconds : attoseconds
        let magnitude = units == 0 ? Double("0." + Self.eighteenDigits(fraction))!
            : Self.nearestDouble(units: units, fraction: fraction)
        return .real(negative ? -magnitude : magnitude)
    }

    /// The nearest double of `units` + `fraction` × 10⁻¹⁸ (`units` ≥ 1, below 2⁵²), exact
    /// and without text: doubles from 2^k up to 2^(k+1), k = ⌊log₂ units⌋, lie 2^(k−52)
    /// apart, so the result is `units` plus the fraction rounded to a multiple of that step,
    /// ties to an even significand, computed in 128-bit integers.
    private static func nearestDouble(units: UInt64, fraction: UInt64) -> Double {
        let shift = 52 - (63 - units.leadingZeroBitCount)
        let (quotient, remainder) = attosecondsPerSecond.dividingFullWidth(fraction.multipliedFullWidth(by: 1 << shift))
        var significand = units << shift + quotient
        let half = attosecondsPerSecond / 2
        if remainder > half || (remainder == half && significand & 1 == 1) { significand += 1 }
        return Double(significand) * Double(sign: .plus, exponent: -shift, significand: 1)
    }

    /// Unix seconds in decimal, every digit kept: `-0.5` for 1969-12-31T23:59:59.5Z.
    var unixSecondsText: String {
        guard attoseconds != 0 else { return String(seconds) }
        // Below zero, the magnitude's fraction is the complement.
        let (whole, fraction) = seconds < 0 ? (seconds + 1, Self.attosecondsPerSecond - attoseconds) : (seconds, attoseconds)
        var digits = Substring(Self.eighteenDigits(fraction))
        while digits.last == "0" { digits.removeLast() }
        return (seconds < 0 && whole == 0 ? "-" : "") + String(whole) + "." + digits
    }

    /// `value` (below 10¹⁸) as 18 digits with leading zeros.
    private static func eighteenDigits(_ value: UInt64) -> String {
        let digits = String(value)
        return String(repeating: "0", count: 18 - digits.count) + digits
    }
}
