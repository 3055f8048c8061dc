import Testing
@testable import Sluice

/// `docs/import-semantics.md` date conversions: ISO 8601, `dateFormat` patterns, Unix seconds and milliseconds.
/// Each table pairs an input with the stored text, or nil where the conversion must fail.
@Suite("Conversion: dates")
struct DateConversionTests {
    @Test("ISO 8601 strings", arguments: [
        ("2011-07-23", String?.some("2011-07-23T00:00:00Z")),
        ("2011-07-23T22:30:40Z", "2011-07-23T22:30:40Z"),
        ("2011-07-23 22:30:40Z", "2011-07-23T22:30:40Z"),
        ("2011-07-23t22:30:40z", "2011-07-23T22:30:40Z"),
        ("2011-07-23T22:30", "2011-07-23T22:30:00Z"),
        ("2011-07-23T22:30Z", "2011-07-23T22:30:00Z"),
        ("2011-07-23T22:30:40", "2011-07-23T22:30:40Z"),
        ("2011-07-23T22:30:40.5Z", "2011-07-23T22:30:40.500Z"),
        ("2011-07-23T22:30:40.05", "2011-07-23T22:30:40.050Z"),
        ("2011-07-23T22:30:40.123456789Z", "2011-07-23T22:30:40.123456789Z"),
        ("2011-07-23T22:30:40.9999Z", "2011-07-23T22:30:40.999900Z"),
        ("2011-07-23T22:30:40.000Z", "2011-07-23T22:30:40Z"),
        ("2011-07-23T22:30:40,25Z", "2011-07-23T22:30:40.250Z"),
        ("2011-07-23T22:30:40+02:00", "2011-07-23T20:30:40Z"),
        ("2011-07-23T22:30:40+0200", "2011-07-23T20:30:40Z"),
        ("2011-07-23T22:30:40+02", "2011-07-23T20:30:40Z"),
        ("2011-07-23T22:30:40-05:30", "2011-07-24T04:00:40Z"),
        ("2011-07-23T22:30:40.5-0530", "2011-07-24T04:00:40.500Z"),
        ("2011-07-23T22:30-08:00", "2011-07-24T06:30:00Z"),
        ("2011-07-23T00:30:00+01:00", "2011-07-22T23:30:00Z"),
        ("2012-12-31T23:30:00-01:00", "2013-01-01T00:30:00Z"),
        ("1969-12-31T23:59:59.999Z", "1969-12-31T23:59:59.999Z"),
        ("1900-01-01", "1900-01-01T00:00:00Z"),
        ("0000-01-01", "0000-01-01T00:00:00Z"),
        ("9999-12-31T23:59:59.999Z", "9999-12-31T23:59:59.999Z"),
        // Leap years.
        ("2012-02-29", "2012-02-29T00:00:00Z"),
        ("2000-02-29", "2000-02-29T00:00:00Z"),
        ("0000-02-29", "0000-02-29T00:00:00Z"),
        ("2011-02-29", nil),
        ("1900-02-29", nil),
        ("2011-02-28", "2011-02-28T00:00:00Z"),
        ("2011-04-31", nil),
        ("2011-12-31", "2011-12-31T00:00:00Z"),
        // Out of range fields or years.
        ("2011-13-01", nil),
        ("2011-00-10", nil),
        ("2011-07-00", nil),
        ("2011-07-32", nil),
        ("2011-07-23T24:00:00Z", nil),
        ("2011-07-23T22:60:00Z", nil),
        ("2011-07-23T22:30:60Z", nil),
        ("2011-07-23T22:30:40+24:00", nil),
        ("2011-07-23T22:30:40+02:60", nil),
        ("0000-01-01T00:30:00+01:00", nil),
        ("9999-12-31T23:30:00-01:00", nil),
        // Not ISO 8601 as accepted here.
        ("", nil),
        ("yesterday", nil),
        ("1388349428", nil),
        ("2011-7-23", nil),
        ("11-07-23", nil),
        ("2011/07/23", nil),
        ("2011072", nil),
        ("201107231", nil),
        ("20111323", nil),
        ("20110230", nil),
        ("20110723T2230", nil),
        ("2011-07-23 x", nil),
        // The basic format's date alone (GTFS's `YYYYMMDD`); spaces and tabs at the ends dropped.
        ("20110723", "2011-07-23T00:00:00Z"),
        (" 2011-07-23", "2011-07-23T00:00:00Z"),
        ("2011-07-23 \t", "2011-07-23T00:00:00Z"),
        (" 20110723 ", "2011-07-23T00:00:00Z"),
        ("2011-07-23T", nil),
        ("2011-07-23T22", nil),
        ("2011-07-23T22:3", nil),
        ("2011-07-23T22:30:4", nil),
        ("2011-07-23T22:30:40.", nil),
        ("2011-07-23T22:30:40.Z", nil),
        ("2011-07-23T22:30.5", nil),
        ("2011-07-23T22:30:40ZZ", nil),
        ("2011-07-23T22:30:40+2", nil),
        ("2011-07-23T22:30:40+02:0", nil),
        ("2011-07-23T22:30:40 +02:00", nil),
        ("2011-07-23Z", nil),
        ("2011-07-23T22:30:40GMT", nil),
    ])
    func iso8601(input: String, expected: String?) {
        #expect(converted(.string(input), to: .date) == expected.map(ColumnValue.text))
    }

