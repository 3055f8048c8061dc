// The fuzz target compiles this file with PropertyRandom in its own module (Fuzz/README.md).
#if canImport(SluiceTestSupport)
import SluiceTestSupport
#endif

/// The values records are made of: for each type some that convert and some that do not,
/// and values of other kinds. Strings reach a type only from its own pool, so the oracle
/// never has to guess how a lenient parser treats text it was not written for.
enum PropertyValues {
    /// Number texts: integral and not, beyond 64 bits, exponents, negative zero.
    static let numbers = [
        "0", "-0", "42", "-17", "12.0", "1e3", "1E+3", "1.5", "2.50", "-2.25E-1", "9223372036854775807",
        "-9223372036854775808", "9223372036854775808", "1e20", "10248909829", "0.0", "3",
        "32767", "-32768", "40000", "2147483648", "-2147483648", "1700000000123", "-0.5",
    ]

    static let texts = [
        "plain", "", "é", "日本語", "😀 astral 𝄞", "tab\tnew\nline", "quote\" back\\slash /", "  spaced  ",
        "\u{FFFF}\u{10FFFF}", "e\u{301}", "null", "42",
    ]

    static let numericStrings = ["42", "-17", "12.0", "1e3", "1.5", "0", "-0", "9223372036854775808", "2.50"]
    static let junkNumbers = ["abc", "0x10", "", "1,000", "1,5", "NaN", "4 2", "+-1", "."]
    static let booleanWords = ["true", "YES", "y", "T", "1", "false", "No", "n", "F", "0", "2", "0.0", "maybe", ""]

    /// ISO 8601 strings and what the engine stores for them (nil: a record error).
    static let dates: [(String, String?)] = [
        ("2024-01-05", "2024-01-05T00:00:00Z"), ("2020-02-02", "2020-02-02T00:00:00Z"),
        ("2024-02-29T12:30:00Z", "2024-02-29T12:30:00Z"),
        ("2024-01-05T10:20:30.250+01:00", "2024-01-05T09:20:30.250Z"),
        ("1999-12-31 23:59", "1999-12-31T23:59:00Z"),
        ("2000-01-01T00:00:00.5-0230", "2000-01-01T02:30:00.500Z"),
        ("20240105", "2024-01-05T00:00:00Z"),
        ("2023-02-29", nil), ("2024-13-01", nil), ("yesterday", nil), ("", nil), ("2024-01-05T25:00", nil),
    ]

    /// `dateFormat`s, with strings and what the engine stores for them (nil: a record error);
    /// `unix` and `unix-ms` read numeric strings, which the oracle computes.
    static let dateFormats: [(format: String, values: [(String, String?)])] = [
        ("M/d/yyyy", [
            ("1/5/2024", "2024-01-05T00:00:00Z"), ("12/31/1999", "1999-12-31T00:00:00Z"),
            ("02/29/2024", "2024-02-29T00:00:00Z"), ("2/29/2023", nil), ("13/1/2024", nil),
            ("2024-01-05", nil), ("1/5/2024 ", "2024-01-05T00:00:00Z"), ("", nil),
        ]),
        ("dd.MM.yy HH:mm", [
            ("05.01.24 10:20", "2024-01-05T10:20:00Z"), ("31.12.69 23:59", "1969-12-31T23:59:00Z"),
            ("01.01.68 00:00", "2068-01-01T00:00:00Z"), ("05.01.24 24:00", nil), ("05.01.24", nil),
        ]),
        ("yyyyMMdd'T'HHmmss.SSSZ", [
            ("20240105T102030.250+0100", "2024-01-05T09:20:30.250Z"),
            ("20240105T102030.2509Z", "2024-01-05T10:20:30.250900Z"),
            ("20240105T102030.000-02:30", "2024-01-05T12:50:30Z"), ("202401T102030.000Z", nil),
            ("2024015T102030.000Z", "2024-01-05T10:20:30Z"),
        ]),
        ("h:mm a, EEE d MMM yyyy", [
            ("3:05 PM, Fri 5 Jan 2024", "2024-01-05T15:05:00Z"), ("12:00 am, Mon 1 January 2024", "2024-01-01T00:00:00Z"),
            ("12:30 PM, Sun 31 Dec 2023", "2023-12-31T12:30:00Z"), ("13:00 PM, Fri 5 Jan 2024", nil),
            ("3:05 XM, Fri 5 Jan 2024", nil),
        ]),
        ("'d'''yyyy-MM-dd", [("d'2024-01-05", "2024-01-05T00:00:00Z"), ("2024-01-05", nil)]),
        ("unix", [("1700000000", "2023-11-14T22:13:20Z"), ("abc", nil), ("1,5", nil)]),
        ("unix-ms", [("86400000", "1970-01-02T00:00:00Z"), ("1.9", "1970-01-01T00:00:00.001900Z"), ("x", nil)]),
        ("UnixTime", [("1700000000123", "2023-11-14T22:13:20.123Z"), ("", nil)]),
    ]

