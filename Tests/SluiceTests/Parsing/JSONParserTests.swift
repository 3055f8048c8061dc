import Testing
@testable import Sluice

/// Records events as short strings, and the position of each object start.
final class EventRecorder: EventHandler {
    var events: [String] = []
    var objectStarts: [InputPosition] = []
    weak var parser: JSONParser?

    func startObject() {
        events.append("{")
        if let parser { objectStarts.append(parser.tokenPosition(length: 1)) }
    }
    func key(_ bytes: UnsafeRawBufferPointer) { events.append("k:" + String(decoding: bytes, as: UTF8.self)) }
    func endObject() { events.append("}") }
    func startArray() { events.append("[") }
    func endArray() { events.append("]") }
    func null() { events.append("null") }
    func bool(_ value: Bool) { events.append("b:\(value)") }
    func number(_ text: UnsafeRawBufferPointer) { events.append("n:" + String(decoding: text, as: UTF8.self)) }
    func string(_ bytes: UnsafeRawBufferPointer) { events.append("s:" + String(decoding: bytes, as: UTF8.self)) }
}

/// Parses `text` fed in the given chunks; returns the recorder, or throws the parse error.
@discardableResult
func parseEvents(_ chunks: [String], options: JSONParser.Options = .init()) throws(SluiceError) -> EventRecorder {
    let recorder = EventRecorder()
    let parser = JSONParser(sourceName: "in.json", handler: recorder, options: options)
    recorder.parser = parser
    for chunk in chunks {
        let bytes = Array(chunk.utf8)
        do {
            try bytes.withUnsafeBytes { try parser.parse($0) }
        } catch let error as SluiceError {
            throw error
        } catch {
            preconditionFailure()
        }
    }
    try parser.finish()
    return recorder
}

func parseError(_ chunks: [String], options: JSONParser.Options = .init()) -> SluiceError? {
    do {
        try parseEvents(chunks, options: options)
        return nil
    } catch {
        return error
    }
}

@Suite struct JSONParserTests {
    let document = #"[{"id": 42, "name": "Caf\u00e9 \"A\"", "tags": [true, false, null], "big": -9223372036854775808, "x": 1.5e300}]"#
    let expected = ["[", "{", "k:id", "n:42", "k:name", "s:Café \"A\"", "k:tags", "[", "b:true", "b:false", "null", "]",
                    "k:big", "n:-9223372036854775808", "k:x", "n:1.5e300", "}", "]"]

    @Test func eventsOfOneDocument() throws {
        #expect(try parseEvents([document]).events == expected)
    }

    @Test func everySplitPointAcrossTwoChunksGivesTheSameEvents() throws {
        let bytes = Array(document.utf8)
        for split in 0...bytes.count {
            let first = String(decoding: bytes[..<split], as: UTF8.self)
            let second = String(decoding: bytes[split...], as: UTF8.self)
            // Splitting inside a multi-byte character is not representable as two Strings; the
            // document is ASCII apart from its escape, so every split is.
            #expect(try parseEvents([first, second]).events == expected, "split at \(split)")
        }
    }

    @Test func oneByteChunks() throws {
        #expect(try parseEvents(document.map(String.init)).events == expected)
    }

