import Foundation
@_spi(Fuzzing) import Sluice
import Testing

/// Inputs the fuzz target (`Fuzz/`) found, kept as tests. Each runs the target's checks: the
/// input fed whole and in small chunks must give the same records, rejections and error
/// (the error's excerpt of the input aside), and every captured rejected record must be one
/// JSON value.
@Suite struct FuzzRegressionTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var input: String
        /// Bytes that are not UTF-8, in place of `input`.
        var rawInput: [UInt8]? = nil
        var chunkSize: Int
        var maxValueBytes: Int
        var maxDepth = 1_000
        /// Zero-config (`FreeformAssembler`) instead of the model.
        var freeform = false
        /// The one error both runs must end with (nil: no error).
        var error: String?
        var testDescription: String { name }
    }

    static let model: Model = try! Model.parse(Array("""
        { "root": "Item", "entities": { "Item": { "identity": "id",
          "attributes": { "id": "integer", "name": "string", "extra": "json" } } } }
        """.utf8), sourceName: "model")

    static let cases: [Case] = [
        // crash-a30812ee: an unterminated string over the limit that then meets a raw
        // newline. Fed whole, yajl's lexical error was reported; in chunks of 4, the size
        // check at a chunk boundary came first. Now the size wins either way.
        Case(name: "lexical error inside an oversized string",
             input: "{\"id\":1,\"name\":\"" + String(repeating: "x", count: 47) + "]]]]]}\n",
             chunkSize: 4, maxValueBytes: 48,
             error: "fuzz:1:16: a single value is larger than 48 bytes (--max-value-bytes)"),
        // Whitespace is not a value: a long run of it between tokens is not "too large".
        Case(name: "whitespace longer than the limit",
             input: "{\"id\": 1," + String(repeating: " ", count: 100) + "\"name\": \"a\"}",
             chunkSize: 3, maxValueBytes: 48, error: nil),
        // A key is a string too, limited the same way whole or in chunks.
        Case(name: "oversized key",
             input: "{\"id\": 1, \"" + String(repeating: "k", count: 60) + "\": 2}",
             chunkSize: 5, maxValueBytes: 48,
             error: "fuzz:1:11: a single value is larger than 48 bytes (--max-value-bytes)"),
        // Escapes: 8 decoded bytes written as 48 input bytes, counted as written.
        Case(name: "escaped string over the limit in the input",
             input: "{\"id\": 1, \"name\": \"" + String(repeating: "\\u0041", count: 8) + "\"}",
             chunkSize: 7, maxValueBytes: 48,
             error: "fuzz:1:19: a single value is larger than 48 bytes (--max-value-bytes)"),
        // crash-(second run): `{"id"1an,` in chunks of 3. The number `1` ends a chunk; yajl
        // knows it ended, and refuses it, only in the next chunk, where it has consumed
        // nothing: the error pointed at the next chunk's first byte instead of at the `1`.
        Case(name: "parse error on a token that ended at a chunk boundary",
             input: "\n{\"id\"1an,:\"me\":\"x\"}", chunkSize: 3, maxValueBytes: 1 << 20,
             error: "fuzz:2:6: invalid JSON: object key and value must be separated by a colon (':')"),
        // crash-(third run), zero-config: `"A,"12:` in chunks of 2. yajl places a parse
        // error at its guess of the token's start within the current chunk (end less the
        // token's length, clamped at the chunk's start): the number `12` split over two
        // chunks was placed at the chunk boundary. Now a parse error points at what follows
        // the last good value, wherever the chunks fall.
        Case(name: "parse error on a token split over chunks",
             input: #"[{"a":"A,"12:,"pk":3}]"#, chunkSize: 2, maxValueBytes: 1 << 20, freeform: true,
             error: #"fuzz:1:11: invalid JSON: after key and value, inside map, I expect ',' or '}'"#),
        // crash-(fourth run): `"id"1:` then a newline, zero-config, fed whole. Looking for the
        // start of a too-large token counted the newline after the refused `:`, and the
        // position of the `:` (asked for next) came out on the next line.
        Case(name: "parse error followed by a newline",
             input: "\n\"id\"1:\n\"x\"", chunkSize: 8, maxValueBytes: 1 << 20, freeform: true,
             error: "fuzz:2:6: invalid JSON: unallowed token at this point in JSON text"),
        // crash-(fifth run), a false alarm of the target itself: the excerpt began with a
        // combining mark, which joined the quote of " near '" into one Character, so the
        // target's excerpt stripping missed it. Stripping now works on bytes.
        Case(name: "lexical error whose excerpt starts with a combining mark",
             input: "{\"items\"\u{0364}[[]]}", chunkSize: 8, maxValueBytes: 1 << 20,
             error: "fuzz:1:9: invalid JSON: unexpected non-ASCII character outside a string"),
        // crash-5ea76c8c: 150 vertical tabs after `{`. yajl skips \v and \f as whitespace;
        // the size check took them for a token, too large once a chunk boundary fell in them.
        // They are not JSON whitespace: the first one is the error, whole or in chunks.
        Case(name: "vertical tabs and form feeds are not whitespace",
             input: "{" + String(repeating: "\u{0B}\u{0C}", count: 40) + "\"id\": 1}", chunkSize: 4, maxValueBytes: 48,
             error: "fuzz:1:2: invalid JSON: a vertical tab (0x0B) is not JSON whitespace (only space, tab, LF and CR are) "
                + "and must be escaped in a string"),
        // crash-e00b00ee: a truncated UTF-8 sequence (`E0` then `1`) where a token should
        // start. Whole, the scanner knew it was truncated; in chunks, the chunk ended after `E0`
        // and it did not. Outside a string the message now rests on the byte alone.
        Case(name: "non-ASCII lead byte outside a string at a chunk boundary",
             input: "", rawInput: Array(#"[{"a""#.utf8) + [0xE0] + Array(#"1,"A":2}]"#.utf8), chunkSize: 6,
             maxValueBytes: 1 << 20, error: "fuzz:1:6: invalid JSON: unexpected non-ASCII character outside a string"),
        // crash-d60119a7: bytes FF inside a key, then a NUL. yajl refuses the NUL, and its
        // offset fell on an FF whole but in the previous chunk when chunked, so the FF named
        // the error in one run only. Only an error outside a string is named by its byte.
        Case(name: "control character after invalid UTF-8 in a key",
             input: "", rawInput: Array(#"{"ite"#.utf8) + Array(repeating: 0xFF, count: 11) + [0x00, 0xFF, 0x22, 0x7D],
             chunkSize: 8, maxValueBytes: 1 << 20, error: "fuzz:1:17: invalid JSON: invalid character inside string"),
        // crash-88a47522: a vertical tab inside a string already over the limit. Whole, the
        // tab was reported before the size check; in chunks the size came first. Now the bytes
        // before the tab are checked as a chunk ending there.
        Case(name: "vertical tab inside an oversized string",
             input: "{\"id\":1,\"name\":\"" + String(repeating: "x", count: 60) + "\u{0B}\"}", chunkSize: 4,
             maxValueBytes: 48, error: "fuzz:1:16: a single value is larger than 48 bytes (--max-value-bytes)"),
        Case(name: "parse error on a separator after an accepted separator",
             input: "[1,\n  ,2]", chunkSize: 3, maxValueBytes: 1 << 20, freeform: true,
             error: "fuzz:2:3: invalid JSON: unallowed token at this point in JSON text"),
    ]

    @Test(arguments: cases)
    func wholeAndChunkedAgree(_ test: Case) throws {
        let bytes = test.rawInput ?? Array(test.input.utf8)
        func run(_ chunkSize: Int) throws -> Fuzzing.Outcome {
            test.freeform
                ? Fuzzing.mapFreeform(bytes, chunkSize: chunkSize, maxValueBytes: test.maxValueBytes, maxDepth: test.maxDepth)
                : try Fuzzing.map(bytes, model: Self.model, chunkSize: chunkSize,
                                  maxValueBytes: test.maxValueBytes, maxDepth: test.maxDepth)
        }
        let whole = try run(bytes.count)
        for chunkSize in Set([1, 2, test.chunkSize]) {
            let chunked = try run(chunkSize)
            #expect(chunked.lines.map(Fuzzing.withoutExcerpt) == whole.lines.map(Fuzzing.withoutExcerpt), "chunks of \(chunkSize)")
        }
        let errors = whole.lines.filter { $0.hasPrefix("error ") }.map(Fuzzing.withoutExcerpt)
        #expect(errors == (test.error.map { ["error " + $0] } ?? []))
        for text in whole.rejectedTexts {
            if let text { #expect(Fuzzing.isOneJSONValue(text)) }
        }
    }

    /// crash-4786f75d, accepted as it is: a number over the limit standing where a `,` should
    /// be is one input with two faults. Fed whole, yajl lexes the number and refuses it as
    /// misplaced before handing it over; in chunks, the size check at a boundary inside it
    /// comes first. Both errors name the same place (the number's first byte); the fuzz
    /// target accepts exactly this difference.
    @Test func misplacedOversizedNumberIsOneErrorAtOnePlace() throws {
        let input = Array(("{\"id\": 1, \"name\": \"x\"" + String(repeating: "4", count: 100) + ", \"d\": 1}").utf8)
        let whole = try Fuzzing.map(input, model: Self.model, chunkSize: input.count, maxValueBytes: 48)
        let chunked = try Fuzzing.map(input, model: Self.model, chunkSize: 4, maxValueBytes: 48)
        #expect(whole.lines.map(Fuzzing.withoutExcerpt)
            == ["error fuzz:1:22: invalid JSON: after key and value, inside map, I expect ',' or '}'"])
        #expect(chunked.lines == ["error fuzz:1:22: a single value is larger than 48 bytes (--max-value-bytes)"])
    }

    /// crash-3fd85e7a, the Core Data names' target (`CoreDataNameCase`): entity `$$` had an
    /// attribute and a to-many relationship (the inverse of its to-one `$ı`) both named `$`
    /// 150 times. `check --layout coredata` accepted the model (a to-many has no column to
    /// clash), and the import refused the first record, whose key named both: "a bare id needs
    /// relatedBy". Core Data keeps one property of a name: both now refuse it with one message.
    @Test func attributeAndRelationshipOfOneName() throws {
        let long = String(repeating: "$", count: 150)
        var model = CoreDataNameCase { _ in 0 }
        model.entities = [
            .init(name: "$$", attributes: [long, "$$$$"],
                  relationships: [.init(name: "$ı", target: 0, toMany: false, ordered: false, inverse: long),
                                  .init(name: long, target: 0, toMany: true, ordered: false, inverse: "$ı")]),
            .init(name: long, attributes: [long, "select"]),
        ]
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sluice-names-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var accepted = true
        #expect(model.check(in: directory, accepted: &accepted) == nil)
        #expect(!accepted)
        let folder = directory + "/M.xcdatamodel"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try model.contents.write(toFile: folder + "/contents", atomically: true, encoding: .utf8)
        #expect(Fuzzing.checkCoreData(modelPath: folder) == "\(folder): entities.$$.relationships.\(long): \"\(long)\" is both "
            + "an attribute and a relationship of $$ (Core Data keeps one property of a name); rename one")
    }
}
