/// What is wrong with the text of a JSON string or key, or with the bytes between tokens:
/// the faults `TextScanner` finds before yajl sees a chunk (yajl checks UTF-8 only in part
/// and turns unpaired surrogate escapes into `?` or into another character).
enum TextProblem: Equatable, Sendable {
    /// A 2-, 3- or 4-byte form of a code point that has a shorter one (`C0 80`, `E0 80 80`).
    case overlong
    /// A UTF-16 surrogate (U+D800–U+DFFF) encoded in UTF-8 (`ED A0 80`).
    case encodedSurrogate
    /// A code point past U+10FFFF (`F4 90 80 80`, or a lead byte `F5`–`FD`).
    case beyondUnicode
    /// `FE` or `FF`: bytes no form of UTF-8 ever held, not even the old 5- and 6-byte ones.
    case neverUTF8(UInt8)
    /// A lead byte not followed by all its continuation bytes.
    case truncated
    /// A continuation byte (`80`–`BF`) with no lead byte before it.
    case strayContinuation
    /// A `\uXXXX` escape of a surrogate not paired with its other half.
    case unpairedSurrogate(UInt16)
    /// Vertical tab or form feed: yajl skips them as whitespace, JSON does not.
    case notWhitespace(UInt8)

    var message: String {
        switch self {
        case .overlong: "invalid UTF-8 (overlong encoding)"
        case .encodedSurrogate: "invalid UTF-8 (surrogate code point encoded in UTF-8)"
        case .beyondUnicode: "invalid UTF-8 (code point beyond U+10FFFF)"
        case .neverUTF8(let byte): "invalid UTF-8 (byte 0x\(Self.hex(UInt16(byte), digits: 2)), which never occurs in UTF-8)"
        case .truncated: "invalid UTF-8 (truncated sequence)"
        case .strayContinuation: "invalid UTF-8 (continuation byte without a lead byte)"
        case .unpairedSurrogate(let unit): "unpaired surrogate \\u\(Self.hex(unit))"
        case .notWhitespace(let byte):
            "invalid JSON: \(byte == 0x0C ? "a form feed" : "a vertical tab") (0x\(Self.hex(UInt16(byte), digits: 2))) "
                + "is not JSON whitespace (only space, tab, LF and CR are) and must be escaped in a string"
        }
    }

    private static func hex(_ value: UInt16, digits: Int = 4) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(digits - text.count, 0)) + text
    }
}

/// A problem and the absolute input offset of its first byte.
struct TextFault: Equatable, Sendable {
    var offset: Int64
    var problem: TextProblem
}
