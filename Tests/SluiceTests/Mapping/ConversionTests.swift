import Testing
@testable import Sluice

/// `docs/import-semantics.md` conversions for every type but dates (see `DateConversionTests`). Each table pairs
/// an input with the stored value, or nil where the conversion must fail.
@Suite("Conversion")
struct ConversionTests {
    @Test("null is NULL for every type", arguments: AttributeType.allCases)
    func nullIsNull(type: AttributeType) {
        #expect(converted(.null, to: type) == .null)
    }

    @Test("string", arguments: [
        (TestScalar.string("This is a test value"), ColumnValue?.some(.text("This is a test value"))),
        (.string(""), .text("")),
        (.string("héllo ☃"), .text("héllo ☃")),
        (.number("10248909829"), .text("10248909829")),
        (.number("1.50"), .text("1.50")),
        (.number("1e3"), .text("1e3")),
        (.number("-0"), .text("-0")),
        (.bool(true), .text("true")),
        (.bool(false), .text("false")),
    ])
    func string(input: TestScalar, expected: ColumnValue?) {
        #expect(converted(input, to: .string) == expected)
    }

    @Test("integer", arguments: [
        (TestScalar.number("42"), ColumnValue?.some(.integer(42))),
        (.number("0"), .integer(0)),
        (.number("-0"), .integer(0)),
        (.number("-7"), .integer(-7)),
        (.number("12.0"), .integer(12)),
        (.number("12.000"), .integer(12)),
        (.number("1e3"), .integer(1000)),
        (.number("1E+3"), .integer(1000)),
        (.number("1.5e1"), .integer(15)),
        (.number("120e-1"), .integer(12)),
        (.number("100e-2"), .integer(1)),
        (.number("0.0e0"), .integer(0)),
        (.number("0e999999999999"), .integer(0)),
        (.number("0.5e1"), .integer(5)),
        (.number("10158365420975381"), .integer(10_158_365_420_975_381)),
        (.number("9223372036854775807"), .integer(.max)),
        (.number("-9223372036854775808"), .integer(.min)),
        (.number("922337203685477580.7e1"), .integer(.max)),
        (.number("-9.223372036854775808e18"), .integer(.min)),
        (.string("42"), .integer(42)),
        (.string("-7"), .integer(-7)),
        (.string("1e3"), .integer(1000)),
        (.string("12.0"), .integer(12)),
        (.string("9223372036854775807"), .integer(.max)),
        (.string("-9223372036854775808"), .integer(.min)),
        (.bool(true), .integer(1)),
        (.bool(false), .integer(0)),
        // Rejected: fractions, overflow, junk.
        (.number("1.5"), nil),
        (.number("0.1"), nil),
        (.number("1e-1"), nil),
        (.number("123e-2"), nil),
        (.number("1e-999999999"), nil),
        (.number("9223372036854775808"), nil),
        (.number("-9223372036854775809"), nil),
        (.number("18446744073709551616"), nil),
        (.number("99999999999999999999999"), nil),
        (.number("1e19"), nil),
        (.number("1e999999999999"), nil),
        (.string("9223372036854775808"), nil),
        (.string(""), nil),
        (.string("abc"), nil),
        (.string("0x10"), nil),
        (.string(".5"), nil),
        (.string("1e"), nil),
        (.string("-"), nil),
        (.string("+"), nil),
        (.string("."), nil),
        (.string("+-1"), nil),
        (.string("1,000"), nil),
        (.string("1 000"), nil),
        (.string("1_000"), nil),
        (.string(" "), nil),
        (.string("NaN"), nil),
        (.string("١٢"), nil),
        (.string("1.50"), nil),
        // Text as writers write numbers (a CSV field, a JSON string): leading zeros, a `+`,
        // no digit after the point, spaces and tabs at the ends (`NumberText.written`).
        (.string(" 42"), .integer(42)),
        (.string("42 "), .integer(42)),
        (.string("\t42\t"), .integer(42)),
        (.string("+42"), .integer(42)),
        (.string("007"), .integer(7)),
        (.string("01"), .integer(1)),
        (.string("-007"), .integer(-7)),
        (.string("00"), .integer(0)),
        (.string("+0"), .integer(0)),
        (.string("1."), .integer(1)),
        (.string("0001.000"), .integer(1)),
        (.string("000000000000000000000000000042"), .integer(42)),
        (.string("-0009223372036854775808"), .integer(.min)),
        (.string("00009223372036854775808"), nil),
    ])
    func integer(input: TestScalar, expected: ColumnValue?) {
        #expect(converted(input, to: .integer) == expected)
    }

