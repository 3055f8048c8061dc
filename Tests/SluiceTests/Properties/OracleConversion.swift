/// A value as the oracle expects it in a column (SQLite's storage classes).
enum OracleValue: Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])

    /// Text that equal values share (negative zero is zero, as SQLite compares it).
    var rendered: String {
        switch self {
        case .null: return "NULL"
        case .integer(let value): return "i\(value)"
        case .real(let value): return "r\(value == 0 ? 0 : value)"
        case .text(let value):
            var out = "t"
            PropertyJSON.writeString(value, to: &out, escapeNonASCII: true)
            return out
        case .blob(let bytes): return "b" + bytes.map { String($0, radix: 16) }.joined(separator: ".")
        }
    }
}

/// SPEC section 4's conversions, written out plainly for the values `PropertyValues` makes.
/// Returns nil where the engine must report a record error.
enum OracleConversion {
    /// `convert(_:to:)` with the attribute's `dateFormat` and `bits`.
    static func convert(_ value: PropertyJSON, for attribute: PropertyModel.Attribute) -> OracleValue? {
        if case .null = value { return .null }
        if let bits = attribute.bits {
            guard case .integer(let number)? = convert(value, to: .integer) else { return nil }
            let limit = Int64(1) << (bits - 1)
            return number >= -limit && number < limit ? .integer(number) : nil
        }
        guard let format = attribute.dateFormat else { return convert(value, to: attribute.type) }
        let milliseconds = ["unix-ms", "unixtime"].contains(format.lowercased())
        switch value {
        case .number(let text): return unixTime(text, milliseconds: milliseconds).map { .text($0) }
        case .string(let text):
            if milliseconds || format.lowercased() == "unix" {
                return isNumberText(text) ? unixTime(text, milliseconds: milliseconds).map { .text($0) } : nil
            }
            let table = PropertyValues.dateFormats.first { $0.format == format }!.values
            return table.first { $0.0 == text }.flatMap { $0.1 }.map { .text($0) }
        default: return nil
        }
    }

    static func convert(_ value: PropertyJSON, to type: PropertyModel.AttributeType) -> OracleValue? {
        if case .null = value { return .null }
        switch (type, value) {
        case (.json, _): return .text(value.compactText)
        case (_, .object), (_, .array): return nil

        case (.string, .string(let text)): return .text(text)
        case (.string, .number(let text)): return .text(text)
        case (.string, .bool(let flag)): return .text(flag ? "true" : "false")

        case (.integer, .number(let text)): return exactInteger(text).map { .integer($0) }
        case (.integer, .string(let text)): return isNumberText(text) ? exactInteger(text).map { .integer($0) } : nil
        case (.integer, .bool(let flag)): return .integer(flag ? 1 : 0)

        case (.double, .number(let text)): return Double(text).map { .real($0) }
        case (.double, .string(let text)): return isNumberText(text) ? Double(text).map { .real($0) } : nil
        case (.double, .bool(let flag)): return .real(flag ? 1 : 0)

        case (.decimal, .number(let text)): return .text(text)
        case (.decimal, .string(let text)): return isNumberText(text) ? .text(text) : nil

        case (.boolean, .bool(let flag)): return .integer(flag ? 1 : 0)
        case (.boolean, .number(let text)): return .integer(isZero(text) ? 0 : 1)
        case (.boolean, .string(let text)):
            switch text.lowercased() {
            case "true", "yes", "y", "t", "1": return .integer(1)
            case "false", "no", "n", "f", "0": return .integer(0)
            default: return nil
            }

        case (.date, .string(let text)):
            return PropertyValues.dates.first { $0.0 == text }.flatMap { $0.1 }.map { .text($0) }
        case (.date, .number(let text)): return unixTime(text, milliseconds: false).map { .text($0) }

        case (.uuid, .string(let text)): return isUUID(text) ? .text(text.lowercased()) : nil
        case (.binary, .string(let text)): return PropertyValues.base64.first { $0.0 == text }.map { .blob($0.1) }
        default: return nil
        }
    }

