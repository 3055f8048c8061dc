/// JSON number text (RFC 8259 §6: `-? (0 | [1-9][0-9]*) (.[0-9]+)? ([eE][+-]?[0-9]+)?`) read
/// straight from its bytes, with no allocation and no round trip through `Double`, so every
/// 64-bit integer survives exactly.
struct NumberText {
    var negative: Bool
    /// Byte ranges of the digits before and after the decimal point (the latter may be empty).
    var integerDigits: Range<Int>
    var fractionDigits: Range<Int>
    /// The exponent, clamped to ±`exponentLimit` (far beyond anything a 64-bit value or a
    /// date can use, so clamping never changes a result).
    var exponent: Int

    static let exponentLimit = 1_000_000

    /// Parts of `bytes` if they are exactly one JSON number (no whitespace, no `+`, no
    /// leading zeros, no `inf`/`nan`/hex), else nil.
    init?(_ bytes: UnsafeRawBufferPointer) {
        let count = bytes.count
        var at = 0
        negative = count > 0 && bytes[0] == UInt8(ascii: "-")
        if negative { at = 1 }

        let integerStart = at
        guard at < count, NumberText.isDigit(bytes[at]) else { return nil }
        if bytes[at] == UInt8(ascii: "0") {
            at += 1
        } else {
            while at < count && NumberText.isDigit(bytes[at]) { at += 1 }
        }
        integerDigits = integerStart..<at

        fractionDigits = at..<at
        if at < count && bytes[at] == UInt8(ascii: ".") {
            at += 1
            let fractionStart = at
            while at < count && NumberText.isDigit(bytes[at]) { at += 1 }
            guard at > fractionStart else { return nil }
            fractionDigits = fractionStart..<at
        }

        exponent = 0
        if at < count && (bytes[at] | 0x20) == UInt8(ascii: "e") {
            at += 1
            var exponentNegative = false
            if at < count && (bytes[at] == UInt8(ascii: "+") || bytes[at] == UInt8(ascii: "-")) {
                exponentNegative = bytes[at] == UInt8(ascii: "-")
                at += 1
            }
            let exponentStart = at
            var value = 0
            while at < count && NumberText.isDigit(bytes[at]) {
                value = min(value * 10 + Int(bytes[at] &- UInt8(ascii: "0")), NumberText.exponentLimit)
                at += 1
            }
            guard at > exponentStart else { return nil }
            exponent = exponentNegative ? -value : value
        }
        guard at == count else { return nil }
    }

    /// Parts of `bytes` read as a number written as text (a CSV field, a JSON string given to a
    /// number attribute: `docs/import-semantics.md#numbers-booleans-and-dates-written-as-text`): the JSON grammar,
    /// and also what text writers write for the same value — leading zeros (`007`), a `+`
    /// sign, no digit before or after the point (`.5`, `5.`) — with spaces and tabs at either
    /// end dropped. Also the trimmed bytes, which the ranges index. Nil for anything else: no
    /// digit at all, a separator of thousands or a decimal comma (`1,000`, `1,5`), hex,
    /// `inf`/`nan`, a space inside.
    static func written(_ bytes: UnsafeRawBufferPointer) -> (number: NumberText, text: UnsafeRawBufferPointer)? {
        let text = bytes.trimmingBlanks()
        if let number = NumberText(text) { return (number, text) }
        let count = text.count
        var at = 0
        guard at < count else { return nil }
        let negative = text[at] == UInt8(ascii: "-")
        if negative || text[at] == UInt8(ascii: "+") { at += 1 }
        // Leading zeros are no digits of the value: skipped, so that the ranges stay as the
        // strict grammar makes them (a zero stands alone before the point).
        while at + 1 < count, text[at] == UInt8(ascii: "0"), isDigit(text[at + 1]) { at += 1 }
        let integerStart = at
        while at < count, isDigit(text[at]) { at += 1 }
        let integerDigits = integerStart..<at
        var fractionDigits = at..<at
        if at < count, text[at] == UInt8(ascii: ".") {
            at += 1
            let fractionStart = at
            while at < count, isDigit(text[at]) { at += 1 }
            fractionDigits = fractionStart..<at
        }
        guard !integerDigits.isEmpty || !fractionDigits.isEmpty else { return nil }
        var exponent = 0
        if at < count, text[at] | 0x20 == UInt8(ascii: "e") {
            at += 1
            var exponentNegative = false
            if at < count, text[at] == UInt8(ascii: "+") || text[at] == UInt8(ascii: "-") {
                exponentNegative = text[at] == UInt8(ascii: "-")
                at += 1
            }
            let exponentStart = at
            while at < count, isDigit(text[at]) {
                exponent = min(exponent * 10 + Int(text[at] &- UInt8(ascii: "0")), exponentLimit)
                at += 1
            }
            guard at > exponentStart else { return nil }
            if exponentNegative { exponent = -exponent }
        }
        guard at == count else { return nil }
        return (NumberText(negative: negative, integerDigits: integerDigits, fractionDigits: fractionDigits,
                           exponent: exponent), text)
    }

