/// Decodes the raw text of a JSON string that `TextScanner` found faults in, with U+FFFD in
/// place of each bad sequence: yajl's own decoding of it is wrong (`?` for an unpaired
/// surrogate escape), so such a token is decoded again from its input bytes.
///
/// The replacement follows WHATWG's UTF-8 decoder ("maximal subpart"): one U+FFFD for the
/// longest start of a valid sequence that breaks off (`E2 82` then `"` is one), one for each byte
/// that cannot start one (`C0`, `F5`, a stray `80`); one U+FFFD for each unpaired surrogate escape.
enum StringRepair {
    static let replacement: [UInt8] = [0xEF, 0xBF, 0xBD]

    /// `raw` is the token between its quotes, escapes unresolved (or, without `escapes`, text
    /// in which a backslash is itself: a CSV field). Returns the decoded bytes and how many
    /// U+FFFD it put in.
    static func decode(_ raw: UnsafeRawBufferPointer, escapes: Bool = true) -> (bytes: [UInt8], replacements: Int) {
        var out: [UInt8] = []
        out.reserveCapacity(raw.count)
        var replacements = 0
        var index = 0
        let count = raw.count
        while index < count {
            let byte = raw[index]
            if escapes, byte == UInt8(ascii: "\\"), index + 1 < count {
                let escaped = raw[index + 1]
                index += 2
                guard escaped == UInt8(ascii: "u") else {
                    out.append(unescaped(escaped))
                    continue
                }
                guard let unit = hexUnit(raw, at: index) else { continue }  // yajl refuses it first
                index += 4
                switch unit & 0xFC00 {
                case 0xD800:
                    if index + 6 <= count, raw[index] == UInt8(ascii: "\\"), raw[index + 1] == UInt8(ascii: "u"),
                       let low = hexUnit(raw, at: index + 2), low & 0xFC00 == 0xDC00 {
                        index += 6
                        appendScalar(0x10000 + (UInt32(unit & 0x3FF) << 10 | UInt32(low & 0x3FF)), to: &out)
                    } else {
                        out.append(contentsOf: replacement)
                        replacements += 1
                    }
                case 0xDC00:
                    out.append(contentsOf: replacement)
                    replacements += 1
                default:
                    appendScalar(UInt32(unit), to: &out)
                }
            } else if byte < 0x80 {
                out.append(byte)
                index += 1
            } else {
                let length = validSequenceLength(raw, at: index)
                if length > 0 {
                    out.append(contentsOf: raw[index..<index + length])
                    index += length
                } else {
                    out.append(contentsOf: replacement)
                    replacements += 1
                    index += maximalSubpart(raw, at: index)
                }
            }
        }
        return (out, replacements)
    }

    private static func unescaped(_ byte: UInt8) -> UInt8 {
        switch byte {
        case UInt8(ascii: "n"): 0x0A
        case UInt8(ascii: "t"): 0x09
        case UInt8(ascii: "r"): 0x0D
        case UInt8(ascii: "b"): 0x08
        case UInt8(ascii: "f"): 0x0C
        default: byte  // `"`, `\`, `/`
        }
    }

    private static func hexUnit(_ raw: UnsafeRawBufferPointer, at index: Int) -> UInt16? {
        guard index + 4 <= raw.count else { return nil }
        var unit: UInt16 = 0
        for offset in 0..<4 {
            guard let digit = TextScanner.hexValue(raw[index + offset]) else { return nil }
            unit = unit << 4 | UInt16(digit)
        }
        return unit
    }

    private static func appendScalar(_ scalar: UInt32, to out: inout [UInt8]) {
        switch scalar {
        case 0..<0x80:
            out.append(UInt8(scalar))
        case 0x80..<0x800:
            out.append(UInt8(0xC0 | scalar >> 6))
            out.append(UInt8(0x80 | scalar & 0x3F))
        case 0x800..<0x10000:
            out.append(UInt8(0xE0 | scalar >> 12))
            out.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            out.append(UInt8(0x80 | scalar & 0x3F))
        default:
            out.append(UInt8(0xF0 | scalar >> 18))
            out.append(UInt8(0x80 | scalar >> 12 & 0x3F))
            out.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            out.append(UInt8(0x80 | scalar & 0x3F))
        }
    }

    /// The range each byte after a lead byte must be in (Unicode's table 3-7), by position.
    private static func bounds(lead: UInt8, position: Int) -> ClosedRange<UInt8>? {
        guard position == 1 else { return 0x80...0xBF }
        switch lead {
        case 0xC2...0xDF, 0xE1...0xEC, 0xEE...0xEF, 0xF1...0xF3: return 0x80...0xBF
        case 0xE0: return 0xA0...0xBF
        case 0xED: return 0x80...0x9F
        case 0xF0: return 0x90...0xBF
        case 0xF4: return 0x80...0x8F
        default: return nil
        }
    }

    private static func sequenceLength(lead: UInt8) -> Int {
        switch lead {
        case 0xC2...0xDF: 2
        case 0xE0...0xEF: 3
        case 0xF0...0xF4: 4
        default: 0
        }
    }

    /// The length of the valid sequence at `index`, or 0.
    private static func validSequenceLength(_ raw: UnsafeRawBufferPointer, at index: Int) -> Int {
        let length = sequenceLength(lead: raw[index])
        guard length > 0, index + length <= raw.count else { return 0 }
        for position in 1..<length {
            guard let range = bounds(lead: raw[index], position: position), range.contains(raw[index + position]) else {
                return 0
            }
        }
        return length
    }

    /// The bytes one U+FFFD stands for at an invalid sequence: its lead byte and the
    /// continuation bytes that were still valid (at least 1).
    private static func maximalSubpart(_ raw: UnsafeRawBufferPointer, at index: Int) -> Int {
        let length = sequenceLength(lead: raw[index])
        guard length > 0 else { return 1 }
        var taken = 1
        while taken < length, index + taken < raw.count,
              let range = bounds(lead: raw[index], position: taken), range.contains(raw[index + taken]) {
            taken += 1
        }
        return taken
    }
}
