import Testing
@testable import Sluice

/// One string or number spanning many chunks is lexed once: yajl's lexer goes on where the
/// last chunk ended inside it (the `Sluice:` patch to `Vendor/CYajl/src/yajl_lex.c`), where
/// it used to lex the whole token again at every chunk, quadratic in its length.
@Suite struct LongTokenTests {
    /// Feeds `text` in chunks of `chunkSize` bytes; returns the events and the bytes yajl
    /// read again from its buffer (read before `finish`, which ends the handle).
    static func parse(_ text: [UInt8], chunkSize: Int) throws -> (events: [String], relexed: Int) {
        let recorder = EventRecorder()
        let parser = JSONParser(sourceName: "in.json", handler: recorder,
                                options: .init(maxValueBytes: text.count + 16))
        var start = 0
        while start < text.count {
            let end = min(start + chunkSize, text.count)
            try text[start..<end].withUnsafeBytes { try parser.parse($0) }
            start = end
        }
        let relexed = parser.bytesRelexed
        try parser.finish()
        return (recorder.events, relexed)
    }

    /// Digits with a fraction and an exponent, each part long enough to span chunks.
    static func number(_ length: Int) -> String {
        let part = length / 3
        return "-1" + String(repeating: "7", count: part) + "." + String(repeating: "3", count: part)
            + "e+" + String(repeating: "9", count: part)
    }

    /// Plain text with escapes (`\\`, `\"`, `\u00e9`) and a 4-byte UTF-8 character every 1,000
    /// bytes or so, so that chunk boundaries fall inside them; and its decoded value.
    static func string(_ length: Int) -> (json: String, value: String) {
        var json = "\"", value = ""
        var index = 0
        while json.utf8.count < length {
            json += String(repeating: "a", count: 997 + index % 7) + #"\\\"\u00e9😀"#
            value += String(repeating: "a", count: 997 + index % 7) + "\\\"é😀"
            index += 1
        }
        return (json + "\"", value)
    }

    /// A number of 256 KiB and one of 1 MiB in 1 KiB chunks: yajl reads back at most the
    /// bytes of one escape or character per chunk boundary, not the token so far (before the
    /// patch: about length² / 2 KiB, 512 MiB read back for the 1 MiB number).
    @Test(arguments: [256 << 10, 1 << 20])
    func aLongNumberIsLexedOnce(length: Int) throws {
        let text = Self.number(length)
        let result = try Self.parse(Array(("[" + text + ", 1]").utf8), chunkSize: 1024)
        #expect(result.events == ["[", "n:" + text, "n:1", "]"])
        #expect(result.relexed <= 8 * (length / 1024 + 1), "\(result.relexed) bytes read again")
    }

    /// Likewise a string of escapes and multi-byte characters, in chunks of 1,001 bytes (so
    /// boundaries fall at every place in them), decoded exactly.
    @Test(arguments: [256 << 10, 1 << 20])
    func aLongStringIsLexedOnce(length: Int) throws {
        let (json, value) = Self.string(length)
        let result = try Self.parse(Array(("{\"k\": " + json + "}").utf8), chunkSize: 1001)
        #expect(result.events == ["{", "k:k", "s:" + value, "}"])
        #expect(result.relexed <= 8 * (length / 1001 + 1), "\(result.relexed) bytes read again")
    }

    /// A long number wrong after many chunks is the same error, at the same place, as when
    /// it comes in one chunk.
    @Test func aLongNumberWrongAtItsEndIsTheSameErrorHoweverChunked() throws {
        let text = "[1, 2" + String(repeating: "5", count: 100_000) + "e]"
        let chunks = stride(from: 0, to: text.utf8.count, by: 1024).map {
            String(decoding: Array(text.utf8)[$0..<min($0 + 1024, text.utf8.count)], as: UTF8.self)
        }
        let error = try #require(parseError(chunks))
        #expect(error.description == "in.json:1:100006: invalid JSON: malformed number, a digit is required after the "
            + "exponent near '555555555555e]'")
        #expect(parseError([text])?.description == error.description)
    }
}
