/// Finds the first invalid UTF-8 in a run of text that has no escapes (a CSV field): what is
/// wrong, as `TextScanner` names it for JSON, and where. Most text is ASCII, checked 8 bytes
/// a step.
enum UTF8Check {
    /// The index and problem of the first invalid sequence in `text`, or nil when it is valid.
    static func firstFault(in text: UnsafeRawBufferPointer) -> (index: Int, problem: TextProblem)? {
        guard let base = text.baseAddress else { return nil }
        let count = text.count
        var index = firstNonASCII(base, from: 0, to: count)
        while index < count {
            let lead = text[index]
            if lead < 0x80 {
                index += 1
                continue
            }
            let length: Int
            var lower: UInt8 = 0x80, upper: UInt8 = 0xBF
            switch lead {
            case 0x80...0xBF: return (index, .strayContinuation)
            case 0xC0, 0xC1: return (index, .overlong)
            case 0xC2...0xDF: length = 2
            case 0xE0: length = 3; lower = 0xA0
            case 0xED: length = 3; upper = 0x9F
            case 0xE1...0xEF: length = 3
            case 0xF0: length = 4; lower = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4: length = 4; upper = 0x8F
            default: return (index, .beyondUnicode)
            }
            for position in 1..<length {
                guard index + position < count else { return (index, .truncated) }
                let byte = text[index + position]
                if position == 1, byte >= 0x80, byte <= 0xBF, byte < lower || byte > upper {
                    // A continuation byte outside the narrowed range of the second byte.
                    switch lead {
                    case 0xE0, 0xF0: return (index, .overlong)
                    case 0xED: return (index, .encodedSurrogate)
                    default: return (index, .beyondUnicode)
                    }
                }
                guard byte >= 0x80, byte <= 0xBF else { return (index, .truncated) }
            }
            index += length
        }
        return nil
    }

    /// Whether every byte of `text` is ASCII: the common case, a few word tests.
    @inline(__always)
    static func isASCII(_ text: UnsafeRawBufferPointer) -> Bool {
        guard let base = text.baseAddress else { return true }
        return firstNonASCII(base, from: 0, to: text.count) == text.count
    }

    /// The first index in `base[from..<to]` of a byte of 0x80 or more, or `to`.
    @inline(__always)
    private static func firstNonASCII(_ base: UnsafeRawPointer, from: Int, to: Int) -> Int {
        var index = from
        while index + 8 <= to {
            if base.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 != 0 { break }
            index += 8
        }
        while index < to, base.load(fromByteOffset: index, as: UInt8.self) < 0x80 { index += 1 }
        return index
    }
}
