import Testing
@testable import Sluice

/// Collects what a `RecordStream` produces: records as (entity name, column → value) and rejections.
final class CollectingSink: RecordSink {
    let plan: MappingPlan
    var records: [(entity: String, values: [String: ColumnValue?], line: Int, column: Int)] = []
    var rejections: [String] = []

    init(plan: MappingPlan) { self.plan = plan }

    func accept(_ record: borrowing Record) -> RecordHandle {
        let entity = plan.entities[record.entity]
        var values: [String: ColumnValue?] = [:]
        for (index, attribute) in entity.attributes.enumerated() { values[attribute.name] = .some(record.value(index)) }
        records.append((entity.name, values, record.position.line, record.position.column))
        links.append(record.links)
        topLevel.append(record.isTopLevel)
        ownBytes.append(record.bytesAreItsOwn)
        return RecordHandle(entity: record.entity, index: records.count - 1)
    }

    /// Each record's links, and whether it was top-level, in completion order.
    var links: [[Link?]] = []
    var topLevel: [Bool] = []
    /// Each record's `bytesAreItsOwn`, in completion order.
    var ownBytes: [Bool] = []

    func reject(_ error: SluiceError, entity: Int, record: [UInt8]?) {
        rejections.append(error.description)
    }
}

/// Maps `json` (fed in chunks of `chunkSize` bytes) with `model`.
func assemble(_ json: String, model: Model, locations: MappingPlan.Locations = .init(), chunkSize: Int = 1 << 20,
              maxValueBytes: Int = 64 << 20) throws -> CollectingSink
{
    let plan = try MappingPlan(model: model, locations: locations)
    let sink = CollectingSink(plan: plan)
    let stream = RecordStream(plan: plan, sink: sink, maxValueBytes: maxValueBytes)
    try feed(json, to: stream, chunkSize: chunkSize)
    return sink
}

private let stop = Model.Entity(
    name: "Stop", table: "stops", identity: ["id"],
    attributes: [
        .init(name: "id", type: .string, keys: [JSONKeyPath(parsing: "stop_id")]),
        .init(name: "name", type: .string, keys: [JSONKeyPath(parsing: "stop_name"), JSONKeyPath(parsing: "name")]),
        .init(name: "code", type: .integer, keys: [JSONKeyPath(parsing: "location.code")]),
        .init(name: "meta", type: .json),
    ])
private let trip = Model.Entity(name: "Trip", identity: ["id"], attributes: [.init(name: "id", type: .integer, keys: [JSONKeyPath(parsing: "trip_id")])])

@Suite struct RecordAssemblerTests {
    let model = Model(root: .entity("Stop"), entities: [stop, trip])

    @Test func flatArrayMapsKeysAndSkipsTheRest() throws {
        let json = #"[{"stop_id": "A", "stop_name": "Alpha", "ignored": {"deep": [1, {"x": 2}]}, "location": {"code": 7}},"#
            + "\n" + #" {"stop_id": 42, "other": [1,2,3]}]"#
        let sink = try assemble(json, model: model)
        #expect(sink.rejections == [])
        #expect(sink.records.count == 2)
        #expect(sink.records[0].values["id"] == .some(.text("A")))
        #expect(sink.records[0].values["name"] == .some(.text("Alpha")))
        #expect(sink.records[0].values["code"] == .some(.integer(7)))
        #expect(sink.records[0].values["meta"] == .some(nil))
        #expect(sink.records[1].values["id"] == .some(.text("42")))
        #expect(sink.records[1].values["name"] == .some(nil))
        #expect(sink.records.map { [$0.line, $0.column] } == [[1, 2], [2, 2]])
    }

    /// Keys are looked for from the one guessed (`KeyMatcher`), then around: records that list
    /// them in another order than the model's or the records' before, skip some or repeat one
    /// get every value.
    @Test func keysInAnyOrderWithSomeMissingAllMap() throws {
        let entity = Model.Entity(name: "R", attributes: ["a", "b", "c", "d", "e"].map { .init(name: $0, type: .integer) })
        let json = """
            {"a": 1, "b": 2, "c": 3, "d": 4, "e": 5}
            {"a": 1, "c": 3, "e": 5}
            {"e": 5, "d": 4, "c": 3, "b": 2, "a": 1}
            {"d": 4, "a": 1, "e": 5, "b": 2}
            {"b": 2, "b": 7, "a": 1, "x": 0}
            """
        let sink = try assemble(json, model: Model(root: .entity("R"), entities: [entity]))
        #expect(sink.rejections == [])
        let rows = sink.records.map { record in
            ["a", "b", "c", "d", "e"].map { name in record.values[name]!.map { "\($0)" } ?? "-" }.joined(separator: " ")
        }
        #expect(rows == ["1 2 3 4 5", "1 - 3 - 5", "1 2 3 4 5", "1 2 - 4 5", "1 7 - - -"])
    }

