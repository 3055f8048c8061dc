/// Finds the first invalid UTF-8 in a run of text that has no escapes (a CSV field): what is
/// wrong, as `TextScanner` names it for JSON, and where (`UTF8Sequence`'s table).
enum UTF8Check {
    /// The index and problem of the first invalid sequence in `text`, or nil when it is valid.
    static func firstFault(in text: UnsafeRawBufferPointer) -> (index: Int, problem: TextProblem)? {
        guard let base = text.baseAddress else { return nil }
        let count = text.count
        var index = UTF8Sequence.firstNonASCII(base, from: 0, to: count)
        while index < count {
            let lead = text[index]
            if lead < 0x80 {
                index += 1
                continue
            }
            let length: Int, second: ClosedRange<UInt8>
            switch UTF8Sequence.lead(lead) {
            case .fault(let problem): return (index, problem)
            case .sequence(let bytes, let range): (length, second) = (bytes, range)
            }
            for position in 1..<length {
                guard index + position < count else { return (index, .truncated) }
                let byte = text[index + position]
                if position == 1, byte >= 0x80, byte <= 0xBF, !second.contains(byte) {
                    return (index, UTF8Sequence.narrowedSecondProblem(after: lead))
                }
                guard byte >= 0x80, byte <= 0xBF else { return (index, .truncated) }
            }
            index += length
        }
        return nil
    }

    /// Whether every byte of `text` is ASCII: the common case, a few word tests.
    static func isASCII(_ text: UnsafeRawBufferPointer) -> Bool {
        guard let base = text.baseAddress else { return true }
        return UTF8Sequence.firstNonASCII(base, from: 0, to: text.count) == text.count
    }
}
