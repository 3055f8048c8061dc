import Testing
@testable import Sluice

/// Records a CSV reader's events as short strings: `{@line:column` for a row with its position,
/// `!message@source:line:column` for a record error (the row's problem).
private final class CSVRecorder: EventHandler {
    var events: [String] = []
    weak var reader: CSVReader?

    func startObject() {
        events.append("{@\(reader.map { "\($0.tokenPosition(length: 1))" } ?? "?")")
    }
    func key(_ bytes: UnsafeRawBufferPointer) { events.append("k:" + String(decoding: bytes, as: UTF8.self)) }
    func endObject() { events.append("}") }
    func startArray() { events.append("[") }
    func endArray() { events.append("]") }
    func null() { events.append("null") }
    func bool(_ value: Bool) { events.append("b:\(value)") }
    func number(_ text: UnsafeRawBufferPointer) { events.append("n:" + String(decoding: text, as: UTF8.self)) }
    func string(_ bytes: UnsafeRawBufferPointer) { events.append("s:" + String(decoding: bytes, as: UTF8.self)) }
    func invalidText(_ error: SluiceError) {
        events.append("!\(error.message)@\(error.source ?? ""):\(error.position.map { "\($0)" } ?? "?")")
    }
}

/// What reading `chunks` gives: the events, then the error that ended the input (if any) as
/// `error: <description>`, and the replacement characters counted.
private func readCSV(_ chunks: [[UInt8]], options: CSVReader.Options = .init())
    -> (events: [String], replaced: Int, padding: [Int]) {
    let recorder = CSVRecorder()
    let reader = CSVReader(sourceName: "in.csv", handler: recorder, options: options)
    recorder.reader = reader
    do throws(SluiceError) {
        for chunk in chunks {
            var failure: SluiceError?
            chunk.withUnsafeBytes { bytes in
                do throws(SluiceError) { try reader.parse(bytes) } catch { failure = error }
            }
            if let failure { throw failure }
        }
        try reader.finish()
    } catch {
        recorder.events.append("error: \(error)")
    }
    return (recorder.events, reader.replacementCharacters, [reader.paddedNames, reader.blanksAfterQuotes])
}

private func readCSV(_ text: String, options: CSVReader.Options = .init()) -> [String] {
    readCSV([Array(text.utf8)], options: options).events
}

/// Reading `bytes` whole, split in two at every byte, and a byte at a time gives the same.
private func expectSameWhateverTheChunks(_ bytes: [UInt8], options: CSVReader.Options = .init(),
                                         sourceLocation: SourceLocation = #_sourceLocation) {
    let whole = readCSV([bytes], options: options)
    for split in 0...bytes.count {
        let two = readCSV([Array(bytes[..<split]), Array(bytes[split...])], options: options)
        #expect(two.events == whole.events, "split at \(split)", sourceLocation: sourceLocation)
        #expect(two.replaced == whole.replaced, "split at \(split)", sourceLocation: sourceLocation)
        #expect(two.padding == whole.padding, "split at \(split)", sourceLocation: sourceLocation)
    }
    for size in 1...8 {
        let chunks = stride(from: 0, to: bytes.count, by: size).map { Array(bytes[$0..<min($0 + size, bytes.count)]) }
        let sized = readCSV(chunks, options: options)
        #expect(sized.events == whole.events, "chunks of \(size)", sourceLocation: sourceLocation)
        #expect(sized.replaced == whole.replaced && sized.padding == whole.padding, "chunks of \(size)",
                sourceLocation: sourceLocation)
    }
    let bytewise = readCSV(bytes.map { [$0] }, options: options)
    #expect(bytewise.events == whole.events, "one byte at a time", sourceLocation: sourceLocation)
}

