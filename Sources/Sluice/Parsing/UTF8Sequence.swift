/// Well-formed UTF-8 as RFC 3629 §4 tables it, for the two checkers: `TextScanner` (JSON, byte
/// by byte across chunks) and `UTF8Check` (a CSV field, at once).
enum UTF8Sequence {
    /// What a byte of 0x80 or more begins: a sequence of `length` bytes whose second byte lies
    /// in `second` (narrower than 0x80...0xBF after E0, ED, F0 and F4), or no sequence.
    enum Lead {
        case sequence(length: Int, second: ClosedRange<UInt8>)
        case fault(TextProblem)
    }

    static func lead(_ byte: UInt8) -> Lead {
        switch byte {
        case 0x80...0xBF: .fault(.strayContinuation)
        case 0xC0, 0xC1: .fault(.overlong)
        case 0xC2...0xDF: .sequence(length: 2, second: 0x80...0xBF)
        case 0xE0: .sequence(length: 3, second: 0xA0...0xBF)
        case 0xED: .sequence(length: 3, second: 0x80...0x9F)
        case 0xE1...0xEF: .sequence(length: 3, second: 0x80...0xBF)
        case 0xF0: .sequence(length: 4, second: 0x90...0xBF)
        case 0xF1...0xF3: .sequence(length: 4, second: 0x80...0xBF)
        case 0xF4: .sequence(length: 4, second: 0x80...0x8F)
        case 0xFE, 0xFF: .fault(.neverUTF8(byte))
        default: .fault(.beyondUnicode)
        }
    }

    /// What a continuation byte outside the narrowed range of the second byte after `lead`
    /// (E0, ED, F0 or F4) would encode.
    static func narrowedSecondProblem(after lead: UInt8) -> TextProblem {
        switch lead {
        case 0xE0, 0xF0: .overlong
        case 0xED: .encodedSurrogate
        default: .beyondUnicode  // F4
        }
    }

    /// The first index in `base[from..<to]` of a byte of 0x80 or more, or `to`: most text is
    /// ASCII, tested 32 bytes a step, then 8, then 1.
    @inline(__always)  // forced: docs/performance.md#forced-inlining
    static func firstNonASCII(_ base: UnsafeRawPointer, from: Int, to: Int) -> Int {
        var index = from
        while index + 32 <= to {
            let words = base.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                | base.loadUnaligned(fromByteOffset: index + 8, as: UInt64.self)
                | base.loadUnaligned(fromByteOffset: index + 16, as: UInt64.self)
                | base.loadUnaligned(fromByteOffset: index + 24, as: UInt64.self)
            if words & 0x8080_8080_8080_8080 != 0 { break }
            index += 32
        }
        while index + 8 <= to {
            if base.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 != 0 { break }
            index += 8
        }
        while index < to, base.load(fromByteOffset: index, as: UInt8.self) < 0x80 { index += 1 }
        return index
    }
}