    @Test func integerMessages() {
        #expect(conversionMessage(.string("abc"), to: .integer) == #"cannot convert "abc" to integer"#)
        #expect(conversionMessage(.string(""), to: .integer) == #"cannot convert "" to integer"#)
        #expect(conversionMessage(.number("1.5"), to: .integer) == "cannot convert 1.5 to integer: not a whole number")
        #expect(conversionMessage(.number("9223372036854775808"), to: .integer)
            == "cannot convert 9223372036854775808 to integer: out of the 64-bit range")
        #expect(conversionMessage(.string("-9223372036854775809"), to: .integer)
            == #"cannot convert "-9223372036854775809" to integer: out of the 64-bit range"#)
    }

    @Test func messagesShowAnExcerptOnOneLine() {
        let long = String(repeating: "a", count: 50)
        #expect(conversionMessage(.string(long), to: .integer)
            == "cannot convert \"\(String(repeating: "a", count: 40))…\" to integer")
        // The cut never splits a character: 39 ASCII bytes, then a 2-byte "é" that would end at 41.
        let accented = String(repeating: "a", count: 39) + "éé"
        #expect(conversionMessage(.string(accented), to: .integer)
            == "cannot convert \"\(String(repeating: "a", count: 39))…\" to integer")
        #expect(conversionMessage(.string("a\nb\"c"), to: .integer) == #"cannot convert "a\nb\"c" to integer"#)
        #expect(conversionMessage(.number("1." + String(repeating: "0", count: 45) + "5"), to: .integer)
            == "cannot convert 1.\(String(repeating: "0", count: 38))… to integer: not a whole number")
    }

    @Test("double", arguments: [
        (TestScalar.number("124.3"), ColumnValue?.some(.real(124.3))),
        (.number("10000000000"), .real(10_000_000_000)),
        (.number("0"), .real(0)),
        (.number("-0"), .real(-0.0)),
        (.number("-12"), .real(-12)),
        (.number("0.1"), .real(0.1)),
        (.number("1e3"), .real(1000)),
        (.number("1E-3"), .real(0.001)),
        (.number("-2.5e+2"), .real(-250)),
        (.number("0e-400"), .real(0)),
        (.number("0.000e-400"), .real(0)),
        (.number("5e-324"), .real(.leastNonzeroMagnitude)),
        (.number("9007199254740993"), .real(9_007_199_254_740_992)),
        (.number("1.7976931348623157e308"), .real(.greatestFiniteMagnitude)),
        (.string("124.3"), .real(124.3)),
        (.string("10000000000"), .real(10_000_000_000)),
        (.string("-1e5"), .real(-100_000)),
        (.bool(true), .real(1)),
        (.bool(false), .real(0)),
        // Rejected: not finite, not the JSON number grammar.
        (.number("1e400"), nil),
        (.number("-1e400"), nil),
        // Rejected: nonzero, yet 0 as a double (it would merge with a real 0).
        (.number("1e-400"), nil),
        (.number("-1e-400"), nil),
        (.string("1e-400"), nil),
        (.number("0.0000000000000000000000000001e-330"), nil),
        (.string("1e400"), nil),
        (.string("inf"), nil),
        (.string("Infinity"), nil),
        (.string("nan"), nil),
        (.string("NaN"), nil),
        (.string("0x10"), nil),
        (.string(""), nil),
        (.string("1,5"), nil),
        (.string("abc"), nil),
        (.string(".e5"), nil),
        (.string("- 1"), nil),
        // Text as writers write numbers.
        (.string(" 1"), .real(1)),
        (.string("1 "), .real(1)),
        (.string("+1"), .real(1)),
        (.string("1."), .real(1)),
        (.string(".5"), .real(0.5)),
        (.string("-.5"), .real(-0.5)),
        (.string("+.5e1"), .real(5)),
        (.string("007.25"), .real(7.25)),
        (.string("-0"), .real(-0.0)),
        (.string("+12345678901234567.5"), .real(12_345_678_901_234_568)),
        (.string("000000000000000000000.1"), .real(0.1)),
        (.string("1e"), nil),
    ])
    func double(input: TestScalar, expected: ColumnValue?) {
        #expect(converted(input, to: .double) == expected)
    }

    @Test func doubleMessages() {
        #expect(conversionMessage(.string("nan"), to: .double) == #"cannot convert "nan" to double"#)
        #expect(conversionMessage(.number("1e400"), to: .double) == "cannot convert 1e400 to double: out of the double range")
        #expect(conversionMessage(.number("1e-400"), to: .double)
            == "cannot convert 1e-400 to double: too close to zero for a double (it would be stored as 0)")
    }

    @Test("decimal", arguments: [
        (TestScalar.number("1.2"), ColumnValue?.some(.text("1.2"))),
        (.number("1.20"), .text("1.20")),
        (.number("10158365420975381"), .text("10158365420975381")),
        (.number("123456789012345678901234567890.123456789"), .text("123456789012345678901234567890.123456789")),
        (.number("-0"), .text("-0")),
        (.number("1e-7"), .text("1e-7")),
        (.string("1.2"), .text("1.2")),
        (.string("-3.14E2"), .text("-3.14E2")),
        // Rejected.
        (.bool(true), nil),
        (.bool(false), nil),
        (.string(""), nil),
        (.string("1,2"), nil),
        (.string("1.2.3"), nil),
        (.string("abc"), nil),
        (.string("NaN"), nil),
        // Text as writers write numbers: its digits as written, in the JSON grammar's spelling.
        (.string(" 1"), .text("1")),
        (.string("007.50"), .text("7.50")),
        (.string("+.5"), .text("0.5")),
        (.string("-5."), .text("-5")),
        (.string("+1E3"), .text("1e3")),
    ])
    func decimal(input: TestScalar, expected: ColumnValue?) {
        #expect(converted(input, to: .decimal) == expected)
    }

    @Test func decimalMessages() {
        #expect(conversionMessage(.bool(true), to: .decimal) == "cannot convert true to decimal")
        #expect(conversionMessage(.string("1,2"), to: .decimal) == #"cannot convert "1,2" to decimal"#)
    }

    @Test("boolean", arguments: [
        (TestScalar.bool(true), ColumnValue?.some(.integer(1))),
        (.bool(false), .integer(0)),
        (.number("0"), .integer(0)),
        (.number("-0"), .integer(0)),
        (.number("0.0"), .integer(0)),
        (.number("0e5"), .integer(0)),
        (.number("-0.000E-3"), .integer(0)),
        (.number("1"), .integer(1)),
        (.number("-1"), .integer(1)),
        (.number("2"), .integer(1)),
        (.number("0.5"), .integer(1)),
        (.number("1e-9"), .integer(1)),
        (.string("true"), .integer(1)),
        (.string("TRUE"), .integer(1)),
        (.string(" True "), .integer(1)),
        (.string("\tN"), .integer(0)),
        (.string("Yes"), .integer(1)),
        (.string("y"), .integer(1)),
        (.string("T"), .integer(1)),
        (.string("1"), .integer(1)),
        (.string("false"), .integer(0)),
        (.string("FaLsE"), .integer(0)),
        (.string("No"), .integer(0)),
        (.string("N"), .integer(0)),
        (.string("f"), .integer(0)),
        (.string("0"), .integer(0)),
        // Rejected.
        (.string(""), nil),
        (.string("2"), nil),
        (.string("0.0"), nil),
        (.string("yes "), .integer(1)),
        (.string(" yes"), .integer(1)),
        (.string(" "), nil),
        (.string("on"), nil),
        (.string("off"), nil),
        (.string("truee"), nil),
        (.string("maybe"), nil),
    ])
    func boolean(input: TestScalar, expected: ColumnValue?) {
        #expect(converted(input, to: .boolean) == expected)
    }

    @Test func booleanMessages() {
        #expect(conversionMessage(.string("maybe"), to: .boolean) == #"cannot convert "maybe" to boolean"#)
    }

    @Test("uuid", arguments: [
        (TestScalar.string("6BA7B810-9DAD-11D1-80B4-00C04FD430C8"),
         ColumnValue?.some(.text("6ba7b810-9dad-11d1-80b4-00c04fd430c8"))),
        (.string("6ba7b810-9dad-11d1-80b4-00c04fd430c8"), .text("6ba7b810-9dad-11d1-80b4-00c04fd430c8")),
        (.string("00000000-0000-0000-0000-000000000000"), .text("00000000-0000-0000-0000-000000000000")),
        // Rejected.
        (.string("{6ba7b810-9dad-11d1-80b4-00c04fd430c8}"), nil),
        (.string("urn:uuid:6ba7b810-9dad-11d1-80b4-00c04fd430c8"), nil),
        (.string("6ba7b8109dad11d180b400c04fd430c8"), nil),
        (.string("6ba7b810-9dad-11d1-80b4-00c04fd430c"), nil),
        (.string("6ba7b810-9dad-11d1-80b4-00c04fd430c8a"), nil),
        (.string("6ba7b810-9dad-11d1-80b4-00c04fd430cg"), nil),
        (.string("6ba7b810_9dad-11d1-80b4-00c04fd430c8"), nil),
        (.string(""), nil),
        (.number("42"), nil),
        (.bool(true), nil),
    ])
    func uuid(input: TestScalar, expected: ColumnValue?) {
        #expect(converted(input, to: .uuid) == expected)
    }

    @Test("binary", arguments: [
        (TestScalar.string(""), ColumnValue?.some(.blob([]))),
        (.string("AA=="), .blob([0])),
        (.string("AA"), .blob([0])),
        (.string("AAE="), .blob([0, 1])),
        (.string("AAE"), .blob([0, 1])),
        (.string("AAEC"), .blob([0, 1, 2])),
        (.string("SGVsbG8="), .blob(Array("Hello".utf8))),
        (.string("SGVsbG8sIHdvcmxkIQ=="), .blob(Array("Hello, world!".utf8))),
        (.string("+/8="), .blob([0xFB, 0xFF])),
        (.string("-_8"), .blob([0xFB, 0xFF])),
        (.string("-_8="), .blob([0xFB, 0xFF])),
        // Rejected.
        (.string("A"), nil),
        (.string("AAAAA"), nil),
        (.string("A==="), nil),
        (.string("AA="), nil),
        (.string("AA==A"), nil),
        (.string("AA==AA=="), nil),
        (.string("AA AA"), nil),
        (.string("SGVsbG8=\n"), nil),
        (.string("*AAA"), nil),
        (.number("42"), nil),
        (.bool(true), nil),
    ])
    func binary(input: TestScalar, expected: ColumnValue?) {
        #expect(converted(input, to: .binary) == expected)
    }

    @Test func binaryMessages() {
        #expect(conversionMessage(.string("A"), to: .binary) == #"cannot convert "A" to binary: not base64"#)
        #expect(conversionMessage(.number("42"), to: .binary) == "cannot convert 42 to binary")
    }

    @Test("json", arguments: [
        (TestScalar.string("abc"), ColumnValue?.some(.text(#""abc""#))),
        (.string("a\"b\\c\n\t\r\u{8}\u{c}\u{1}\u{1f}\u{7f}é☃"), .text(#""a\"b\\c\n\t\r\b\f\u0001\u001f"# + "\u{7f}é☃\"")),
        (.string("/"), .text(#""/""#)),
        (.number("1.50"), .text("1.50")),
        (.number("-1E+3"), .text("-1E+3")),
        (.bool(true), .text("true")),
        (.bool(false), .text("false")),
    ])
    func json(input: TestScalar, expected: ColumnValue?) {
        #expect(converted(input, to: .json) == expected)
    }

    @Test func dateFormatOnlyForDates() {
        #expect(conversionMessage(.string("1"), to: .integer, dateFormat: "yyyy")
            == "dateFormat applies only to date attributes, not integer")
    }

    /// The non-date values of MagicalRecord's SingleEntityWithNoRelationships.json fixture.
    @Test func magicalRecordFixture() {
        #expect(converted(.number("10158365420975381"), to: .integer) == .integer(10_158_365_420_975_381))
        #expect(converted(.string("This is a test value"), to: .string) == .text("This is a test value"))
        #expect(converted(.number("32"), to: .integer) == .integer(32))
        #expect(converted(.number("256"), to: .integer) == .integer(256))
        #expect(converted(.number("1.2"), to: .decimal) == .text("1.2"))
        #expect(converted(.number("124.3"), to: .double) == .real(124.3))
        #expect(converted(.number("10000000000"), to: .double) == .real(10_000_000_000))
        #expect(converted(.bool(false), to: .boolean) == .integer(0))
        #expect(converted(.null, to: .integer) == .null)
        #expect(converted(.string("42"), to: .integer) == .integer(42))
        #expect(converted(.string("1.2"), to: .decimal) == .text("1.2"))
        #expect(converted(.string("124.3"), to: .double) == .real(124.3))
        #expect(converted(.string("10000000000"), to: .double) == .real(10_000_000_000))
        #expect(converted(.number("10248909829"), to: .string) == .text("10248909829"))
        #expect(converted(.string("true"), to: .boolean) == .integer(1))
    }
}

extension ConversionTests {
    /// In-memory values (an attribute's `default`) convert as the same input would.
    @Test func jsonValues() throws {
        let integer = try ValueConverter(type: .integer)
        #expect(try integer.convert(JSONValue.number("1e3")) == .integer(1000))
        #expect(try integer.convert(JSONValue.string("42")) == .integer(42))
        #expect(try integer.convert(JSONValue.bool(true)) == .integer(1))
        #expect(try integer.convert(JSONValue.null) == .null)
        #expect(throws: ConversionError(message: #"cannot convert "x" to integer"#)) {
            try integer.convert(JSONValue.string("x"))
        }
        #expect(throws: ConversionError(message: "cannot convert an array to integer")) {
            try integer.convert(JSONValue.array([]))
        }
        #expect(throws: ConversionError(message: "cannot convert an object to integer")) {
            try integer.convert(JSONValue.object([]))
        }

        let json = try ValueConverter(type: .json)
        let value = JSONValue.object([
            .init("a", .array([.number("1.50"), .bool(false), .null, .string("q\"")])),
            .init("b", .object([])),
            .init("a", .number("2")),
        ])
        #expect(try json.convert(value) == .text(#"{"a":[1.50,false,null,"q\""],"b":{},"a":2}"#))
        #expect(try json.convert(JSONValue.string("s")) == .text(#""s""#))

        let date = try ValueConverter(type: .date, dateFormat: "d.M.yyyy")
        #expect(try date.convert(JSONValue.string("29.2.2012")) == .text("2012-02-29T00:00:00Z"))
    }
}