    @Test func iso8601Messages() {
        #expect(conversionMessage(.string("2011-02-29"), to: .date)
            == #"cannot convert "2011-02-29" to date: day 29 out of range 1…28 for 02/2011"#)
        #expect(conversionMessage(.string("2011-13-01"), to: .date)
            == #"cannot convert "2011-13-01" to date: month 13 out of range 1…12"#)
        #expect(conversionMessage(.string("2011-07-23T24:00"), to: .date)
            == #"cannot convert "2011-07-23T24:00" to date: hour 24 out of range 0…23"#)
        #expect(conversionMessage(.string("yesterday"), to: .date)
            == #"cannot convert "yesterday" to date: not an ISO 8601 date"#)
        #expect(conversionMessage(.string("0000-01-01T00:00+01:00"), to: .date)
            == #"cannot convert "0000-01-01T00:00+01:00" to date: outside the years 0000…9999 in UTC"#)
        #expect(conversionMessage(.bool(true), to: .date) == "cannot convert true to date")
    }

    @Test("numbers and numeric strings as Unix time", arguments: [
        // (value, dateFormat, expected)
        (TestScalar.number("1388349428"), String?.none, String?.some("2013-12-29T20:37:08Z")),
        (.number("1388349428"), "unix", "2013-12-29T20:37:08Z"),
        (.number("1388349427543"), "UnixTime", "2013-12-29T20:37:07.543Z"),
        (.number("1388349427543"), "unix-ms", "2013-12-29T20:37:07.543Z"),
        (.number("1388349427543"), "UNIX-MS", "2013-12-29T20:37:07.543Z"),
        (.number("1388349427000"), "unix-ms", "2013-12-29T20:37:07Z"),
        (.number("1388349427.543"), nil, "2013-12-29T20:37:07.543Z"),
        (.number("1388349427.5439"), nil, "2013-12-29T20:37:07.543900Z"),
        (.number("1.388349428e9"), nil, "2013-12-29T20:37:08Z"),
        (.number("1388349427543.9"), "unix-ms", "2013-12-29T20:37:07.543900Z"),
        (.number("0"), nil, "1970-01-01T00:00:00Z"),
        (.number("-0"), nil, "1970-01-01T00:00:00Z"),
        (.number("-1"), nil, "1969-12-31T23:59:59Z"),
        (.number("-0.5"), nil, "1969-12-31T23:59:59.500Z"),
        (.number("1.0005"), nil, "1970-01-01T00:00:01.000500Z"),
        (.number("-0.0005"), nil, "1969-12-31T23:59:59.999500Z"),
        (.number("951782400"), nil, "2000-02-29T00:00:00Z"),
        (.number("253402300799"), nil, "9999-12-31T23:59:59Z"),
        (.number("253402300799999"), "unix-ms", "9999-12-31T23:59:59.999Z"),
        (.number("-62167219200"), nil, "0000-01-01T00:00:00Z"),
        (.number("1388349428"), "yyyy-MM-dd", "2013-12-29T20:37:08Z"),
        (.string("1388349428"), "unix", "2013-12-29T20:37:08Z"),
        (.string("1388349427.5"), "unix", "2013-12-29T20:37:07.500Z"),
        (.string("1388349427543"), "UnixTime", "2013-12-29T20:37:07.543Z"),
        // Rejected.
        (.number("253402300800"), nil, nil),
        (.number("253402300800000"), "unix-ms", nil),
        (.number("-62167219201"), nil, nil),
        (.number("1e30"), nil, nil),
        (.number("-9223372036854775808"), nil, nil),
        (.string("1388349428"), nil, nil),
        (.string("abc"), "unix", nil),
        (.string(""), "unix-ms", nil),
        (.string(" 1388349428"), "unix", "2013-12-29T20:37:08Z"),
        (.string("+01388349428"), "unix", "2013-12-29T20:37:08Z"),
        (.string("1 388 349 428"), "unix", nil),
        (.string("2013-12-29"), "unix", nil),
        (.bool(true), "unix", nil),
    ])
    func unixTime(input: TestScalar, dateFormat: String?, expected: String?) {
        #expect(converted(input, to: .date, dateFormat: dateFormat) == expected.map(ColumnValue.text))
    }