@Suite struct CSVReaderTests {
    @Test func headerNamesTheKeysAndEachRowIsAnObjectOfStrings() {
        #expect(readCSV("id,name,lat\n1,Main,1.5\n2,Side,-2\n") == [
            "{@2:1", "k:id", "s:1", "k:name", "s:Main", "k:lat", "s:1.5", "}",
            "{@3:1", "k:id", "s:2", "k:name", "s:Side", "k:lat", "s:-2", "}",
        ])
    }

    @Test func anEmptyFieldIsMissingQuotedOrNot() {
        #expect(readCSV("a,b,c\n,x,\"\"\n") == ["{@2:1", "k:b", "s:x", "}"])
    }

    @Test func quotedFieldsHoldSeparatorsLineBreaksAndDoubledQuotes() {
        #expect(readCSV("a,b\n\"x, y\",\"say \"\"hi\"\"\nthen\r\nbye\"\n") == [
            "{@2:1", "k:a", "s:x, y", "k:b", "s:say \"hi\"\nthen\r\nbye", "}",
        ])
    }

    @Test func crlfLFAndCRAreLineBreaksMixedAsTheyComeAndEmptyLinesAreNoRows() {
        #expect(readCSV("a\r\n1\r\n\r\n2\n\n3\r4") == [
            "{@2:1", "k:a", "s:1", "}", "{@4:1", "k:a", "s:2", "}", "{@6:1", "k:a", "s:3", "}",
            "{@6:3", "k:a", "s:4", "}",
        ])
    }

    @Test func theLastRowNeedsNoLineBreakAndATrailingSeparatorIsAnEmptyField() {
        #expect(readCSV("a,b\n1,") == ["{@2:1", "k:a", "s:1", "}"])
        #expect(readCSV("a,b\n1,\"2\"") == ["{@2:1", "k:a", "s:1", "k:b", "s:2", "}"])
    }

    @Test func anEmptyInputOrAHeaderAloneHasNoRows() {
        #expect(readCSV("") == [])
        #expect(readCSV("\n\n") == [])
        #expect(readCSV("a,b,c") == [])
        #expect(readCSV("a,b,c\r\n") == [])
    }

    @Test func fewerFieldsThanTheHeaderLeaveTheRestMissing() {
        #expect(readCSV("a,b,c\n1\n") == ["{@2:1", "k:a", "s:1", "}"])
    }

    @Test func moreFieldsThanTheHeaderIsARecordErrorAtTheFirstExtraOne() {
        #expect(readCSV("a,b\n1,2,3,4\n5,6\n") == [
            "{@2:1", "k:a", "s:1", "k:b", "s:2", "!a row has more fields than the header's 2@in.csv:2:5", "}",
            "{@3:1", "k:a", "s:5", "k:b", "s:6", "}",
        ])
        // Empty extra fields hold nothing: a trailing separator is not an error.
        #expect(readCSV("a,b\n1,2,,\n") == ["{@2:1", "k:a", "s:1", "k:b", "s:2", "}"])
    }

    @Test func aQuoteInsideAnUnquotedFieldIsARecordErrorAndTheRowIsStillSplitAtItsSeparators() {
        #expect(readCSV("a,b\n5'10\",x\ny,z\n") == [
            "{@2:1",
            "!a quote inside a field that does not begin with one (quote the whole field and double the quote: \"a\"\"b\")@in.csv:2:5",
            "k:a", "s:5'10\"", "k:b", "s:x", "}",
            "{@3:1", "k:a", "s:y", "k:b", "s:z", "}",
        ])
    }

    @Test func bytesAfterAClosingQuoteAreARecordError() {
        #expect(readCSV("a,b\n\"x\ny\"z,w\n") == [
            "{@2:1",
            "!a quoted field goes on after its closing quote (a quote inside quotes is doubled: \"a\"\"b\")@in.csv:3:3",
            "k:a", "s:x\nyz", "k:b", "s:w", "}",
        ])
    }

    @Test func blanksAfterAClosingQuoteAreDroppedAndCountedWhereverTheChunksEnd() {
        // A large US agency's fare file: `"https://…/fares/" ` then the line end.
        let text = "fare_id,fare_url\r\n\"1\",\"https://example.org/fares/\" \r\n\"2\"  \t ,\"b\"\t\r\n\"3\" ,\"c\""
        let read = readCSV([Array(text.utf8)])
        #expect(read.events == [
            "{@2:1", "k:fare_id", "s:1", "k:fare_url", "s:https://example.org/fares/", "}",
            "{@3:1", "k:fare_id", "s:2", "k:fare_url", "s:b", "}",
            "{@4:1", "k:fare_id", "s:3", "k:fare_url", "s:c", "}",
        ])
        #expect(read.padding == [0, 4])
        expectSameWhateverTheChunks(Array(text.utf8))
        // A last field's blanks at the input's end, and an empty quoted field's.
        #expect(readCSV("a,b\n\"\"  ,\"x\"   ") == ["{@2:1", "k:b", "s:x", "}"])
        expectSameWhateverTheChunks(Array("a,b\n\"\"  ,\"x\"   ".utf8))
        // In the header too.
        #expect(readCSV("\"a\" ,\"b\"\t\n1,2\n") == ["{@2:1", "k:a", "s:1", "k:b", "s:2", "}"])
    }

    @Test func otherTextAfterAClosingQuoteAndItsBlanksIsARecordErrorAtThatText() {
        let text = "a,b\r\n\"x\"  y,z\r\n\"p\" \t\"q\",r\r\n1,2\r\n"
        let message = "a quoted field goes on after its closing quote (a quote inside quotes is doubled: \"a\"\"b\")"
        let read = readCSV([Array(text.utf8)])
        #expect(read.events == [
            "{@2:1", "!\(message)@in.csv:2:6", "k:a", "s:x  y", "k:b", "s:z", "}",
            "{@3:1", "!\(message)@in.csv:3:6", "k:a", "s:p \t\"q\"", "k:b", "s:r", "}",
            "{@4:1", "k:a", "s:1", "k:b", "s:2", "}",
        ])
        #expect(read.padding == [0, 0])
        expectSameWhateverTheChunks(Array(text.utf8))
        // In the header: an input error.
        #expect(readCSV("\"a\" b\n") == ["error: in.csv:1:5: \(message)"])
    }

    @Test func tsvBlanksAfterAQuoteAreSpacesTheTabIsTheSeparator() {
        let text = "a\tb\n\"x\" \t\"y\"\t\n"
        let read = readCSV([Array(text.utf8)], options: .init(separator: 0x09))
        #expect(read.events == ["{@2:1", "k:a", "s:x", "k:b", "s:y", "}"])
        #expect(read.padding == [0, 1])
        expectSameWhateverTheChunks(Array(text.utf8), options: .init(separator: 0x09))
    }

    @Test func blanksAfterAQuoteCountTowardsTheFieldsLimit() {
        let options = CSVReader.Options(maxValueBytes: 16)
        let bytes = Array(("a\n\"x\"" + String(repeating: " ", count: 20) + "\n").utf8)
        #expect(readCSV([bytes], options: options).events
            == ["{@2:1", "error: in.csv:2:1: a single value is larger than 16 bytes (--max-value-bytes)"])
        expectSameWhateverTheChunks(bytes, options: options)
    }

    @Test func headerNamesLoseTheirSpacesAndTabsAtEitherEnd() {
        // SEPTA's calendar.txt and Metra's files (node-gtfs issue 89): a space after each comma.
        let text = "service_id, monday,\ttuesday ,\" sunday \"\r\nM1, 1, 0,1\r\n"
        let read = readCSV([Array(text.utf8)])
        #expect(read.events == [
            "{@2:1", "k:service_id", "s:M1", "k:monday", "s: 1", "k:tuesday", "s: 0", "k:sunday", "s:1", "}",
        ])
        #expect(read.padding == [3, 0])
        expectSameWhateverTheChunks(Array(text.utf8))
        // Names alike once trimmed are one name given twice; a blank name is an unnamed column.
        #expect(readCSV("a, a\n") == [
            "error: in.csv:1:3: the header names the column \"a\" twice, fields 1 and 2: each column needs a name of its own",
        ])
        #expect(readCSV("a,  ,b\n1,2,3\n") == ["{@2:1", "k:a", "s:1", "k:", "s:2", "k:b", "s:3", "}"])
    }

    @Test func theInputEndingInsideQuotesIsAnInputErrorAtTheOpeningQuote() {
        #expect(readCSV("a,b\n1,\"open\n2,3\n") == [
            "{@2:1", "k:a", "s:1",
            "error: in.csv:2:3: a quoted field is not closed: the input ends inside it",
        ])
    }

    @Test func aProblemInTheHeaderIsAnInputError() {
        #expect(readCSV("a,b\"c\n1,2\n") == [
            "error: in.csv:1:4: a quote inside a field that does not begin with one (quote the whole field and double the quote: \"a\"\"b\")",
        ])
    }

    @Test func invalidUTF8InARowIsARecordErrorAtItsFirstBadByteThenReplaced() {
        // In a quoted field, after a line break and a doubled quote: the position counts them.
        let bytes = Array("a,b\n1,\"x\n\"\"y".utf8) + [0xC3] + Array("z\"\n".utf8)
        #expect(readCSV([bytes]).events == [
            "{@2:1", "k:a", "s:1", "!invalid UTF-8 (truncated sequence)@in.csv:3:4", "k:b", "s:x\n\"y\u{FFFD}z", "}",
        ])
        expectSameWhateverTheChunks(bytes)
    }

    @Test func invalidUTF8IsReplacedAndCountedUnderReplace() {
        let bytes = Array("a\n".utf8) + [0xFF, 0x41, 0xED, 0xA0, 0x80] + Array("\n".utf8)
        let read = readCSV([bytes], options: .init(invalidText: .replace))
        #expect(read.events == ["{@2:1", "k:a", "s:\u{FFFD}A\u{FFFD}\u{FFFD}\u{FFFD}", "}"])
        #expect(read.replaced == 4)
    }

    /// The scan knows an unquoted field is ASCII from the bytes it passed over; bytes it took
    /// after a quote problem, or after an empty quoted part, are still checked.
    @Test func invalidUTF8AfterAQuoteProblemIsStillFound() {
        for prefix in ["5\"", "\"\"", "\"x\"", "ab"] {
            let bytes = Array("a\n\(prefix)".utf8) + [0xC3, 0x28] + Array("\nok\n".utf8)
            let read = readCSV([bytes], options: .init(invalidText: .replace))
            #expect(read.replaced == 1, "\(prefix)")
            #expect(read.events.contains { $0.hasPrefix("s:") && $0.hasSuffix("\u{FFFD}(") }, "\(prefix): \(read.events)")
            expectSameWhateverTheChunks(bytes, options: .init(invalidText: .replace))
            expectSameWhateverTheChunks(bytes)
        }
    }

    /// A handler hears each field with its column (`field`), and that a header ended
    /// (`columnsNamed`), once per header.
    @Test func fieldsCarryTheirColumnAndAHeaderIsAnnounced() {
        final class Columns: EventHandler {
            var events: [String] = []
            func startObject() { events.append("{") }
            func key(_ bytes: UnsafeRawBufferPointer) { events.append("key") }
            func endObject() { events.append("}") }
            func startArray() {}
            func endArray() {}
            func null() {}
            func bool(_ value: Bool) {}
            func number(_ text: UnsafeRawBufferPointer) {}
            func string(_ bytes: UnsafeRawBufferPointer) { events.append("string") }
            func field(_ column: Int, name: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer) {
                events.append("\(column):\(String(decoding: name, as: UTF8.self))=\(String(decoding: value, as: UTF8.self))")
            }
            func columnsNamed() { events.append("header") }
        }
        let handler = Columns()
        let reader = CSVReader(sourceName: "in.csv", handler: handler)
        Array("a,b,c\n1,,\"3\"\n,2\n".utf8).withUnsafeBytes { bytes in
            #expect(throws: Never.self) { try reader.parse(bytes) }
        }
        #expect(throws: Never.self) { try reader.finish() }
        #expect(handler.events == ["header", "{", "0:a=1", "2:c=3", "}", "{", "1:b=2", "}"])
    }

    @Test func invalidUTF8InTheHeaderIsAnInputError() {
        let bytes = Array("id,na".utf8) + [0xC0, 0xAF] + Array("me\n1,x\n".utf8)
        #expect(readCSV([bytes]).events == ["error: in.csv:1:6: invalid UTF-8 (overlong encoding)"])
    }

    @Test func aFieldLargerThanTheLimitIsAnInputErrorAtItsStartWhereverTheChunksEnd() {
        let options = CSVReader.Options(maxValueBytes: 8)
        // 8 bytes with the quotes is allowed; 9 is not.
        #expect(readCSV("a\n\"123456\"\n", options: options) == ["{@2:1", "k:a", "s:123456", "}"])
        let bytes = Array("a,b\n1,\"1234567\"\n".utf8)
        #expect(readCSV([bytes], options: options).events == [
            "{@2:1", "k:a", "s:1", "error: in.csv:2:3: a single value is larger than 8 bytes (--max-value-bytes)",
        ])
        expectSameWhateverTheChunks(bytes, options: options)
        expectSameWhateverTheChunks(Array("a\nxxxxxxxxxxxxxxxxxxxxxxxxxxx".utf8), options: options)
    }

    /// Fuzz finding (crash-a351fad0): a problem in a field already over the limit was reported
    /// before the size error when read whole, and not when a chunk had ended before it.
    @Test func aFieldOverTheLimitIsThatErrorBeforeAnyProblemLaterInIt() {
        let options = CSVReader.Options(maxValueBytes: 16)
        let bytes = Array("a,b\n\"x,Close\u{0}\u{0}\u{0}dRang\"enC,x\n".utf8)
        #expect(readCSV([bytes], options: options).events
            == ["{@2:1", "error: in.csv:2:1: a single value is larger than 16 bytes (--max-value-bytes)"])
        expectSameWhateverTheChunks(bytes, options: options)
        expectSameWhateverTheChunks(Array("a\n12345678901234567\"8\n".utf8), options: options)
    }

    @Test func aHeaderLargerThanTheLimitIsAnInputError() {
        let options = CSVReader.Options(maxValueBytes: 8)
        #expect(readCSV("abc,def,ghi\n1\n", options: options)
            == ["error: in.csv:1:1: the header row is larger than 8 bytes (--max-value-bytes)"])
        expectSameWhateverTheChunks(Array("abc,de\"f,ghi\n1\n".utf8), options: options)
    }

    @Test func tsvSeparatesWithTabs() {
        #expect(readCSV("a\tb\n1,2\t\"x\ty\"\n", options: .init(separator: 0x09)) == [
            "{@2:1", "k:a", "s:1,2", "k:b", "s:x\ty", "}",
        ])
    }

    @Test func everyChunkingGivesTheSameEventsPositionsAndErrors() {
        let documents = [
            "id,name,note\r\n1,\"a, b\",\"x\"\"y\"\r\n\r\n2,,\"multi\nline\"\n3,c\n4,d,e,f\n5,q\"r,\"s\"t\n6,\"",
            "a,b\n\"x\"\r\n\"y\"\r\"z\"\n,\n,,\n",
            "h\n\"\"\"\"\n\"\"\n",
        ]
        for document in documents {
            expectSameWhateverTheChunks(Array(document.utf8))
        }
        expectSameWhateverTheChunks(Array("a,b\n1,\"é".utf8) + [0xE2, 0x82] + Array("\"\n".utf8))
        expectSameWhateverTheChunks(Array("a,b\n1,\"é".utf8) + [0xE2, 0x82] + Array("\"\n".utf8),
                                    options: .init(invalidText: .replace))
    }
}