    static let uuids = [
        "123e4567-e89b-12d3-a456-426614174000", "ABCDEF01-2345-6789-ABCD-EF0123456789",
        "00000000-0000-0000-0000-000000000000", "aBcDeF01-2345-6789-aBcD-eF0123456789",
    ]
    static let badUUIDs = ["not-a-uuid", "ABCDEF01-2345-6789-ABCD-EF012345678", "{123e4567-e89b-12d3-a456-426614174000}", ""]

    /// Base64 texts and their bytes.
    static let base64: [(String, [UInt8])] = [
        ("aGk=", Array("hi".utf8)), ("", []), ("AAECAwQ=", [0, 1, 2, 3, 4]), ("/+8=", [0xFF, 0xEF]),
        ("c2x1aWNl", Array("sluice".utf8)),
    ]
    static let badBase64 = ["not base64!", "é", "a"]

    static func defaultValue(for attribute: PropertyModel.Attribute) -> PropertyJSON {
        if let format = attribute.dateFormat {
            return .string(dateFormats.first { $0.format == format }!.values[0].0)
        }
        switch attribute.type {
        case .string: return .string("dflt é")
        case .integer: return .number("7")
        case .double: return .number("2.5")
        case .decimal: return .string("3.10")
        case .boolean: return .bool(true)
        case .date: return .string("2020-02-02")
        case .uuid: return .string("123E4567-E89B-12D3-A456-426614174000")
        case .binary: return .string("aGk=")
        case .json: return .object([("d", .array([.number("1"), .string("x")]))])
        }
    }

    /// A value for an attribute of `type`: mostly one that converts, sometimes one of another
    /// kind, an object or an array.
    static func value(for attribute: PropertyModel.Attribute, valid: Bool, _ random: inout PropertyRandom) -> PropertyJSON {
        if !valid {
            switch random.below(6) {
            case 0: return .object([("x", .number("1"))])
            case 1: return .array([.number("1")])
            case 2: return .bool(random.chance(50))
            case 3: return .number(random.pick(numbers))
            default: break
            }
        }
        switch attribute.type {
        case .string:
            return random.chance(80) ? .string(random.pick(texts)) : .number(random.pick(numbers))
        case .integer, .double, .decimal:
            if !valid { return .string(random.pick(junkNumbers)) }
            return random.chance(60) ? .number(random.pick(numbers)) : .string(random.pick(numericStrings))
        case .boolean:
            if random.chance(60) { return .bool(random.chance(50)) }
            return random.chance(70) ? .string(random.pick(booleanWords)) : .number(random.pick(numbers))
        case .date:
            if random.chance(25) { return .number(random.pick(numbers)) }
            if let format = attribute.dateFormat {
                if random.chance(20) { return .string(random.pick(numericStrings)) }
                return .string(random.pick(dateFormats.first { $0.format == format }!.values).0)
            }
            return .string(random.pick(dates).0)
        case .uuid:
            return .string(valid ? random.pick(uuids) : random.pick(badUUIDs))
        case .binary:
            return .string(valid ? random.pick(base64).0 : random.pick(badBase64))
        case .json:
            return random.pick([
                .string(random.pick(texts)), .number(random.pick(numbers)), .bool(false), .null,
                .object([("a", .array([.number("1"), .number("2.50"), .string("é\n")])), ("b", .object([]))]),
                .array([]), .array([.null, .object([("k", .string("😀"))])]),
            ])
        }
    }
}