    private init(negative: Bool, integerDigits: Range<Int>, fractionDigits: Range<Int>, exponent: Int) {
        self.negative = negative
        self.integerDigits = integerDigits
        self.fractionDigits = fractionDigits
        self.exponent = exponent
    }

    /// The number in the JSON grammar (`-? digits (.digits)? (e-?digits)?`), for parsers that
    /// take only that: `written(_:)`'s `+5` is `5`, `.5` is `0.5`, `5.` is `5`.
    func jsonText(in bytes: UnsafeRawBufferPointer) -> String {
        var text = negative ? "-" : ""
        text += integerDigits.isEmpty ? "0" : String(decoding: UnsafeRawBufferPointer(rebasing: bytes[integerDigits]), as: UTF8.self)
        if !fractionDigits.isEmpty {
            text += "." + String(decoding: UnsafeRawBufferPointer(rebasing: bytes[fractionDigits]), as: UTF8.self)
        }
        if exponent != 0 { text += "e\(exponent)" }
        return text
    }

    /// A short plain number read in one pass: `-? (0 | [1-9][0-9]*) (.[0-9]+)?` with at most
    /// 15 digits (so that they make an exact integer and an exact double), as its digits and
    /// how many of them follow the point. Nil for anything else (an exponent, more digits, not
    /// a number), which the general parse then handles. Most numbers in data are like this,
    /// and parsing them twice (structure, then value) was most of their conversion.
    @inline(__always)  // forced: docs/performance.md#forced-inlining
    static func short(_ bytes: UnsafeRawBufferPointer) -> (digits: UInt64, fractionCount: Int, negative: Bool)? {
        let count = bytes.count
        guard count > 0, count <= 17 else { return nil }
        let negative = bytes[0] == UInt8(ascii: "-")
        var at = negative ? 1 : 0
        guard at < count, isDigit(bytes[at]) else { return nil }
        // A leading zero stands alone before the point.
        if bytes[at] == UInt8(ascii: "0"), at + 1 < count, bytes[at + 1] != UInt8(ascii: ".") { return nil }
        var digits: UInt64 = 0
        var digitCount = 0
        var pointAt = -1
        while at < count {
            let byte = bytes[at]
            if isDigit(byte) {
                digits = digits &* 10 &+ UInt64(byte &- UInt8(ascii: "0"))
                digitCount += 1
            } else if byte == UInt8(ascii: "."), pointAt < 0 {
                pointAt = at
            } else {
                return nil
            }
            at += 1
        }
        guard digitCount <= 15 else { return nil }
        guard pointAt >= 0 else { return (digits, 0, negative) }
        guard pointAt + 1 < count else { return nil }  // "1." has no fraction digits
        return (digits, count - pointAt - 1, negative)
    }

    /// `short(_:)`'s digits as a double: exact, one correctly rounded division.
    static func double(digits: UInt64, fractionCount: Int, negative: Bool) -> Double {
        let value = Double(digits) / exactPowersOfTen[fractionCount]
        return negative ? -value : value
    }

    static func isDigit(_ byte: UInt8) -> Bool {
        byte &- UInt8(ascii: "0") < 10
    }

    /// Whether the number is zero in any spelling (`0`, `-0`, `0.0`, `0e5`).
    func isZero(in bytes: UnsafeRawBufferPointer) -> Bool {
        for index in integerDigits where bytes[index] != UInt8(ascii: "0") { return false }
        for index in fractionDigits where bytes[index] != UInt8(ascii: "0") { return false }
        return true
    }

    /// Whether the number is written as plain digits (no fraction, no exponent).
    var isPlainInteger: Bool { fractionDigits.isEmpty && exponent == 0 }

    enum IntegerResult: Equatable {
        case value(Int64)
        /// Digits remain after the decimal point.
        case notIntegral
        case outOfRange
    }

