import Testing
@testable import Sluice

/// Invalid text, as JSON parser conformance suites list it (bytes, not Swift strings), and the
/// valid edge cases that must pass unchanged: through the parser, whole and split at every byte.
@Suite struct TextScannerTests {
    /// `["…"]` around `inner`, parsed whole and in chunks of every size from 1, each chunk
    /// scanned as it is parsed or all of them ahead (as a reading thread does): the same events
    /// or the same error each time.
    private func outcome(_ inner: [UInt8], policy: InvalidTextPolicy = .reject) -> (events: [String], error: String?, replaced: Int) {
        let bytes = Array("[\"".utf8) + inner + Array("\"]".utf8)
        var results: [(events: [String], error: String?, replaced: Int)] = []
        for (chunkSize, scannedAhead) in [bytes.count, 1, 2, 3, 5].flatMap({ [($0, false), ($0, true)] }) {
            let recorder = EventRecorder()
            let parser = JSONParser(sourceName: "in.json", handler: recorder, options: .init(invalidText: policy))
            var failure: String?
            do {
                if scannedAhead {
                    try parseScannedAhead(bytes, with: parser, chunkSize: chunkSize)
                } else {
                    try parse(bytes, with: parser, chunkSize: chunkSize)
                }
            } catch let error as SluiceError {
                failure = error.description
            } catch {}
            results.append((recorder.events, failure, parser.replacementCharacters))
        }
        for result in results.dropFirst() {
            #expect(result.events == results[0].events && result.error == results[0].error, "\(inner)")
        }
        return results[0]
    }

