import Foundation
import SluiceTestSupport
import Testing
@_spi(Fuzzing) @testable import Sluice

/// The record assembler's inlined common cases (`FastPaths`) are proven equal to the general
/// path they shortcut: the same inputs, mapped both ways, give the same records, positions,
/// rejections and captured texts, and imported both ways the same rows. The whole suite also
/// runs with `SLUICE_GENERAL_PATHS=1` (`scripts/test`).
@Suite struct FastPathEquivalenceTests {
    /// Models and inputs that take each common case and step just outside it: keys in and out
    /// of the learned order, missing and repeated keys, fallbacks, nested and mapped records,
    /// captures, skipped values, failures, records without attributes, invalid text.
    static let cases: [(model: String, input: String)] = [
        (#"{"root": {"items": "Item"}, "entities": {"Item": {"attributes": {}}}}"#,
         #"{"items": [{}, {"a": 1}, [], 3, null, {"b": {"c": [1]}}]}"#),
        (#"{"root": "R", "entities": {"R": {"identity": "id", "attributes": {"id": "integer", "s": {"type": "string", "key": ["s", "t"]}, "d": "double", "n": {"type": "integer", "key": "deep.n"}, "b": "boolean", "req": {"type": "string", "optional": false, "default": "x", "defaultWhenMissing": true}, "j": "json"}}}}"#,
         """
         {"id": 1, "s": "a", "d": 1.5, "deep": {"n": 2}, "b": true, "j": {"x": [1, "y"]}}
         {"d": 0.25, "id": "2", "t": "fallback", "s": null, "b": "no"}
         {"id": 3, "s": 12, "d": "1e400", "deep": {"n": 1.5}}
         {"id": 1, "id": 4, "x": {"deep": {"n": 1}}, "deep": 3, "j": "text"}
         {"id": 123456789012345678, "d": -0, "s": "\\u00e9\\ud83d\\ude00", "b": 0}
         {"id": -0.0, "d": 12345678901234567890, "req": null}
         [1, 2]
         "no"
         {"id": 9223372036854775808}
         {"id": 7, "d": 1.000000000000001, "n": 99999999999999999}
         """),
        (#"{"entities": {"Trip": {"identity": "id", "attributes": {"id": "string"}, "relationships": {"stops": {"entity": "Stop", "toMany": true, "inverse": "trip", "position": "seq"}, "route": {"entity": "Route"}}}, "Stop": {"identity": ["trip", "seq"], "attributes": {"seq": "integer", "name": "string"}, "relationships": {"trip": {"entity": "Trip"}}}, "Route": {"identity": "id", "attributes": {"id": "integer", "tags": {"type": "json"}}}}}"#,
         """
         {"id": "t1", "stops": [{"name": "a"}, {"name": "b"}, null, 5], "route": {"id": 1, "tags": [1, {"a": null}]}}
         {"stops": {"name": "only"}, "id": "t2", "route": 1}
         {"id": "t3", "route": {"id": "x"}, "stops": [{"name": "c"}]}
         {"id": "t4", "route": [1], "stops": "no"}
         """),
        (#"{"root": {"users": {"entity": "User", "map": "id"}}, "entities": {"User": {"identity": "id", "attributes": {"id": "string", "age": "integer"}}}}"#,
         #"{"users": {"u1": {"age": 3}, "u2": null, "u3": {"age": "x"}, "u4": {}}}"#),
    ]

    static let invalidText: [UInt8] = Array(#"[{"id": 1, "s": "ok"}, {"id": 2, "s": "bad "#.utf8) + [0xC3, 0x28]
        + Array(#""}, {"id": 3}]"#.utf8)

    static func outcomes(_ bytes: [UInt8], model: Model, chunkSize: Int) throws -> (Fuzzing.Outcome, Fuzzing.Outcome) {
        (try Fuzzing.map(bytes, model: model, entity: model.root == nil ? model.entities.first?.name : nil,
                         chunkSize: chunkSize, fastPaths: true),
         try Fuzzing.map(bytes, model: model, entity: model.root == nil ? model.entities.first?.name : nil,
                         chunkSize: chunkSize, fastPaths: false))
    }

    @Test(arguments: cases.indices)
    func recordsPositionsAndRejectionsAreTheSameBothWays(_ index: Int) throws {
        let (modelText, input) = Self.cases[index]
        let model = try Model.parse(Array(modelText.utf8), sourceName: "model.json")
        for chunkSize in [1 << 20, 1, 7] {
            let (fast, general) = try Self.outcomes(Array(input.utf8), model: model, chunkSize: chunkSize)
            #expect(fast == general, "chunks of \(chunkSize)")
            #expect(!fast.lines.isEmpty)
        }
    }

    @Test func invalidTextIsRejectedTheSameBothWays() throws {
        let model = try Model.parse(Array(Self.cases[1].model.utf8), sourceName: "model.json")
        let (fast, general) = try Self.outcomes(Self.invalidText, model: model, chunkSize: 5)
        #expect(fast == general)
        #expect(fast.rejectedTexts.count == 1)
    }

    /// Real shapes no one here wrote, each with the model `infer` proposes for it (the
    /// tabular ones, `prices.json` and `products.ndjson`, need the importer's header reading).
    @Test(arguments: ["chat-export.json", "contacts.ndjson", "parks.geojson", "station_information.json", "trips.json"])
    func realShapesMapTheSameBothWays(_ name: String) throws {
        let bytes = try PackageFiles.bytes("Tests/Fixtures/shapes/" + name)
        let inferred = try ModelInference.infer(bytes: bytes, name: name)
        for chunkSize in [1 << 20, 13] {
            let fast = try Fuzzing.map(bytes, model: inferred.model, chunkSize: chunkSize, fastPaths: true)
            let general = try Fuzzing.map(bytes, model: inferred.model, chunkSize: chunkSize, fastPaths: false)
            #expect(fast == general, "\(name), chunks of \(chunkSize)")
            #expect(fast.lines.contains { $0.hasPrefix("record ") })
        }
    }

    /// Imported both ways (`--on-error skip`), every table holds the same rows.
    @Test(arguments: cases.indices)
    func rowsAreTheSameBothWays(_ index: Int) throws {
        let (modelText, input) = Self.cases[index]
        let model = try Model.parse(Array(modelText.utf8), sourceName: "model.json")
        let dumps = try Self.importedBothWays(Array(input.utf8), name: "in.json", model: model,
                                              entity: model.root == nil ? model.entities.first?.name : nil)
        #expect(dumps[0] == dumps[1])
        #expect(dumps[0].values.contains { !$0.isEmpty })
    }

    /// The tables' rows (but the import log) after `input` is imported into a new database
    /// with the fast paths, then without (`--on-error skip`, batches of 2).
    static func importedBothWays(_ input: [UInt8], name: String, model: Model, entity: String?) throws -> [[String: [[ColumnValue]]]] {
        let directory = TemporaryDirectory()
        var dumps: [[String: [[ColumnValue]]]] = []
        for fastPaths in [true, false] {
            var options = ImportOptions()
            options.onError = .skip
            options.batchSize = 2
            options.fastPaths = fastPaths
            options.entity = entity
            let path = directory.file("\(fastPaths).sqlite")
            let importer = try Importer(databasePath: path, model: model, options: options)
            try importer.importBytes(input, name: name)
            _ = try importer.finish()
            let connection = try Connection(path: path, mode: .readOnly)
            var dump: [String: [[ColumnValue]]] = [:]
            for table in try connection.rows(#"SELECT "name" FROM "sqlite_master" WHERE "type" = 'table' AND "name" <> 'sluice_imports'"#) {
                guard case .text(let name) = table[0] else { continue }
                dump[name] = try connection.rows(#"SELECT * FROM "\#(name)" ORDER BY "pk""#)
            }
            dumps.append(dump)
        }
        return dumps
    }

    /// A short plain number (`NumberText.short`) converts inline; every other number goes
    /// the general way. Both agree on every number either can take: the same value (the same
    /// bits, `-0.0` included) or the same error.
    @Test func shortNumbersConvertAsTheGeneralPathDoes() {
        var generator = PropertyRandom(seed: 0x5eed)
        let alphabet = Array("0123456789.-e+".utf8)
        for round in 0..<60_000 {
            var text: [UInt8] = []
            if round % 3 == 0 {
                // Any mix of number characters, most of them not numbers.
                for _ in 0..<Int(generator.next() % 20) { text.append(alphabet[Int(generator.next() % UInt64(alphabet.count))]) }
            } else {
                // A plausible number: sign, digits, maybe a fraction, maybe an exponent.
                if generator.next() % 2 == 0 { text.append(UInt8(ascii: "-")) }
                let digits = 1 + Int(generator.next() % 20)
                for _ in 0..<digits { text.append(UInt8(ascii: "0") + UInt8(generator.next() % 10)) }
                if generator.next() % 2 == 0 {
                    text.append(UInt8(ascii: "."))
                    for _ in 0..<Int(generator.next() % 6) { text.append(UInt8(ascii: "0") + UInt8(generator.next() % 10)) }
                }
                if generator.next() % 8 == 0 { text += Array("e\(Int(generator.next() % 40) - 20)".utf8) }
            }
            text.withUnsafeBytes { bytes in
                let scalar = Scalar.number(bytes)
                let fastInteger = Result { () throws(ConversionError) in try ValueConverter.integer64(scalar, bytes) }
                let generalInteger = Result { () throws(ConversionError) in try ValueConverter.integer64InGeneral(scalar, bytes) }
                let fastDouble = Result { () throws(ConversionError) in try ValueConverter.double(scalar, bytes) }.map(\.bitPattern)
                let generalDouble = Result { () throws(ConversionError) in try ValueConverter.doubleInGeneral(scalar, bytes) }.map(\.bitPattern)
                let label = String(decoding: bytes, as: UTF8.self)
                #expect(fastInteger.description == generalInteger.description, "\(label)")
                #expect(fastDouble.description == generalDouble.description, "\(label)")
            }
        }
    }
}

extension Result {
    /// The value or the error's message, for comparing two results.
    fileprivate var description: String {
        switch self {
        case .success(let value): "\(value)"
        case .failure(let error): "error \((error as? ConversionError)?.message ?? "\(error)")"
        }
    }
}