    @Test func unixTimeMessages() {
        #expect(conversionMessage(.string("abc"), to: .date, dateFormat: "unix")
            == #"cannot convert "abc" to date: not Unix seconds"#)
        #expect(conversionMessage(.string("abc"), to: .date, dateFormat: "UnixTime")
            == #"cannot convert "abc" to date: not Unix milliseconds"#)
        #expect(conversionMessage(.number("1e30"), to: .date)
            == "cannot convert 1e30 to date: outside the years 0000…9999")
    }

    @Test("dateFormat patterns", arguments: [
        // (dateFormat, input, expected)
        ("M/d/yyyy H-mm-ss", "8/5/2011 1-56-04", String?.some("2011-08-05T01:56:04Z")),
        ("M/d/yyyy H-mm-ss", "12/31/2011 23-59-59", "2011-12-31T23:59:59Z"),
        ("M/d/yyyy H-mm-ss", "08/05/2011 01-56-04", "2011-08-05T01:56:04Z"),
        ("yyyy-MM-dd'T'HH:mm:ssz", "2011-07-23T22:30:40Z", "2011-07-23T22:30:40Z"),
        ("yyyy-MM-dd'T'HH:mm:ssz", "2011-07-23T22:30:40GMT", "2011-07-23T22:30:40Z"),
        ("yyyy-MM-dd'T'HH:mm:ssz", "2011-07-23T22:30:40GMT+02:00", "2011-07-23T20:30:40Z"),
        ("yyyy-MM-dd'T'HH:mm:ssz", "2011-07-23T22:30:40UTC-7", "2011-07-24T05:30:40Z"),
        ("yyyy-MM-dd'T'HH:mm:ssz", "2011-07-23T22:30:40-0700", "2011-07-24T05:30:40Z"),
        ("dd/MM/yyyy", "23/07/2011", "2011-07-23T00:00:00Z"),
        ("dd/MM/yyyy", "3/7/2011", "2011-07-03T00:00:00Z"),
        ("d.M.yyyy", "29.2.2012", "2012-02-29T00:00:00Z"),
        ("yyyyMMdd", "20110723", "2011-07-23T00:00:00Z"),
        ("yyyyMMddHHmmss", "20110723223040", "2011-07-23T22:30:40Z"),
        ("yyyyMMddHHmmssSSS", "20110723223040123", "2011-07-23T22:30:40.123Z"),
        ("HHmm", "0930", "1970-01-01T09:30:00Z"),
        ("yy-MM-dd", "11-07-23", "2011-07-23T00:00:00Z"),
        ("yy-MM-dd", "68-01-01", "2068-01-01T00:00:00Z"),
        ("yy-MM-dd", "69-07-23", "1969-07-23T00:00:00Z"),
        ("yy-MM-dd", "99-12-31", "1999-12-31T00:00:00Z"),
        ("yy-MM-dd", "00-01-01", "2000-01-01T00:00:00Z"),
        ("yy-MM-dd", "2011-07-23", "2011-07-23T00:00:00Z"),
        ("yyMMdd", "110723", "2011-07-23T00:00:00Z"),
        ("y-M-d", "11-7-23", "0011-07-23T00:00:00Z"),
        ("MMM d, yyyy", "Jul 23, 2011", "2011-07-23T00:00:00Z"),
        ("MMM d, yyyy", "jul 23, 2011", "2011-07-23T00:00:00Z"),
        ("MMM d, yyyy", "JULY 23, 2011", "2011-07-23T00:00:00Z"),
        ("MMM d, yyyy", "May 1, 2011", "2011-05-01T00:00:00Z"),
        ("MMMM d, yyyy", "September 5, 2011", "2011-09-05T00:00:00Z"),
        ("MMMM d, yyyy", "Dec 5, 2011", "2011-12-05T00:00:00Z"),
        ("d MMMM yyyy", "1 june 2011", "2011-06-01T00:00:00Z"),
        ("EEE, dd MMM yyyy HH:mm:ss Z", "Sat, 23 Jul 2011 22:30:40 +0000", "2011-07-23T22:30:40Z"),
        ("EEE, dd MMM yyyy HH:mm:ss Z", "Sat, 23 Jul 2011 22:30:40 -0800", "2011-07-24T06:30:40Z"),
        ("EEE, dd MMM yyyy HH:mm:ss Z", "sat, 23 Jul 2011 22:30:40 Z", "2011-07-23T22:30:40Z"),
        ("EEEE, MMMM d, yyyy h:mm a", "Saturday, July 23, 2011 10:30 PM", "2011-07-23T22:30:00Z"),
        ("EEEE, MMMM d, yyyy h:mm a", "Thursday, July 23, 2011 10:30 am", "2011-07-23T10:30:00Z"),
        ("h:mm a", "12:05 AM", "1970-01-01T00:05:00Z"),
        ("h:mm a", "12:05 pm", "1970-01-01T12:05:00Z"),
        ("h:mm a", "1:00 Pm", "1970-01-01T13:00:00Z"),
        ("hh:mm", "12:30", "1970-01-01T00:30:00Z"),
        ("yyyy-MM-dd HH:mm:ss.SSS", "2011-07-23 22:30:40.5", "2011-07-23T22:30:40.500Z"),
        ("yyyy-MM-dd HH:mm:ss.SSS", "2011-07-23 22:30:40.123456", "2011-07-23T22:30:40.123456Z"),
        ("yyyy-MM-dd HH:mm:ss.S", "2011-07-23 22:30:40.000", "2011-07-23T22:30:40Z"),
        ("yyyy-MM-dd'T'HH:mm:ss.SSSXXX", "2011-07-23T22:30:40.123-08:00", "2011-07-24T06:30:40.123Z"),
        ("yyyy-MM-dd'T'HH:mm:ss.SSSXXX", "2011-07-23T22:30:40.123Z", "2011-07-23T22:30:40.123Z"),
        ("yyyy-MM-dd'T'HH:mm:ssX", "2011-07-23T22:30:40+02", "2011-07-23T20:30:40Z"),
        ("yyyy-MM-dd'T'HH:mm:ssXX", "2011-07-23T22:30:40+0230", "2011-07-23T20:00:40Z"),
        ("yyyy-MM-dd'T'HH:mm:ssZZZZZ", "2011-07-23T22:30:40-08:00", "2011-07-24T06:30:40Z"),
        ("HH 'o''clock'", "10 o'clock", "1970-01-01T10:00:00Z"),
        ("''yyyy''", "'2011'", "2011-01-01T00:00:00Z"),
        ("'Year' yyyy", "Year 2011", "2011-01-01T00:00:00Z"),
        ("yyyy年M月d日", "2011年7月23日", "2011-07-23T00:00:00Z"),
        // Spaces and tabs at the ends are dropped before the pattern is matched.
        ("M/d/yyyy H-mm-ss", "8/5/2011 1-56-04 ", "2011-08-05T01:56:04Z"),
        // Rejected.
        ("M/d/yyyy H-mm-ss", "8/5/2011", nil),
        ("M/d/yyyy H-mm-ss", "8/5/2011 1:56:04", nil),
        ("M/d/yyyy H-mm-ss", "13/5/2011 1-56-04", nil),
        ("M/d/yyyy H-mm-ss", "8/5/2011 24-00-00", nil),
        ("M/d/yyyy H-mm-ss", "8/5/2011 1-60-00", nil),
        ("M/d/yyyy H-mm-ss", "8/5/2011 1-56-60", nil),
        ("d.M.yyyy", "29.2.2011", nil),
        ("d.M.yyyy", "31.4.2011", nil),
        ("yyyyMMdd", "2011723", nil),
        ("yyyy-MM-dd", "2011-07-23x", nil),
        ("yyyy-MM-dd", "", nil),
        ("MMM d, yyyy", "Foo 23, 2011", nil),
        ("MMM d, yyyy", "Sept 23, 2011", nil),
        ("h:mm a", "13:00 PM", nil),
        ("h:mm a", "0:00 AM", nil),
        ("h:mm a", "1:00", nil),
        ("HH:mm", "24:00", nil),
        ("EEE yyyy", "Sam 2011", nil),
        ("yyyy-MM-dd'T'HH:mm:ssZ", "2011-07-23T22:30:40+25:00", nil),
        ("yyyy-MM-dd'T'HH:mm:ssZ", "2011-07-23T22:30:40PST", nil),
        ("'Year' yyyy", "year 2011", nil),
    ])
    func pattern(dateFormat: String, input: String, expected: String?) {
        #expect(converted(.string(input), to: .date, dateFormat: dateFormat) == expected.map(ColumnValue.text))
    }

    @Test func patternMessages() {
        #expect(conversionMessage(.string("8/5/2011"), to: .date, dateFormat: "M/d/yyyy H-mm-ss")
            == #"cannot convert "8/5/2011" to date: does not match dateFormat "M/d/yyyy H-mm-ss""#)
        #expect(conversionMessage(.string("29.2.2011"), to: .date, dateFormat: "d.M.yyyy")
            == #"cannot convert "29.2.2011" to date: day 29 out of range 1…28 for 02/2011"#)
        #expect(conversionMessage(.string("13:00 PM"), to: .date, dateFormat: "h:mm a")
            == #"cannot convert "13:00 PM" to date: hour 13 out of range 1…12"#)
    }

    @Test("invalid dateFormat patterns", arguments: [
        ("", #"invalid dateFormat "": empty pattern"#),
        ("yyyy-MM-dd 'T", #"invalid dateFormat "yyyy-MM-dd 'T": unterminated quote"#),
        ("yyyy-QQ", #"invalid dateFormat "yyyy-QQ": unsupported pattern letter 'Q'"#),
        ("yyyy G", #"invalid dateFormat "yyyy G": unsupported pattern letter 'G'"#),
        ("HH:mm:ss k", #"invalid dateFormat "HH:mm:ss k": unsupported pattern letter 'k'"#),
        ("ddd", #"invalid dateFormat "ddd": pattern ddd is not supported"#),
        ("MMMMM yyyy", #"invalid dateFormat "MMMMM yyyy": pattern MMMMM is not supported"#),
        ("EEEEE", #"invalid dateFormat "EEEEE": pattern EEEEE is not supported"#),
    ])
    func invalidPattern(dateFormat: String, message: String) {
        #expect(throws: ConversionError(message)) {
            try ValueConverter(type: .date, dateFormat: dateFormat)
        }
    }

    @Test func compiledOnce() throws {
        let converter = try ValueConverter(type: .date, dateFormat: "M/d/yyyy H-mm-ss")
        guard case .pattern(let pattern) = converter.dateInput else {
            Issue.record("expected a compiled pattern")
            return
        }
        #expect(pattern.tokens == [
            .number(.month, minimum: 1, maximum: 2), .literal(Array("/".utf8)),
            .number(.day, minimum: 1, maximum: 2), .literal(Array("/".utf8)),
            .number(.year, minimum: 1, maximum: 4), .literal(Array(" ".utf8)),
            .number(.hour, minimum: 1, maximum: 2), .literal(Array("-".utf8)),
            .number(.minute, minimum: 1, maximum: 2), .literal(Array("-".utf8)),
            .number(.second, minimum: 1, maximum: 2),
        ])
    }

    /// The dates of MagicalRecord's SingleEntityWithNoRelationships.json fixture, with the
    /// dateFormats of its TestModel (`dateWithCustomFormat`: `M/d/yyyy H-mm-ss`,
    /// `unixTime13TestAttribute`: `UnixTime`) and the instants expectations.json asserts.
    @Test func magicalRecordFixture() {
        #expect(converted(.string("2011-07-23T22:30:40Z"), to: .date) == .text("2011-07-23T22:30:40Z"))
        #expect(converted(.string("8/5/2011 1-56-04"), to: .date, dateFormat: "M/d/yyyy H-mm-ss")
            == .text("2011-08-05T01:56:04Z"))
        #expect(converted(.number("1388349428"), to: .date) == .text("2013-12-29T20:37:08Z"))
        #expect(converted(.number("1388349427543"), to: .date, dateFormat: "UnixTime")
            == .text("2013-12-29T20:37:07.543Z"))
        // The epochs expectations.json gives for the first two.
        #expect(converted(.number("1311460240"), to: .date) == .text("2011-07-23T22:30:40Z"))
        #expect(converted(.number("1312509364"), to: .date) == .text("2011-08-05T01:56:04Z"))
    }

    @Test func civilDaysRoundTrip() {
        for days in stride(from: CivilTime.earliest / CivilTime.secondsPerDay,
                           through: CivilTime.latest / CivilTime.secondsPerDay, by: 1) {
            let (year, month, day) = CivilTime.civilFromDays(days)
            guard CivilTime.daysFromCivil(year: year, month: month, day: day) == days,
                  (1...CivilTime.daysInMonth(year: year, month: month)).contains(day)
            else {
                Issue.record("day \(days) -> \(year)-\(month)-\(day)")
                return
            }
        }
        #expect(CivilTime.daysFromCivil(year: 1970, month: 1, day: 1) == 0)
        #expect(CivilTime.daysFromCivil(year: 2000, month: 3, day: 1) == 11_017)
        #expect(CivilTime.earliest == -62_167_219_200)
        #expect(CivilTime.latest == 253_402_300_799)
    }
}
