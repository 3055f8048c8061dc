/// Proleptic Gregorian calendar arithmetic in UTC, after Howard Hinnant's `days_from_civil`
/// and `civil_from_days` (http://howardhinnant.github.io/date_algorithms.html). Instants are
/// `Instant`s, seconds since 1970-01-01T00:00:00Z and a fraction; only the years 0000…9999
/// are representable.
enum CivilTime {
    static let secondsPerDay: Int64 = 86_400
    /// 0000-01-01T00:00:00Z, in seconds.
    static let earliest: Int64 = daysFromCivil(year: 0, month: 1, day: 1) * secondsPerDay
    /// 9999-12-31T23:59:59Z, in seconds (its fraction may be anything).
    static let latest: Int64 = (daysFromCivil(year: 9999, month: 12, day: 31) + 1) * secondsPerDay - 1

    static func isLeapYear(_ year: Int) -> Bool {
        year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    }

    static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: return isLeapYear(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days since 1970-01-01 of a valid civil date.
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int64 {
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400                                          // [0, 399]
        let m = Int64(month)
        let dayOfYear = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + Int64(day) - 1  // [0, 365]
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear  // [0, 146096]
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The civil date of a day counted from 1970-01-01.
    static func civilFromDays(_ days: Int64) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097                                        // [0, 146096]
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153                                      // [0, 11]
        let day = dayOfYear - (153 * mp + 2) / 5 + 1                            // [1, 31]
        let month = mp < 10 ? mp + 3 : mp - 9                                   // [1, 12]
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (Int(year), Int(month), Int(day))
    }

    /// `YYYY-MM-DDTHH:MM:SSZ`, with `.sss` before the `Z` when the fraction is whole
    /// milliseconds, `.ssssss` when whole microseconds, else `.sssssssss`
    /// (`docs/database-layout.md`). `seconds` must lie in `earliest...latest`, `nanoseconds`
    /// in 0..<1,000,000,000.
    static func iso8601(seconds: Int64, nanoseconds: Int) -> String {
        precondition(seconds >= earliest && seconds <= latest, "instant outside 0000…9999")
        let days = seconds >= 0 ? seconds / secondsPerDay : (seconds - secondsPerDay + 1) / secondsPerDay
        let (year, month, day) = civilFromDays(days)
        let ofDay = Int(seconds - days * secondsPerDay)
        let second = ofDay % 60
        let minute = ofDay / 60 % 60
        let hour = ofDay / 3600
        let (fraction, fractionDigits) = nanoseconds == 0 ? (0, 0)
            : nanoseconds % 1_000_000 == 0 ? (nanoseconds / 1_000_000, 3)
            : nanoseconds % 1000 == 0 ? (nanoseconds / 1000, 6) : (nanoseconds, 9)
        let count = fractionDigits == 0 ? 20 : 21 + fractionDigits
        return String(unsafeUninitializedCapacity: count) { buffer in
            func put(_ value: Int, digits: Int, at end: Int) {
                var value = value
                for index in stride(from: end - 1, through: end - digits, by: -1) {
                    buffer[index] = UInt8(ascii: "0") + UInt8(value % 10)
                    value /= 10
                }
            }
            put(year, digits: 4, at: 4)
            buffer[4] = UInt8(ascii: "-")
            put(month, digits: 2, at: 7)
            buffer[7] = UInt8(ascii: "-")
            put(day, digits: 2, at: 10)
            buffer[10] = UInt8(ascii: "T")
            put(hour, digits: 2, at: 13)
            buffer[13] = UInt8(ascii: ":")
            put(minute, digits: 2, at: 16)
            buffer[16] = UInt8(ascii: ":")
            put(second, digits: 2, at: 19)
            if fractionDigits > 0 {
                buffer[19] = UInt8(ascii: ".")
                put(fraction, digits: fractionDigits, at: 20 + fractionDigits)
            }
            buffer[count - 1] = UInt8(ascii: "Z")
            return count
        }
    }
}

/// The fields of a date as read from text, before validation. Unset fields keep the defaults
/// of NSDateFormatter: 1970-01-01T00:00:00 in UTC.
struct DateFields {
    var year = 1970
    var month = 1
    var day = 1
    /// 0…23 (from `H`, or from `h` and `a` once `resolveHour` ran).
    var hour = 0
    /// 1…12 from `h`, if the text had one.
    var hour12: Int?
    var isPM = false
    var minute = 0
    var second = 0
    /// The fraction of the second, every digit the text gave up to the 18th.
    var attoseconds: UInt64 = 0
    /// The zone's offset from UTC, east positive.
    var offsetSeconds = 0

    /// Validates the ranges and returns the instant.
    func instant() throws(DateFailure) -> Instant {
        var hour = self.hour
        if let hour12 {
            guard (1...12).contains(hour12) else { throw DateFailure("hour \(hour12) out of range 1…12") }
            hour = hour12 % 12 + (isPM ? 12 : 0)
        }
        guard (0...9999).contains(year) else { throw DateFailure("year \(year) out of range 0000…9999") }
        guard (1...12).contains(month) else { throw DateFailure("month \(month) out of range 1…12") }
        let monthDays = CivilTime.daysInMonth(year: year, month: month)
        guard (1...monthDays).contains(day) else {
            throw DateFailure("day \(day) out of range 1…\(monthDays) for \(DateFields.twoDigits(month))/\(year)")
        }
        guard (0...23).contains(hour) else { throw DateFailure("hour \(hour) out of range 0…23") }
        guard (0...59).contains(minute) else { throw DateFailure("minute \(minute) out of range 0…59") }
        guard (0...59).contains(second) else { throw DateFailure("second \(second) out of range 0…59") }
        let days = CivilTime.daysFromCivil(year: year, month: month, day: day)
        let seconds = Int64(((hour * 60 + minute) * 60 + second) - offsetSeconds)
        let instant = Instant(seconds: days * CivilTime.secondsPerDay + seconds, attoseconds: attoseconds)
        guard instant.isWithinCivilRange else { throw DateFailure("outside the years 0000…9999 in UTC") }
        return instant
    }