    @Test func multipleValuesAndNDJSON() throws {
        #expect(try parseEvents(["{\"a\":1}\n{\"a\":2}\n", "{\"a\":3}"]).events
            == ["{", "k:a", "n:1", "}", "{", "k:a", "n:2", "}", "{", "k:a", "n:3", "}"])
        #expect(try parseEvents(["{\"a\":1}{\"a\":2}"]).events.count == 8)
        #expect(try parseEvents(["1 2 \"x\""]).events == ["n:1", "n:2", "s:x"])
    }

    @Test func emptyAndWhitespaceOnlyInputHoldNoValues() throws {
        #expect(try parseEvents([]).events == [])
        #expect(try parseEvents(["  \n\t ", "\n"]).events == [])
    }

    @Test func numbersKeepTheirExactText() throws {
        let numbers = ["0", "-0", "10158365420975381", "18446744073709551616", "1e3", "12.0", "-1.25E-7"]
        for number in numbers {
            #expect(try parseEvents(["[\(number)]"]).events == ["[", "n:\(number)", "]"])
        }
    }

    @Test func objectStartPositionsAcrossChunksAndLines() throws {
        let recorder = try parseEvents(["[\n  {\"a\": 1},\n", "  {\"a\": 2}, {\"a\"", ": 3}\n]"])
        #expect(recorder.objectStarts.map { [$0.line, $0.column] } == [[2, 3], [3, 3], [3, 13]])
        #expect(recorder.objectStarts.map(\.offset) == [4, 16, 26])
    }

    @Test func invalidJSONNamesLineColumnAndExcerpt() {
        let error = parseError(["[\n {\"a\": 1},\n {\"a\" 2}]"])
        #expect(error?.kind == .data)
        #expect(error?.description == "in.json:3:7: invalid JSON: object key and value must be separated by a colon (':') near ' {\"a\" 2}]'")
        let lexical = parseError(["{\"a\": tru}"])
        #expect(lexical?.description == "in.json:1:9: invalid JSON: invalid string in json text near '{\"a\": tru}'")
    }

    @Test func positionsOfErrorsInLaterChunks() {
        let error = parseError(["[1,\n2,\n", "3,\n", "4,,5]"])
        #expect(error?.position?.line == 4)
        #expect(error?.position?.column == 3)
        #expect(error?.position?.offset == 12)
    }

    @Test func truncatedInput() {
        let error = parseError(["[{\"a\": 1}, {\"b\": "])
        #expect(error?.description == "in.json:1:19: unexpected end of input: the JSON is truncated")
        #expect(parseError(["\"abc"])?.message == "unexpected end of input: the JSON is truncated")
    }

    @Test func invalidUTF8() {
        let recorder = EventRecorder()
        let parser = JSONParser(sourceName: "in.json", handler: recorder)
        let bytes: [UInt8] = Array("[\"ok\", \"b".utf8) + [0xC3, 0x28] + Array("\"]".utf8)
        #expect(throws: SluiceError.self) {
            try bytes.withUnsafeBytes { try parser.parse($0) }
        }
        do {
            try bytes.withUnsafeBytes { try parser.parse($0) }
        } catch let error as SluiceError {
            #expect(error.message == "invalid UTF-8 (truncated sequence)")
            #expect(error.position?.line == 1)
        } catch {}
    }

    @Test func nestingLimit() throws {
        let deep = String(repeating: "[", count: 1001) + String(repeating: "]", count: 1001)
        let error = parseError([deep])
        #expect(error?.description == "in.json:1:1001: nesting deeper than 1000 levels")
        let ok = String(repeating: "[", count: 1000) + String(repeating: "]", count: 1000)
        #expect(try parseEvents([ok]).events.count == 2000)
    }

    @Test func tokenLargerThanTheLimitStopsBeforeItIsBuffered() {
        let options = JSONParser.Options(maxValueBytes: 100)
        let chunks = ["[\"" + String(repeating: "x", count: 60)] + Array(repeating: String(repeating: "y", count: 60), count: 3)
        let error = parseError(chunks, options: options)
        #expect(error?.message == "a single value is larger than 100 bytes (--max-value-bytes)")
        #expect(parseError(["[\"" + String(repeating: "x", count: 90) + "\"]"], options: options) == nil)
    }

    /// A key is a value like any other here: the limit is what bounds the memory a long key
    /// costs before the zero-config writer can refuse it (docs/import-semantics.md#limits).
    @Test func aKeyLargerThanTheLimitStopsBeforeItIsBuffered() {
        let options = JSONParser.Options(maxValueBytes: 100)
        let chunks = ["[{\"" + String(repeating: "k", count: 60)] + Array(repeating: String(repeating: "k", count: 60), count: 3)
        #expect(parseError(chunks, options: options)?.description
            == "in.json:1:3: a single value is larger than 100 bytes (--max-value-bytes)")
    }

    @Test func largeTokensArePlacedWhereTheyStart() {
        let options = JSONParser.Options(maxValueBytes: 100)
        // Whole within one chunk: a string and a number.
        let string = parseError(["[1,\n  \"" + String(repeating: "x", count: 101) + "\"]"], options: options)
        #expect(string?.description == "in.json:2:3: a single value is larger than 100 bytes (--max-value-bytes)")
        let number = parseError(["[" + String(repeating: "9", count: 101) + " ]"], options: options)
        #expect(number?.description == "in.json:1:2: a single value is larger than 100 bytes (--max-value-bytes)")
        // Across chunks, starting after a newline in the first.
        let chunks = ["{\"a\": 1, \"b\":\n   \"xx"] + Array(repeating: String(repeating: "y", count: 60), count: 3)
        #expect(parseError(chunks, options: options)?.description
            == "in.json:2:4: a single value is larger than 100 bytes (--max-value-bytes)")
    }

    @Test func handlerErrorsStopTheParseUnchanged() {
        final class Refuser: EventHandler {
            func startObject() throws(SluiceError) { throw SluiceError(.data, "no objects here") }
            func key(_ bytes: UnsafeRawBufferPointer) {}
            func endObject() {}
            func startArray() {}
            func endArray() {}
            func null() {}
            func bool(_ value: Bool) {}
            func number(_ text: UnsafeRawBufferPointer) {}
            func string(_ bytes: UnsafeRawBufferPointer) {}
        }
        let parser = JSONParser(sourceName: "x", handler: Refuser())
        do {
            try Array("[1, {}]".utf8).withUnsafeBytes { try parser.parse($0) }
            Issue.record("expected an error")
        } catch let error as SluiceError {
            #expect(error.message == "no objects here")
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func commentsOnlyWhenAllowed() throws {
        let text = "// model\n{\"a\": /* one */ 1}"
        #expect(parseError([text]) != nil)
        #expect(try parseEvents([text], options: .init(allowComments: true)).events == ["{", "k:a", "n:1", "}"])
    }

    @Test func jsonValueTree() throws {
        let value = try JSONValue.parse(Array("{\"a\": [1, \"x\", null, true], \"b\": {}} ".utf8), sourceName: "m.json")
        #expect(value == .object([.init("a", .array([.number("1"), .string("x"), .null, .bool(true)])), .init("b", .object([]))]))
        #expect(value["a"] == .array([.number("1"), .string("x"), .null, .bool(true)]))
    }
}

extension SluiceError: Equatable {
    public static func == (lhs: SluiceError, rhs: SluiceError) -> Bool {
        lhs.kind == rhs.kind && lhs.message == rhs.message && lhs.source == rhs.source && lhs.position == rhs.position
    }
}
