/// The values records are made of: for each type some that convert and some that do not,
/// and values of other kinds. Strings reach a type only from its own pool, so the oracle
/// never has to guess how a lenient parser treats text it was not written for.
enum PropertyValues {
    /// Number texts: integral and not, beyond 64 bits, exponents, negative zero.
    static let numbers = [
        "0", "-0", "42", "-17", "12.0", "1e3", "1E+3", "1.5", "2.50", "-2.25E-1", "9223372036854775807",
        "-9223372036854775808", "9223372036854775808", "1e20", "10248909829", "0.0", "3",
    ]

    static let texts = [
        "plain", "", "é", "日本語", "😀 astral 𝄞", "tab\tnew\nline", "quote\" back\\slash /", "  spaced  ",
        "\u{FFFF}\u{10FFFF}", "e\u{301}", "null", "42",
    ]

    static let numericStrings = ["42", "-17", "12.0", "1e3", "1.5", "0", "-0", "9223372036854775808", "2.50"]
    static let junkNumbers = [" 42", "abc", "0x10", "+1", "", "1.", ".5", "NaN", "4 2"]
    static let booleanWords = ["true", "YES", "y", "T", "1", "false", "No", "n", "F", "0", "2", "0.0", "maybe", ""]

    /// ISO 8601 strings and what the engine stores for them (nil: a record error).
    static let dates: [(String, String?)] = [
        ("2024-01-05", "2024-01-05T00:00:00Z"), ("2020-02-02", "2020-02-02T00:00:00Z"),
        ("2024-02-29T12:30:00Z", "2024-02-29T12:30:00Z"),
        ("2024-01-05T10:20:30.250+01:00", "2024-01-05T09:20:30.250Z"),
        ("1999-12-31 23:59", "1999-12-31T23:59:00Z"),
        ("2000-01-01T00:00:00.5-0230", "2000-01-01T02:30:00.500Z"),
        ("2023-02-29", nil), ("2024-13-01", nil), ("yesterday", nil), ("", nil), ("2024-01-05T25:00", nil),
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

    static func defaultValue(for type: PropertyModel.AttributeType) -> PropertyJSON {
        switch type {
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
    static func value(for type: PropertyModel.AttributeType, valid: Bool, _ random: inout PropertyRandom) -> PropertyJSON {
        if !valid {
            switch random.below(6) {
            case 0: return .object([("x", .number("1"))])
            case 1: return .array([.number("1")])
            case 2: return .bool(random.chance(50))
            case 3: return .number(random.pick(numbers))
            default: break
            }
        }
        switch type {
        case .string:
            return random.chance(80) ? .string(random.pick(texts)) : .number(random.pick(numbers))
        case .integer, .double, .decimal:
            if !valid { return .string(random.pick(junkNumbers)) }
            return random.chance(60) ? .number(random.pick(numbers)) : .string(random.pick(numericStrings))
        case .boolean:
            if random.chance(60) { return .bool(random.chance(50)) }
            return random.chance(70) ? .string(random.pick(booleanWords)) : .number(random.pick(numbers))
        case .date:
            return random.chance(75) ? .string(random.pick(dates).0) : .number(random.pick(numbers))
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