    private static func twoDigits(_ value: Int) -> String {
        value < 10 ? "0\(value)" : "\(value)"
    }
}

/// Why a date could not be read; the converter puts it after the value in its message.
struct DateFailure: Error {
    var reason: String
    init(_ reason: String) { self.reason = reason }
}

/// A cursor over the bytes of a date string, with the small readers both the ISO 8601 parser
/// and compiled patterns use.
struct DateCursor {
    let bytes: UnsafeRawBufferPointer
    var at = 0

    init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    var isAtEnd: Bool { at == bytes.count }

    func peek() -> UInt8? { at < bytes.count ? bytes[at] : nil }

    /// Consumes `byte` if it comes next.
    mutating func take(_ byte: UInt8) -> Bool {
        guard at < bytes.count && bytes[at] == byte else { return false }
        at += 1
        return true
    }

    /// Reads between `minimum` and `maximum` decimal digits, greedily; nil (consuming nothing)
    /// if fewer than `minimum` are there.
    mutating func digits(minimum: Int, maximum: Int) -> (value: Int, count: Int)? {
        var value = 0
        var count = 0
        while count < maximum && at + count < bytes.count && NumberText.isDigit(bytes[at + count]) {
            value = value * 10 + Int(bytes[at + count] &- UInt8(ascii: "0"))
            count += 1
        }
        guard count >= minimum else { return nil }
        at += count
        return (value, count)
    }

    /// Reads fraction-of-second digits (`minimum...maximum` of them) as attoseconds: every
    /// digit up to the 18th, those beyond dropped.
    mutating func fraction(minimum: Int, maximum: Int) -> UInt64? {
        var digits: UInt64 = 0
        var count = 0
        while count < maximum && at + count < bytes.count && NumberText.isDigit(bytes[at + count]) {
            if count < 18 { digits = digits &* 10 &+ UInt64(bytes[at + count] &- UInt8(ascii: "0")) }
            count += 1
        }
        guard count >= minimum else { return nil }
        at += count
        return count >= 18 ? digits : digits &* Self.powerOfTen(18 - count)
    }

    /// 10^`exponent` for 1…17 (a constant table, not a global to initialise).
    private static func powerOfTen(_ exponent: Int) -> UInt64 {
        switch exponent {
        case 1: 10
        case 2: 100
        case 3: 1_000
        case 4: 10_000
        case 5: 100_000
        case 6: 1_000_000
        case 7: 10_000_000
        case 8: 100_000_000
        case 9: 1_000_000_000
        case 10: 10_000_000_000
        case 11: 100_000_000_000
        case 12: 1_000_000_000_000
        case 13: 10_000_000_000_000
        case 14: 100_000_000_000_000
        case 15: 1_000_000_000_000_000
        case 16: 10_000_000_000_000_000
        default: 100_000_000_000_000_000
        }
    }

    /// Consumes the first of `names` (ASCII, compared case-insensitively) that comes next and
    /// returns its index.
    mutating func name(among names: [StaticString]) -> Int? {
        for (index, name) in names.enumerated() where matches(name) {
            at += name.utf8CodeUnitCount
            return index
        }
        return nil
    }

    private func matches(_ name: StaticString) -> Bool {
        let count = name.utf8CodeUnitCount
        guard bytes.count - at >= count else { return false }
        let start = name.utf8Start
        for index in 0..<count where bytes[at + index] | 0x20 != start[index] | 0x20 {
            return false
        }
        return true
    }

    static let zoneNames: [StaticString] = ["GMT", "UTC", "UT"]

    /// A zone: `Z`, `±hh:mm`, `±hhmm` or `±hh`, and with `names` also `GMT`/`UTC`/`UT`, alone
    /// or followed by `±h`, `±hh`, `±hh:mm` or `±hhmm`. Returns the offset in seconds.
    mutating func zone(names: Bool) -> Int? {
        if take(UInt8(ascii: "Z")) || take(UInt8(ascii: "z")) { return 0 }
        var hourDigits = 2
        if names, name(among: DateCursor.zoneNames) != nil {
            guard peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") else { return 0 }
            hourDigits = 1
        }
        let negative: Bool
        if take(UInt8(ascii: "+")) {
            negative = false
        } else if take(UInt8(ascii: "-")) {
            negative = true
        } else {
            return nil
        }
        guard let hours = digits(minimum: hourDigits, maximum: 2), hours.value <= 23 else { return nil }
        var minutes = 0
        if take(UInt8(ascii: ":")) {
            guard let value = digits(minimum: 2, maximum: 2) else { return nil }
            minutes = value.value
        } else if let value = digits(minimum: 2, maximum: 2) {
            minutes = value.value
        }
        guard minutes <= 59 else { return nil }
        let offset = hours.value * 3600 + minutes * 60
        return negative ? -offset : offset
    }
}
