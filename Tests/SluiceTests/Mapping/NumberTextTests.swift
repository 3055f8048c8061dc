import Testing
@testable import Sluice

/// `NumberText.exactDouble`: the fast path for doubles gives exactly what the text parser
/// gives, and steps aside when it could not be exact.
@Suite struct NumberTextTests {
    static func fast(_ text: String) -> Double? {
        Array(text.utf8).withUnsafeBytes { bytes in NumberText(bytes)?.exactDouble(in: bytes) }
    }

    @Test(arguments: ["0", "-0", "0.0", "1", "-1", "12.5", "0.1", "0.3", "3.14159", "123456789012345",
                      "1e22", "1e-22", "4.35e-7", "-2.5E+3", "999999999999999", "0.000000000000001",
                      "1.7976931348623157", "5e-324", "9007199254740993", "1e23", "1234567890123456"])
    func agreesWithTheTextParser(text: String) throws {
        let expected = try #require(Double(text))
        if let value = Self.fast(text) {
            #expect(value.bitPattern == expected.bitPattern, "\(text)")
        }
    }

    @Test func stepsAsideWhenItCannotBeExact() {
        #expect(Self.fast("9007199254740993") == nil)  // 16 digits
        #expect(Self.fast("1e23") == nil)              // 10^23 is not a double
        #expect(Self.fast("5e-324") == nil)
        #expect(Self.fast("12.5") == 12.5)
        #expect(Self.fast("-0")?.sign == .minus)
    }

    @Test func randomDecimalsAgree() throws {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20_000 {
            let digits = Int.random(in: 1...15, using: &generator)
            let mantissa = String(UInt64.random(in: 0..<1_000_000_000_000_000, using: &generator)).prefix(digits)
            let point = Int.random(in: 0...digits, using: &generator)
            var text = String(mantissa.prefix(point)) + (point < mantissa.count ? "." + mantissa.dropFirst(point) : "")
            if text.hasPrefix(".") { text = "0" + text }
            while text.count > 1 && text.hasPrefix("0") && !text.hasPrefix("0.") { text.removeFirst() }
            if Bool.random(using: &generator) { text += "e\(Int.random(in: -10...10, using: &generator))" }
            let expected = try #require(Double(text), "\(text)")
            guard let value = Self.fast(text) else { continue }
            #expect(value.bitPattern == expected.bitPattern, "\(text)")
        }
    }

    /// `NumberText.short`, the one-pass read of short plain numbers: where it answers, the
    /// general parse answers the same (integer and double, bit for bit); it refuses what the
    /// grammar refuses and steps aside for exponents and more than 15 digits.
    @Test(arguments: ["0", "-0", "0.5", "-0.0", "7", "42", "-42", "12.5", "888.5", "2178.0", "999999999999999",
                      "-99999999999999.9", "0.000000000000001", "1000000000000000", "1e3", "1.5E2", "00", "01",
                      "-01", "1.", ".5", "-.5", "-", "", "1.2.3", " 1", "1 ", "+1", "0x1", "1-", "12a"])
    func shortAgreesWithTheGeneralParse(text: String) {
        Array(text.utf8).withUnsafeBytes { bytes in
            let general = NumberText(bytes)
            guard let short = NumberText.short(bytes) else {
                let shortEnough = general.map { $0.exponent == 0 && $0.integerDigits.count + $0.fractionDigits.count <= 15 }
                #expect(shortEnough != true, "\(text) is short and plain: short(_:) should read it")
                return
            }
            guard let number = general else {
                Issue.record("\(text) is not a JSON number, yet short(_:) read it")
                return
            }
            let double = NumberText.double(digits: short.digits, fractionCount: short.fractionCount, negative: short.negative)
            #expect(double.bitPattern == number.exactDouble(in: bytes)?.bitPattern, "\(text)")
            if short.fractionCount == 0 {
                #expect(number.integer(in: bytes) == .value(short.negative ? -Int64(short.digits) : Int64(short.digits)))
            }
        }
    }
}

/// `NumberText.canonicalDecimal`: one spelling per value, the one PostgreSQL's `numeric` prints
/// for it, and nothing unbounded.
@Suite struct CanonicalDecimalTests {
    static func canonical(_ text: String, maxLength: Int = 1_000) -> String? {
        Array(text.utf8).withUnsafeBytes { bytes in NumberText(bytes)?.canonicalDecimal(in: bytes, maxLength: maxLength) }
    }

    @Test(arguments: [
        ("1", "1"), ("1.0", "1"), ("1.00", "1"), ("1e0", "1"), ("0.1e1", "1"), ("10e-1", "1"), ("100E-2", "1"),
        ("0", "0"), ("-0", "0"), ("-0.000", "0"), ("0e99", "0"), ("0.0e-99", "0"),
        ("1.5e3", "1500"), ("12.50", "12.5"), ("-12.50", "-12.5"), ("1e-3", "0.001"), ("-1E-3", "-0.001"),
        ("0.00120", "0.0012"), ("120", "120"), ("1.2e1", "12"), ("1.23e1", "12.3"), ("123e-1", "12.3"),
        ("12345678901234567890.1234567890123456789", "12345678901234567890.1234567890123456789"),
    ])
    func oneSpellingPerValue(text: String, expected: String) {
        #expect(Self.canonical(text) == expected, "\(text)")
    }

    @Test func longerThanTheLimitIsNil() {
        #expect(Self.canonical("1e999")?.utf8.count == 1_000)
        #expect(Self.canonical("1e1000") == nil)
        #expect(Self.canonical("1e-998")?.utf8.count == 1_000)
        #expect(Self.canonical("1e-999") == nil)
        #expect(Self.canonical("-1e998")?.utf8.count == 1_000)
        #expect(Self.canonical("-1e999") == nil)
        #expect(Self.canonical("1e1000000") == nil)
    }
}
