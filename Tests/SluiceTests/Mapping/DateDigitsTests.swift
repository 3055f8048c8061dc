import SluiceTestSupport
import Testing
@testable import Sluice

/// Dates keep every digit the input gives (`Instant`), and each layout rounds once from
/// them: Sluice's text to the nanosecond, PostgreSQL's to the microsecond as the server
/// rounds, Core Data's to the nearest double of seconds since 2001.
@Suite("Conversion: every digit of a date")
struct DateDigitsTests {
    private func convert(_ input: TestScalar, dateFormat: String? = nil, _ encoding: ValueEncoding) -> ColumnValue? {
        guard let converter = try? ValueConverter(type: .date, dateFormat: dateFormat, encoding: encoding) else { return nil }
        return input.withScalar { try? converter.convert($0) }
    }

    @Test("Sluice's text: milliseconds, microseconds or nanoseconds, finer digits rounded", arguments: [
        (TestScalar.string("2004-10-24T09:38:08.929Z"), String?.none, String?.some("2004-10-24T09:38:08.929Z")),
        (.string("2004-10-24T09:38:08.929000Z"), nil, "2004-10-24T09:38:08.929Z"),
        (.string("2004-10-24T09:38:08.929258Z"), nil, "2004-10-24T09:38:08.929258Z"),
        (.string("2004-10-24T09:38:08.929258000Z"), nil, "2004-10-24T09:38:08.929258Z"),
        (.string("2004-10-24T09:38:08.929258123Z"), nil, "2004-10-24T09:38:08.929258123Z"),
        (.string("2004-10-24T09:38:08.000000001Z"), nil, "2004-10-24T09:38:08.000000001Z"),
        (.string("2004-10-24T09:38:08.0000000004Z"), nil, "2004-10-24T09:38:08Z"),
        (.string("2004-10-24T09:38:08.9292581234999Z"), nil, "2004-10-24T09:38:08.929258123Z"),
        (.string("2004-10-24T09:38:08.9292581235Z"), nil, "2004-10-24T09:38:08.929258124Z"),
        (.string("2004-12-31T23:59:59.9999999995Z"), nil, "2005-01-01T00:00:00Z"),
        (.string("2004-10-24T11:38:08.929258123+02:00"), nil, "2004-10-24T09:38:08.929258123Z"),
        (.string("9999-12-31T23:59:59.999999999Z"), nil, "9999-12-31T23:59:59.999999999Z"),
        (.string("9999-12-31T23:59:59.9999999995Z"), nil, nil),
        // dateFormat patterns with S beyond three digits, abutting or not.
        (.string("2004-10-24 09:38:08.929258"), "yyyy-MM-dd HH:mm:ss.SSSSSS", "2004-10-24T09:38:08.929258Z"),
        (.string("20041024093808929258123"), "yyyyMMddHHmmssSSSSSSSSS", "2004-10-24T09:38:08.929258123Z"),
        (.string("20041024093808929258+0000"), "yyyyMMddHHmmssSSSSSSZ", "2004-10-24T09:38:08.929258Z"),
        (.string("2004-10-24 09:38:08.9"), "yyyy-MM-dd HH:mm:ss.SSSSSS", "2004-10-24T09:38:08.900Z"),
        // Unix seconds and milliseconds with many fraction digits, before 1970 and 2001 too.
        (.number("1098610688.929258"), nil, "2004-10-24T09:38:08.929258Z"),
        (.number("1098610688.929258123"), "unix", "2004-10-24T09:38:08.929258123Z"),
        (.string("1098610688.929258123"), "unix", "2004-10-24T09:38:08.929258123Z"),
        (.number("1098610688929.258"), "unix-ms", "2004-10-24T09:38:08.929258Z"),
        (.number("1098610688929.258123"), "unix-ms", "2004-10-24T09:38:08.929258123Z"),
        (.number("1.098610688929258e9"), nil, "2004-10-24T09:38:08.929258Z"),
        (.number("-0.000001"), nil, "1969-12-31T23:59:59.999999Z"),
        (.number("-1.25e-7"), nil, "1969-12-31T23:59:59.999999875Z"),
        (.number("-86400.5"), "unix", "1969-12-30T23:59:59.500Z"),
        (.number("-1000.000001"), "unix-ms", "1969-12-31T23:59:58.999999999Z"),
        (.number("978307199.999999"), nil, "2000-12-31T23:59:59.999999Z"),
        (.number("-62167219200.000001"), nil, nil),
        (.number("1e-400000"), nil, "1970-01-01T00:00:00Z"),
        (.number("1e400000"), nil, nil),
    ])
    func sluiceText(input: TestScalar, dateFormat: String?, expected: String?) {
        #expect(convert(input, dateFormat: dateFormat, .sluice) == expected.map(ColumnValue.text))
    }

    @Test("PostgreSQL's text: microseconds, rounded as the server rounds", arguments: [
        ("2004-10-24T09:38:08.929258Z", "2004-10-24T09:38:08.929258Z"),
        ("2004-10-24T09:38:08.929Z", "2004-10-24T09:38:08.929Z"),
        ("2004-10-24T09:38:08.929258123Z", "2004-10-24T09:38:08.929258Z"),
        // Halves, as doubles: to even.
        ("2004-10-24T09:38:08.9292585Z", "2004-10-24T09:38:08.929258Z"),
        ("2004-10-24T09:38:08.0000005Z", "2004-10-24T09:38:08Z"),
        ("2004-10-24T09:38:08.0000015Z", "2004-10-24T09:38:08.000002Z"),
        ("2004-10-24T09:38:08.9292586Z", "2004-10-24T09:38:08.929259Z"),
        // Above the half in decimal, but the same double as the half: the server's even.
        ("2004-10-24T09:38:08.92925850000000001Z", "2004-10-24T09:38:08.929258Z"),
        ("2004-12-31T23:59:59.9999996Z", "2005-01-01T00:00:00Z"),
    ])
    func postgreSQLText(input: String, expected: String) {
        #expect(convert(.string(input), .postgreSQL) == .text(expected))
    }

