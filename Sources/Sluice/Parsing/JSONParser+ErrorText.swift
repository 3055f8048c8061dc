internal import CYajl

extension JSONParser {
    /// yajl's own words ("lexical error: invalid char in json text.") turned into one line, with
    /// a short excerpt of the input at the error.
    static func describeError(handle: yajl_handle, chunk: UnsafeRawBufferPointer, offset: Int) -> String {
        var reason = "invalid JSON"
        if let raw = yajl_get_error(handle, 0, nil, 0) {
            var text = String(cString: raw)
            yajl_free_error(handle, raw)
            for prefix in ["lexical error: ", "parse error: "] where text.hasPrefix(prefix) {
                text.removeFirst(prefix.count)
            }
            text = text.trimmingSuffix { $0 == "\n" || $0 == "." || $0 == " " }
            if !text.isEmpty { reason = text }
        }
        if reason == "premature EOF" {
            return "unexpected end of input: the JSON is truncated"
        }
        if reason == "invalid bytes in UTF8 string" {
            return "invalid UTF-8 in a string"
        }
        let excerpt = excerptAround(chunk: chunk, offset: offset)
        return excerpt.isEmpty ? "invalid JSON: \(reason)" : "invalid JSON: \(reason) near '\(excerpt)'"
    }

    /// A non-ASCII character where a token should start (a no-break space between tokens). Not
    /// named by its code point: its bytes may go on in the next chunk, and the message must be
    /// the same however the input is chunked.
    static func describeNonASCII(_ byte: UInt8) -> String {
        switch byte {
        case 0x80...0xBF: TextProblem.strayContinuation.message
        case 0xC0, 0xC1: TextProblem.overlong.message
        case 0xF5...0xFD: TextProblem.beyondUnicode.message
        case 0xFE, 0xFF: TextProblem.neverUTF8(byte).message
        default: "invalid JSON: unexpected non-ASCII character outside a string"
        }
    }

    /// yajl's lexical error for a byte that cannot start a token (not one inside a string).
    static func isInvalidCharOutsideString(_ handle: yajl_handle) -> Bool {
        guard let raw = yajl_get_error(handle, 0, nil, 0) else { return false }
        defer { yajl_free_error(handle, raw) }
        return String(cString: raw).contains("invalid char in json text")
    }

    /// yajl's lexical error for a character refused inside a string, after which yajl's
    /// offset is at that character rather than past it.
    static func isBadCharacterInString(_ handle: yajl_handle) -> Bool {
        guard let raw = yajl_get_error(handle, 0, nil, 0) else { return false }
        defer { yajl_free_error(handle, raw) }
        let text = String(cString: raw)
        return text.contains("invalid character inside string") || text.contains("invalid (non-hex) character occurs after")
    }

    static func isParseError(_ handle: yajl_handle) -> Bool {
        guard let raw = yajl_get_error(handle, 0, nil, 0) else { return false }
        defer { yajl_free_error(handle, raw) }
        return String(cString: raw).hasPrefix("parse error")
    }

    /// The input around the error, at most 12 bytes before it and 8 after, within its line,
    /// with control characters replaced so the message stays one line.
    private static func excerptAround(chunk: UnsafeRawBufferPointer, offset: Int) -> String {
        guard chunk.count > 0, offset < chunk.count else { return "" }
        var start = offset
        while start > 0, offset - start < 12, chunk[start - 1] != 0x0A, chunk[start - 1] != 0x0D { start -= 1 }
        var end = offset
        while end < chunk.count, end - offset < 8, chunk[end] != 0x0A, chunk[end] != 0x0D { end += 1 }
        let bytes = chunk[start..<end].map { $0 < 0x20 || $0 == 0x7F ? UInt8(ascii: " ") : $0 }
        return String(decoding: bytes, as: UTF8.self)
    }
}

extension String {
    fileprivate func trimmingSuffix(while predicate: (Character) -> Bool) -> String {
        var result = self
        while let last = result.last, predicate(last) { result.removeLast() }
        return result
    }
}