    static let invalid: [(bytes: [UInt8], error: String, replaced: String)] = [
        ([0xC0, 0x80], "in.json:1:3: invalid UTF-8 (overlong encoding)", "\u{FFFD}\u{FFFD}"),
        ([0xC1, 0xBF], "in.json:1:3: invalid UTF-8 (overlong encoding)", "\u{FFFD}\u{FFFD}"),
        ([0x61, 0xE0, 0x80, 0xAF], "in.json:1:4: invalid UTF-8 (overlong encoding)", "a\u{FFFD}\u{FFFD}\u{FFFD}"),
        ([0xF0, 0x80, 0x80, 0xAF], "in.json:1:3: invalid UTF-8 (overlong encoding)", String(repeating: "\u{FFFD}", count: 4)),
        ([0xED, 0xA0, 0x80], "in.json:1:3: invalid UTF-8 (surrogate code point encoded in UTF-8)", "\u{FFFD}\u{FFFD}\u{FFFD}"),
        ([0xED, 0xBF, 0xBF], "in.json:1:3: invalid UTF-8 (surrogate code point encoded in UTF-8)", "\u{FFFD}\u{FFFD}\u{FFFD}"),
        ([0xF4, 0x90, 0x80, 0x80], "in.json:1:3: invalid UTF-8 (code point beyond U+10FFFF)", String(repeating: "\u{FFFD}", count: 4)),
        ([0xF5, 0x80, 0x80, 0x80], "in.json:1:3: invalid UTF-8 (code point beyond U+10FFFF)", String(repeating: "\u{FFFD}", count: 4)),
        ([0xFD], "in.json:1:3: invalid UTF-8 (code point beyond U+10FFFF)", "\u{FFFD}"),
        ([0xFE], "in.json:1:3: invalid UTF-8 (byte 0xFE, which never occurs in UTF-8)", "\u{FFFD}"),
        ([0xFF], "in.json:1:3: invalid UTF-8 (byte 0xFF, which never occurs in UTF-8)", "\u{FFFD}"),
        ([0xE2, 0x82], "in.json:1:3: invalid UTF-8 (truncated sequence)", "\u{FFFD}"),
        ([0xF0, 0x9F, 0x98, 0x61], "in.json:1:3: invalid UTF-8 (truncated sequence)", "\u{FFFD}a"),
        ([0x61, 0x80, 0x62], "in.json:1:4: invalid UTF-8 (continuation byte without a lead byte)", "a\u{FFFD}b"),
        ([0xBF], "in.json:1:3: invalid UTF-8 (continuation byte without a lead byte)", "\u{FFFD}"),
        (Array(#"\uD800"#.utf8), #"in.json:1:3: unpaired surrogate \uD800"#, "\u{FFFD}"),
        (Array(#"x\uDBFFy"#.utf8), #"in.json:1:4: unpaired surrogate \uDBFF"#, "x\u{FFFD}y"),
        (Array(#"\uD800\u0041"#.utf8), #"in.json:1:3: unpaired surrogate \uD800"#, "\u{FFFD}A"),
        (Array(#"\uD800\n"#.utf8), #"in.json:1:3: unpaired surrogate \uD800"#, "\u{FFFD}\n"),
        (Array(#"\uD800\uD800\uDC00"#.utf8), #"in.json:1:3: unpaired surrogate \uD800"#, "\u{FFFD}\u{10000}"),
        (Array(#"\uDC00"#.utf8), #"in.json:1:3: unpaired surrogate \uDC00"#, "\u{FFFD}"),
        (Array(#"\udfff\ud800"#.utf8), #"in.json:1:3: unpaired surrogate \uDFFF"#, "\u{FFFD}\u{FFFD}"),
    ]

    @Test(arguments: 0..<invalid.count)
    func invalidTextIsAnErrorAtItsFirstByte(_ index: Int) {
        let (bytes, error, _) = Self.invalid[index]
        #expect(outcome(bytes).error == error)
    }

    @Test(arguments: 0..<invalid.count)
    func invalidTextIsReplacedByMaximalSubparts(_ index: Int) {
        let (bytes, _, replaced) = Self.invalid[index]
        let result = outcome(bytes, policy: .replace)
        #expect(result.error == nil)
        #expect(result.events == ["[", "s:" + replaced, "]"])
        #expect(result.replaced == replaced.unicodeScalars.filter { $0 == "\u{FFFD}" }.count)
    }

    static let valid: [(bytes: [UInt8], text: String)] = [
        ([0xF4, 0x8F, 0xBF, 0xBF], "\u{10FFFF}"),
        ([0xEF, 0xBF, 0xBF], "\u{FFFF}"),
        ([0xEF, 0xBF, 0xBD], "\u{FFFD}"),
        ([0xED, 0x9F, 0xBF], "\u{D7FF}"),
        ([0xEE, 0x80, 0x80], "\u{E000}"),
        ([0xF0, 0x9F, 0x98, 0x80], "😀"),
        ([0xC2, 0x80], "\u{80}"),
        (Array(#"\uD83D\uDE00"#.utf8), "😀"),
        (Array(#"\udbff\udfff"#.utf8), "\u{10FFFF}"),
        (Array(#"\uFFFF\u0000"#.utf8), "\u{FFFF}\u{0}"),
        (Array(#"\\uD800"#.utf8), #"\uD800"#),
        (Array(#"\\\uD83D\uDE00\\"#.utf8), #"\😀\"#),
        (Array("a?b".utf8), "a?b"),
    ]

    @Test(arguments: 0..<valid.count)
    func validEdgeCasesPassUnchanged(_ index: Int) {
        let (bytes, text) = Self.valid[index]
        let result = outcome(bytes)
        #expect(result.error == nil)
        #expect(result.events == ["[", "s:" + text, "]"])
    }

    @Test func keysAreCheckedToo() {
        let bytes = Array(#"{"a"#.utf8) + [0xC0, 0xAF] + Array(#"": 1}"#.utf8)
        let recorder = EventRecorder()
        let parser = JSONParser(sourceName: "in.json", handler: recorder)
        #expect(throws: SluiceError.self) { try bytes.withUnsafeBytes { try parser.parse($0) } }
    }

    @Test func whitespaceIsJSONsFourOnly() {
        #expect(parseError(["[1,\u{0C}2]"])?.description.hasPrefix("in.json:1:4: invalid JSON: a form feed (0x0C) is not JSON whitespace") == true)
        #expect(parseError(["[1,", "\u{0B}2]"])?.description.hasPrefix("in.json:1:4: invalid JSON: a vertical tab (0x0B)") == true)
        #expect(parseError(["[1,\u{A0}2]"])?.description == "in.json:1:4: invalid JSON: unexpected non-ASCII character outside a string")
        #expect(parseError(["[1,\u{2028}2]"])?.description == "in.json:1:4: invalid JSON: unexpected non-ASCII character outside a string")
        #expect(parseError([" \t\r\n[1, \t\r\n2]\r\n"]) == nil)
    }
}