    /// The number as an Int64, exactly.
    func integer(in bytes: UnsafeRawBufferPointer) -> IntegerResult {
        let integerCount = integerDigits.count
        let digitCount = integerCount + fractionDigits.count
        // The value is digits × 10^shift, digits being the integer then the fraction digits.
        let shift = exponent - fractionDigits.count
        let kept = shift >= 0 ? digitCount : max(0, digitCount + shift)

        func digit(_ index: Int) -> UInt64 {
            let byte = index < integerCount
                ? bytes[integerDigits.lowerBound + index]
                : bytes[fractionDigits.lowerBound + index - integerCount]
            return UInt64(byte &- UInt8(ascii: "0"))
        }

        // The magnitude may reach 2^63 (Int64.min); anything above is out of range.
        let limit: UInt64 = 1 << 63
        var magnitude: UInt64 = 0
        for index in 0..<kept {
            if magnitude > limit / 10 { return .outOfRange }
            magnitude = magnitude * 10 + digit(index)
            if magnitude > limit { return .outOfRange }
        }
        for index in kept..<digitCount where digit(index) != 0 { return .notIntegral }
        if magnitude != 0 && shift > 0 {
            for _ in 0..<shift {
                if magnitude > limit / 10 { return .outOfRange }
                magnitude *= 10
                if magnitude > limit { return .outOfRange }
            }
        }
        if negative {
            guard magnitude <= limit else { return .outOfRange }
            return .value(magnitude == limit ? Int64.min : -Int64(magnitude))
        }
        guard magnitude < limit else { return .outOfRange }
        return .value(Int64(magnitude))
    }

    /// The one spelling of the number's value (`docs/import-semantics.md`, decimal
    /// identities): plain digits, no exponent, no leading zeros, no trailing zeros after the
    /// point (nor the point when none remain), `-` only before a nonzero value. `1`, `1.0`,
    /// `1.00`, `1e0` and `0.1e1` are all `1`; `-0` is `0`; `1.5e3` is `1500`; `12.50` is `12.5`;
    /// `1e-3` is `0.001`. Nil when that spelling would be longer than `maxLength` bytes (`1e400`
    /// is 401), so that no exponent makes an unbounded string.
    func canonicalDecimal(in bytes: UnsafeRawBufferPointer, maxLength: Int) -> String? {
        var digits = integerDigits.count + fractionDigits.count
        // Digits are contiguous but for the point between the two ranges.
        func digit(_ offset: Int) -> UInt8 {
            offset < integerDigits.count ? bytes[integerDigits.lowerBound + offset]
                : bytes[fractionDigits.lowerBound + offset - integerDigits.count]
        }
        var first = 0
        while first < digits, digit(first) == UInt8(ascii: "0") { first += 1 }
        while digits > first, digit(digits - 1) == UInt8(ascii: "0") { digits -= 1 }
        guard first < digits else { return "0" }
        let count = digits - first
        // The point stands `point` digits after the first significant one.
        let point = integerDigits.count + exponent - first
        let length = (negative ? 1 : 0) + (point <= 0 ? 2 - point + count : max(count, point) + (point < count ? 1 : 0))
        guard length <= maxLength else { return nil }
        var text: [UInt8] = []
        text.reserveCapacity(length)
        if negative { text.append(UInt8(ascii: "-")) }
        if point <= 0 {
            text += [UInt8(ascii: "0"), UInt8(ascii: ".")]
            text += repeatElement(UInt8(ascii: "0"), count: -point)
            for offset in first..<digits { text.append(digit(offset)) }
        } else {
            for offset in 0..<max(count, point) {
                if offset == point { text.append(UInt8(ascii: ".")) }
                text.append(offset < count ? digit(first + offset) : UInt8(ascii: "0"))
            }
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// Powers of ten that a `Double` holds exactly.
    private static let exactPowersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]

    /// The number as a `Double` without the text parser, when that is exact (Clinger's fast
    /// path): at most 15 digits make an exact integer, and one multiplication or division by
    /// an exact power of ten (at most 10^22) is correctly rounded. Nil otherwise.
    func exactDouble(in bytes: UnsafeRawBufferPointer) -> Double? {
        guard integerDigits.count + fractionDigits.count <= 15 else { return nil }
        let scale = exponent - fractionDigits.count
        guard scale >= -22 && scale <= 22 else { return nil }
        var mantissa: UInt64 = 0
        for index in integerDigits { mantissa = mantissa * 10 + UInt64(bytes[index] &- UInt8(ascii: "0")) }
        for index in fractionDigits { mantissa = mantissa * 10 + UInt64(bytes[index] &- UInt8(ascii: "0")) }
        var value = Double(mantissa)  // exact: below 10^15 < 2^53
        value = scale < 0 ? value / Self.exactPowersOfTen[-scale] : value * Self.exactPowersOfTen[scale]
        return negative ? -value : value
    }
}
