/// Finds what yajl lets through in JSON text, chunk by chunk, before yajl lexes the chunk:
/// invalid UTF-8 (yajl checks only lead bytes and continuation counts, so overlong forms,
/// encoded surrogates and code points past U+10FFFF pass), `\u` escapes that leave a surrogate
/// unpaired (yajl writes `?` for a lone high one, and joins a high one with any escape after
/// it), and vertical tabs and form feeds (yajl skips them as whitespace).
///
/// Most JSON is ASCII without escapes: the scan jumps from one byte that needs a look (a byte
/// of 0x80 or more, a backslash, 0x0B, 0x0C) to the next, found with `memchr` and an 8-bytes-
/// at-a-time test for the high bit, and steps byte by byte only through a multi-byte sequence or
/// an escape. Its state carries across chunks, so the faults are the same however the input
/// is chunked. The faults found are taken after each chunk (`takeFound()`), in the order found:
/// input order but for an unpaired high surrogate, found after the escape that follows it
/// (`FaultQueue` puts it in its place).
struct TextScanner {
    /// Faults found since the last `takeFound()`, in the order found.
    private var found: [TextFault] = []

    // UTF-8: continuation bytes still expected, the range the next one must be in, and where
    // the sequence began.
    private var pendingContinuations = 0
    private var lowerBound: UInt8 = 0x80
    private var upperBound: UInt8 = 0xBF
    private var sequenceStart: Int64 = 0
    private var sequenceLead: UInt8 = 0

    private enum Escape {
        case idle
        /// After `\`; `high` is a high surrogate escape just before it, waiting for its pair.
        case backslash(start: Int64, high: (offset: Int64, unit: UInt16)?)
        case hex(start: Int64, digits: Int, unit: UInt16, high: (offset: Int64, unit: UInt16)?)
        /// A high surrogate escape ended: the next byte must begin its low half.
        case afterHigh(offset: Int64, unit: UInt16)
    }
    private var escape = Escape.idle

    /// Scans the next chunk, which starts at absolute `chunkStart`. Returns the index in the
    /// chunk of a vertical tab or form feed, where the scan stopped: the input is invalid from
    /// there (the parser lexes the bytes before it first).
    mutating func scan(_ chunk: UnsafeRawBufferPointer, at chunkStart: Int64) -> Int? {
        guard let base = chunk.baseAddress else { return nil }
        let count = chunk.count
        // The next index of each byte worth a look, found once and again only when passed.
        var nextBackslash = -1, nextTab = -1, nextFeed = -1, nextHigh = -1
        var index = 0
        while index < count {
            if pendingContinuations == 0, case .idle = escape {
                if nextBackslash < index { nextBackslash = MemoryBytes.firstIndex(of: 0x5C, in: base, from: index, to: count) ?? count }
                if nextTab < index { nextTab = MemoryBytes.firstIndex(of: 0x0B, in: base, from: index, to: count) ?? count }
                if nextFeed < index { nextFeed = MemoryBytes.firstIndex(of: 0x0C, in: base, from: index, to: count) ?? count }
                if nextHigh < index { nextHigh = UTF8Sequence.firstNonASCII(base, from: index, to: count) }
                index = min(nextBackslash, nextTab, nextFeed, nextHigh)
                guard index < count else { break }
            }
            let byte = base.load(fromByteOffset: index, as: UInt8.self)
            if byte == 0x0B || byte == 0x0C { return index }
            step(byte, at: chunkStart + Int64(index))
            index += 1
        }
        return nil
    }

    private mutating func step(_ byte: UInt8, at offset: Int64) {
        if pendingContinuations > 0 || byte >= 0x80 { stepUTF8(byte, at: offset) }
        stepEscape(byte, at: offset)
    }

    private mutating func stepUTF8(_ byte: UInt8, at offset: Int64) {
        if pendingContinuations > 0 {
            if byte >= lowerBound && byte <= upperBound {
                pendingContinuations -= 1
                lowerBound = 0x80
                upperBound = 0xBF
                return
            }
            // A continuation byte out of the second byte's narrowed range names the problem;
            // anything else ends the sequence early. The byte then starts afresh.
            let second = lowerBound != 0x80 || upperBound != 0xBF
            var problem = TextProblem.truncated
            if second, byte >= 0x80, byte <= 0xBF { problem = UTF8Sequence.narrowedSecondProblem(after: sequenceLead) }
            record(TextFault(offset: sequenceStart, problem: problem))
            pendingContinuations = 0
            lowerBound = 0x80
            upperBound = 0xBF
            guard byte >= 0x80 else { return }
        }
        sequenceStart = offset
        sequenceLead = byte
        switch UTF8Sequence.lead(byte) {
        case .fault(let problem):
            record(TextFault(offset: offset, problem: problem))
        case .sequence(let length, let second):
            pendingContinuations = length - 1
            lowerBound = second.lowerBound
            upperBound = second.upperBound
        }
    }

    private mutating func stepEscape(_ byte: UInt8, at offset: Int64) {
        switch escape {
        case .idle:
            if byte == UInt8(ascii: "\\") { escape = .backslash(start: offset, high: nil) }
        case .afterHigh(let highOffset, let unit):
            if byte == UInt8(ascii: "\\") {
                escape = .backslash(start: offset, high: (highOffset, unit))
            } else {
                record(TextFault(offset: highOffset, problem: .unpairedSurrogate(unit)))
                escape = .idle
            }
        case .backslash(let start, let high):
            if byte == UInt8(ascii: "u") {
                escape = .hex(start: start, digits: 0, unit: 0, high: high)
            } else {
                if let high { record(TextFault(offset: high.offset, problem: .unpairedSurrogate(high.unit))) }
                escape = .idle
            }
        case .hex(let start, let digits, let unit, let high):
            // A bad hex digit is yajl's to report.
            guard let digit = Self.hexValue(byte) else {
                escape = .idle
                return
            }
            let value = unit << 4 | UInt16(digit)
            guard digits == 3 else {
                escape = .hex(start: start, digits: digits + 1, unit: value, high: high)
                return
            }
            escape = .idle
            if let high {
                if value & 0xFC00 == 0xDC00 { return }
                record(TextFault(offset: high.offset, problem: .unpairedSurrogate(high.unit)))
            }
            switch value & 0xFC00 {
            case 0xD800: escape = .afterHigh(offset: start, unit: value)
            case 0xDC00: record(TextFault(offset: start, problem: .unpairedSurrogate(value)))
            default: break
            }
        }
    }

    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    private mutating func record(_ fault: TextFault) {
        found.append(fault)
    }

    /// The faults found since the last call.
    mutating func takeFound() -> [TextFault] {
        guard !found.isEmpty else { return [] }
        defer { found = [] }
        return found
    }
}