    /// Each case is what `rint(strtod(fraction) * 1e6)` gives, PostgreSQL's own rounding.
    @Test func postgreSQLRoundingIsTheServers() {
        for digits in ["9292585", "0000005", "0000015", "0000025", "1234565", "999999499", "5555555", "123456789012"] {
            let fraction = Double("0." + digits)!
            let expected = Int((fraction * 1e6).rounded(.toNearestOrEven))
            var attoseconds: UInt64 = 0
            for (index, digit) in digits.utf8.enumerated() {
                attoseconds += UInt64(digit - 48) * [UInt64](repeating: 10, count: 17 - index).reduce(1, *)
            }
            let rounded = Instant(seconds: 0, attoseconds: attoseconds).roundedToMicrosecondsAsPostgreSQL()
            #expect(rounded.seconds * 1_000_000 + Int64(rounded.nanoseconds / 1000) == Int64(expected), "\(digits)")
        }
    }

    @Test("Core Data: the nearest double of the seconds since 2001", arguments: [
        (TestScalar.string("2026-01-30T04:39:31.290433Z"), String?.none, ColumnValue.real(791_440_771.290433)),
        (.string("2026-01-30T04:39:31.29043305Z"), nil, .real(791_440_771.29043305)),
        (.string("2026-01-30T04:39:31.290433049Z"), nil, .real(791_440_771.290433049)),
        (.string("2018-09-22T11:35:41.249889Z"), nil, .real(559_308_941.249889)),
        (.string("2001-01-01T00:00:00.000001Z"), nil, .real(0.000001)),
        (.string("2001-01-01T00:00:00.1234567890123456Z"), nil, .real(0.1234567890123456)),
        (.string("2000-12-31T23:59:59.999999Z"), nil, .real(-0.000001)),
        (.string("2000-12-31T23:59:58.75Z"), nil, .real(-1.25)),
        (.string("1969-12-31T23:59:59.999999Z"), nil, .real(-978_307_200.000001)),
        (.string("0001-01-01T00:00:00Z"), nil, .integer(-63_113_904_000)),
        (.string("4001-01-01T00:00:00Z"), nil, .integer(63_113_904_000)),  // NSDate.distantFuture
        (.string("2001-01-01T00:00:00Z"), nil, .integer(0)),
        (.string("2026-01-30 04:39:31.290433049"), "yyyy-MM-dd HH:mm:ss.SSSSSSSSS", .real(791_440_771.290433049)),
        (.number("978307200.5"), nil, .real(0.5)),
        (.number("1769747971.290433"), nil, .real(791_440_771.290433)),
        (.number("1769747971290.433"), "unix-ms", .real(791_440_771.290433)),
        (.number("-1.000001"), nil, .real(-978_307_201.000001)),
    ])
    func coreData(input: TestScalar, dateFormat: String?, expected: ColumnValue) {
        #expect(convert(input, dateFormat: dateFormat, .coreData) == expected)
    }

    /// Every double Core Data may store, written out in decimal (Swift's shortest text that
    /// reads back as it) as Unix seconds, comes back as that same double: 100,000 of them
    /// between 1970 and 2100, from a fixed seed.
    @Test func coreDataDoublesRoundTrip() {
        var generator = PropertyRandom(seed: 51)
        for _ in 0..<100_000 {
            let stored = Double(Int64(bitPattern: generator.next() % 4_000_000_000_000_000) - 978_307_200_000_000) / 1e6
                + Double(generator.next() % 1000) * 1e-12
            let text = "\(stored)"
            guard !text.contains("e"), stored > 1 else { continue }
            // The decimal text plus 978307200 seconds, exactly (both positive).
            let parts = text.split(separator: ".")
            let unix = "\(Int64(parts[0])! + 978_307_200).\(parts.count > 1 ? parts[1] : "0")"
            let value = convert(.number(unix), .coreData)
            if value != .real(stored) {
                Issue.record("\(text) → \(unix) → \(String(describing: value))")
                return
            }
        }
    }

    /// `Instant.coreDataValue` against the text parser (strtod) on random instants.
    @Test func coreDataValueIsTheTextParsersDouble() {
        var generator = PropertyRandom(seed: 7)
        for _ in 0..<100_000 {
            let seconds = Int64(bitPattern: generator.next() % 20_000_000_000) - 10_000_000_000 + Instant.coreDataReferenceSeconds
            // Half whole microseconds (their own fast path), half any fraction.
            let attoseconds = generator.chance(50) ? generator.next() % 1_000_000 * 1_000_000_000_000
                : generator.next() % Instant.attosecondsPerSecond
            let since2001 = seconds - Instant.coreDataReferenceSeconds
            let digits = String(attoseconds)
            let padded = String(repeating: "0", count: 18 - digits.count) + digits
            let expected: Double
            if since2001 >= 0 {
                expected = Double("\(since2001).\(padded)")!
            } else {
                let complement = String(Instant.attosecondsPerSecond - attoseconds)
                let fraction = String(repeating: "0", count: 18 - complement.count) + complement
                expected = -Double("\(-(since2001 + 1)).\(fraction)")!
            }
            let value = Instant(seconds: seconds, attoseconds: attoseconds).coreDataValue()
            if value != .real(expected) {
                Issue.record("\(seconds) \(attoseconds): \(value) != \(expected)")
                return
            }
        }
    }
}