    /// Keys are matched by their first and last bytes as words up to 16 bytes, and by all
    /// their bytes beyond: a key of each length class, each followed by a key of the same
    /// length that differs in its middle byte only (beyond 16 bytes, a byte neither word
    /// holds), which must be skipped; and one longer key that no attribute maps.
    @Test func keysOfEveryLengthMatchExactly() throws {
        let names = ["k", "abc", "abcd", "abcdefg", "abcdefgh", "abcdefghi", "abcdefghijklmnop",
                     "abcdefghijklmnopq", "abcdefghijklmnopqrstuvwx"]
        let entity = Model.Entity(name: "K", attributes: names.enumerated().map { index, name in
            .init(name: "a\(index)", type: .integer, keys: [JSONKeyPath(parsing: name)])
        })
        func nearMiss(_ name: String) -> String {
            var bytes = Array(name.utf8)
            let at = bytes.count <= 1 ? 0 : bytes.count / 2  // the middle: inside neither word above 16 bytes
            bytes[at] = bytes[at] == UInt8(ascii: "Z") ? UInt8(ascii: "Y") : UInt8(ascii: "Z")
            return String(decoding: bytes, as: UTF8.self)
        }
        let members = names.enumerated().map { index, name in #""\#(name)": \#(index), "\#(nearMiss(name))": -1"# }
        let sink = try assemble("{" + members.joined(separator: ", ") + #", "abcdefghijklmnopqrstuvwxy": -2}"#,
                                model: Model(entities: [entity]))
        #expect(sink.rejections == [])
        #expect(sink.records.count == 1)
        for index in names.indices { #expect(sink.records.first?.values["a\(index)"] == .some(.integer(Int64(index)))) }
    }

    @Test func theFirstListedFallbackKeyPresentWinsEvenWhenNullOrLater() throws {
        let sink = try assemble(#"{"name": "B", "stop_name": null} {"name": "C"} {"stop_name": "D", "name": "E"}"#, model: model)
        #expect(sink.records.map { $0.values["name"] } == [.some(.null), .some(.text("C")), .some(.text("D"))])
    }

    @Test func aFailedValueUnderALosingFallbackKeyIsNoError() throws {
        let entity = Model.Entity(name: "N", attributes: [.init(name: "n", type: .integer, keys: [JSONKeyPath(parsing: "a"), JSONKeyPath(parsing: "b")])])
        let model = Model(entities: [entity])
        let sink = try assemble(#"{"b": "junk", "a": 5} {"a": "junk", "b": 5}"#, model: model)
        #expect(sink.records.map { $0.values["n"] } == [.some(.integer(5))])
        #expect(sink.rejections == [#"in.json:1:23: N.n: cannot convert "junk" to integer"#])
    }

    @Test func keyPathThroughANonObjectIsNotPresent() throws {
        let sink = try assemble(#"[{"location": 5}, {"location": [1]}, {"location": null}, {"location": {"code": null}}]"#, model: model)
        #expect(sink.rejections == [])
        #expect(sink.records.map { $0.values["code"] } == [.some(nil), .some(nil), .some(nil), .some(.null)])
    }

    @Test func ndjsonAndChunkBoundariesEverywhere() throws {
        let json = (1...20).map { #"{"stop_id": "s\#($0)", "location": {"code": \#($0)}}"# }.joined(separator: "\n")
        for chunkSize in [1, 2, 3, 7, 64] {
            let sink = try assemble(json, model: model, chunkSize: chunkSize)
            #expect(sink.records.map { $0.values["code"] } == (1...20).map { .some(.integer(Int64($0))) }, "chunk \(chunkSize)")
            #expect(sink.records.last?.line == 20)
        }
    }

    @Test func rootMapOfKeyPathsToEntities() throws {
        let model = Model(root: .paths([(JSONKeyPath(parsing: "stops"), "Stop"), (JSONKeyPath(parsing: "data.trips"), "Trip")]), entities: [stop, trip])
        let json = #"{"meta": {"stops": [{"stop_id": "no"}]}, "stops": [{"stop_id": "A"}], "data": {"trips": {"trip_id": "9"}}, "tail": [1]}"#
        let sink = try assemble(json, model: model)
        #expect(sink.records.map(\.entity) == ["Stop", "Trip"])
        #expect(sink.records[1].values["id"] == .some(.integer(9)))
    }

    @Test func entityAndPathFromTheCommandLine() throws {
        let json = #"{"data": {"items": [{"trip_id": 1}, {"trip_id": "2"}]}, "count": 2}"#
        let sink = try assemble(json, model: model, locations: .init(entity: "Trip", path: JSONKeyPath(parsing: "data.items")))
        #expect(sink.records.map { $0.values["id"] } == [.some(.integer(1)), .some(.integer(2))])
    }

    @Test func jsonAttributesKeepWholeSubtrees() throws {
        let sink = try assemble(#"[{"meta": {"a": [1, {"b": null}], "c": "x"}}, {"meta": [true]}, {"meta": 5}]"#, model: model)
        #expect(sink.records.map { $0.values["meta"] } == [
            .some(.text(#"{"a":[1,{"b":null}],"c":"x"}"#)), .some(.text("[true]")), .some(.text("5")),
        ])
    }

    @Test func aJSONValueMadeOfSmallTokensIsStillLimited() throws {
        let big = "[" + Array(repeating: "1", count: 40).joined(separator: ",") + "]"
        let sink = try assemble(#"[{"stop_id": "A", "meta": \#(big)}, {"stop_id": "B", "meta": [1, 2]}]"#, model: model, maxValueBytes: 50)
        #expect(sink.rejections == ["in.json:1:2: Stop.meta: a json value larger than 50 bytes (--max-value-bytes)"])
        #expect(sink.records.map { $0.values["meta"] } == [.some(.text("[1,2]"))])
    }

    @Test func anObjectForAScalarAttributeIsAnError() throws {
        let sink = try assemble(#"[{"stop_id": {"x": 1}}]"#, model: model)
        #expect(sink.rejections == ["in.json:1:2: Stop.id: expected a string, got an object"])
    }

    @Test func recordsThatAreNotObjects() throws {
        let sink = try assemble("[{\"stop_id\": \"A\"}, 5, \"x\", [1, 2], null, {\"stop_id\": \"B\"}]", model: model)
        #expect(sink.rejections == [
            "in.json:1:20: a record of Stop must be an object, got a number",
            "in.json:1:23: a record of Stop must be an object, got a string",
            "in.json:1:28: a record of Stop must be an object, got an array",
            "in.json:1:36: a record of Stop must be an object, got null",
        ])
        #expect(sink.records.map { $0.values["id"] } == [.some(.text("A")), .some(.text("B"))])
        #expect(try assemble("7 {\"stop_id\": \"C\"}", model: model).rejections == ["in.json:1:1: a record of Stop must be an object, got a number"])
    }

    @Test func requiredAttributesAndDefaults() throws {
        let entity = Model.Entity(name: "R", attributes: [
            .init(name: "must", type: .string, optional: false),
            .init(name: "flag", type: .integer, defaultValue: .number("3"), defaultWhenMissing: true),
            .init(name: "soft", type: .integer, defaultValue: .number("4")),
        ])
        let sink = try assemble(#"{"must": "x"} {"must": null} {"flag": 1}"#, model: Model(entities: [entity]))
        #expect(sink.records.count == 1)
        #expect(sink.records[0].values["flag"] == .some(.integer(3)))
        #expect(sink.records[0].values["soft"] == .some(nil))
        #expect(sink.rejections == ["in.json:1:15: R.must: null for a required attribute", "in.json:1:30: R.must: missing required attribute"])
    }

    @Test func aDefaultThatDoesNotConvertIsAModelProblem() {
        let entity = Model.Entity(name: "R", attributes: [.init(name: "n", type: .integer, defaultValue: .string("many"))])
        #expect(throws: ModelError(source: "model", problems: [
            ModelProblem(path: "entities.R.attributes.n.default", message: #"cannot convert "many" to integer"#),
        ])) { try MappingPlan(model: Model(entities: [entity])) }
    }

    @Test func relationshipValuesBecomeLinksAndNestedRecords() throws {
        let trip = Model.Entity(
            name: "Trip", identity: ["id"], attributes: [.init(name: "id", type: .integer)],
            relationships: [
                .init(name: "stops", entity: "Stop", toMany: true),
                .init(name: "next", entity: "Trip", keys: [JSONKeyPath(parsing: "next"), JSONKeyPath(parsing: "following")]),
            ])
        let model = Model(root: .entity("Trip"), entities: [trip, stop])
        let json = #"{"stops": ["A", {"stop_id": "B"}, null, 7], "id": 1, "next": null, "following": 2} {"id": 2, "following": "3"}"#
        let sink = try assemble(json, model: model)
        #expect(sink.records.map(\.entity) == ["Stop", "Trip", "Trip"])
        #expect(sink.topLevel == [false, true, true])
        // The first Trip shares its bytes with its nested Stop; the second has them to itself.
        #expect(sink.ownBytes == [false, false, true])
        #expect(sink.links[1] == [
            .many([.key(.text("A")), .record(RecordHandle(entity: 1, index: 0)), .key(.text("7"))]), .clear,
        ])
        #expect(sink.links[2] == [nil, .one(.key(.integer(3)))])
    }

    @Test func aToManysPositionGoesToItsTargetsAttribute() throws {
        let person = Model.Entity(
            name: "Person", identity: ["id"], attributes: [.init(name: "id", type: .integer)],
            relationships: [
                .init(name: "phones", entity: "Phone", toMany: true, inverse: "owner", position: "index"),
                .init(name: "fax", entity: "Phone", toMany: true, inverse: "owner", position: "index"),
            ])
        let phone = Model.Entity(
            name: "Phone", identity: ["owner", "index"],
            attributes: [.init(name: "index", type: .integer), .init(name: "number", type: .string)],
            relationships: [.init(name: "owner", entity: "Person")])
        let model = Model(root: .entity("Person"), entities: [person, phone])
        // Every element counts (nulls too), the position wins over a key of the record,
        // a nested record's own array counts from 0 again, and a single object is element 0.
        let json = #"""
            {"id": 1, "phones": [null, null, {"number": "a", "index": 9}, {"number": "b"}], "fax": {"number": "c"}}
            {"id": 2, "phones": [{"number": "d"}]}
            """#
        for chunkSize in [1, 7, 1 << 20] {
            let sink = try assemble(json, model: model, chunkSize: chunkSize)
            #expect(sink.records.map(\.entity) == ["Phone", "Phone", "Phone", "Person", "Phone", "Person"])
            #expect(sink.records.map { $0.values["index"] ?? nil } == [.integer(2), .integer(3), .integer(0), nil, .integer(0), nil],
                    "chunk \(chunkSize)")
            #expect(sink.records.map { $0.values["number"] ?? nil } == [.text("a"), .text("b"), .text("c"), nil, .text("d"), nil])
        }
    }

    @Test func anElementOfAToManyThatDoesNotConvertRejectsTheRecord() throws {
        let route = Model.Entity(name: "Route", identity: ["id"], attributes: [.init(name: "id", type: .integer)],
                                 relationships: [.init(name: "trips", entity: "Trip", toMany: true)])
        let model = Model(root: .entity("Route"), entities: [route, trip])
        // The failed element is not forgotten when more elements follow it.
        let sink = try assemble(#"{"id": 1, "trips": [1, "x", 3]} {"id": 2, "trips": ["y"]}"#, model: model)
        #expect(sink.records.isEmpty)
        #expect(sink.rejections.count == 2)
        #expect(sink.rejections.allSatisfy { $0.contains(#"cannot convert "#) }, "\(sink.rejections)")
    }

    @Test func aModelWithoutRootNeedsAnEntity() {
        do {
            _ = try MappingPlan(model: Model(entities: [stop, trip]))
            Issue.record("expected a usage error")
        } catch {
            #expect(error.description == "model: root: the model has no root and 2 entities: say which entity the records are with ImportOptions.entity, or each key's (or file's) with ImportOptions.roots")
        }
    }

    @Test func keysAreFoundWhateverTheirLengthFirstByteOrOrder() throws {
        // Keys of one length that differ only after the first byte, or only in it, the empty
        // key, and keys listed in an order other than the model's.
        let entity = Model.Entity(name: "R", attributes: [
            .init(name: "ab", type: .integer, keys: [JSONKeyPath(["ab"])]),
            .init(name: "ac", type: .integer, keys: [JSONKeyPath(["ac"])]),
            .init(name: "bc", type: .integer, keys: [JSONKeyPath(["bc"])]),
            .init(name: "empty", type: .integer, keys: [JSONKeyPath([""])]),
        ])
        let sink = try assemble(#"{"bc": 3, "": 4, "ac": 2, "ab": 1, "a": 9, "abc": 9}"#, model: Model(entities: [entity]),
                                locations: .init(entity: "R"))
        #expect(sink.records.count == 1)
        #expect(sink.records[0].values == ["ab": .integer(1), "ac": .integer(2), "bc": .integer(3), "empty": .integer(4)])
    }
}