    /// JSON's number grammar.
    static func isNumberText(_ text: String) -> Bool {
        var bytes = Array(text.utf8)[...]
        func digits() -> Int {
            var count = 0
            while let byte = bytes.first, (48...57).contains(byte) { bytes.removeFirst(); count += 1 }
            return count
        }
        if bytes.first == UInt8(ascii: "-") { bytes.removeFirst() }
        if bytes.first == UInt8(ascii: "0") { bytes.removeFirst() } else if digits() == 0 { return false }
        if bytes.first == UInt8(ascii: ".") { bytes.removeFirst(); if digits() == 0 { return false } }
        if let byte = bytes.first, byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
            bytes.removeFirst()
            if let sign = bytes.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { bytes.removeFirst() }
            if digits() == 0 { return false }
        }
        return bytes.isEmpty
    }

    /// The digits of a number text as sign, digit string and a power of ten.
    private static func decimalParts(_ text: String) -> (negative: Bool, digits: [Int], exponent: Int) {
        var negative = false, digits: [Int] = [], exponent = 0, inFraction = false
        var chars = Array(text)[...]
        if chars.first == "-" { negative = true; chars.removeFirst() }
        while let char = chars.first, char != "e", char != "E" {
            chars.removeFirst()
            if char == "." { inFraction = true; continue }
            digits.append(char.wholeNumberValue!)
            if inFraction { exponent -= 1 }
        }
        if !chars.isEmpty { chars.removeFirst(); exponent += Int(String(chars))! }
        return (negative, digits, exponent)
    }

    static func isZero(_ text: String) -> Bool { decimalParts(text).digits.allSatisfy { $0 == 0 } }

    /// The number's value if it is an integer within 64 bits.
    static func exactInteger(_ text: String) -> Int64? {
        var (negative, digits, exponent) = decimalParts(text)
        while exponent < 0, let last = digits.last {
            if last != 0 { return nil }
            digits.removeLast(); exponent += 1
        }
        if exponent > 30 { return digits.allSatisfy { $0 == 0 } ? 0 : nil }
        digits += Array(repeating: 0, count: max(0, exponent))
        var magnitude: UInt64 = 0
        for digit in digits {
            let (times, overflow1) = magnitude.multipliedReportingOverflow(by: 10)
            let (plus, overflow2) = times.addingReportingOverflow(UInt64(digit))
            if overflow1 || overflow2 { return nil }
            magnitude = plus
        }
        if negative {
            if magnitude > UInt64(Int64.max) + 1 { return nil }
            return magnitude == UInt64(Int64.max) + 1 ? Int64.min : -Int64(magnitude)
        }
        return magnitude > UInt64(Int64.max) ? nil : Int64(magnitude)
    }

    static func isUUID(_ text: String) -> Bool {
        let groups = text.split(separator: "-", omittingEmptySubsequences: false)
        return groups.map(\.count) == [8, 4, 4, 4, 12] && groups.allSatisfy { $0.allSatisfy(\.isHexDigit) }
    }

    /// Unix seconds (or milliseconds) as the stored date text, to the nearest nanosecond (a
    /// half towards the future); nil outside the years 0000–9999.
    static func unixTime(_ text: String, milliseconds: Bool) -> String? {
        var (negative, digits, exponent) = decimalParts(text)
        exponent += milliseconds ? 6 : 9  // in nanoseconds
        if exponent > 30 { return digits.allSatisfy { $0 == 0 } ? "1970-01-01T00:00:00Z" : nil }
        var whole = digits, dropped: [Int] = []
        if exponent >= 0 {
            whole += Array(repeating: 0, count: exponent)
        } else {
            let cut = digits.count + exponent
            whole = cut > 0 ? Array(digits[..<cut]) : []
            dropped = cut >= 0 ? Array(digits[cut...]) : Array(repeating: 0, count: -cut) + digits
        }
        let first = dropped.first ?? 0, beyond = dropped.dropFirst().contains { $0 != 0 }
        let up = negative ? first > 5 || (first == 5 && beyond) : first >= 5
        while whole.count > 1 && whole[0] == 0 { whole.removeFirst() }
        guard whole.count <= 9 + 15 else { return nil }
        func number(_ digits: ArraySlice<Int>) -> Int64 { digits.reduce(0) { $0 * 10 + Int64($1) } }
        var seconds = number(whole.dropLast(9)), nanoseconds = number(whole.suffix(9))
        if up { nanoseconds += negative ? -1 : 1 }
        if negative {
            (seconds, nanoseconds) = (-seconds, -nanoseconds)
        }
        while nanoseconds < 0 { seconds -= 1; nanoseconds += 1_000_000_000 }
        while nanoseconds >= 1_000_000_000 { seconds += 1; nanoseconds -= 1_000_000_000 }
        let lowest: Int64 = -62_167_219_200, highest: Int64 = 253_402_300_799
        guard seconds >= lowest, seconds <= highest else { return nil }
        let (days, daySeconds) = floorDivide(seconds, 86_400)
        let (year, month, day) = civil(fromDays: days)
        var out = pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2) + "T"
        out += pad(daySeconds / 3600, 2) + ":" + pad(daySeconds / 60 % 60, 2) + ":" + pad(daySeconds % 60, 2)
        if nanoseconds % 1_000_000 == 0 {
            if nanoseconds != 0 { out += "." + pad(nanoseconds / 1_000_000, 3) }
        } else if nanoseconds % 1000 == 0 {
            out += "." + pad(nanoseconds / 1000, 6)
        } else {
            out += "." + pad(nanoseconds, 9)
        }
        return out + "Z"
    }

    private static func floorDivide(_ value: Int64, _ divisor: Int64) -> (Int64, Int64) {
        let quotient = value / divisor, remainder = value % divisor
        return remainder < 0 ? (quotient - 1, remainder + divisor) : (quotient, remainder)
    }

    /// Howard Hinnant's days-to-civil algorithm (proleptic Gregorian calendar).
    private static func civil(fromDays days: Int64) -> (Int64, Int64, Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }
}
