import Testing
@testable import Sluice

/// `EventStream`, the one stream, with each assembler: what reaches the sink, and the text a
/// rejection carries when rejected records are captured (`--rejects`).
@Suite struct EventStreamTests {
    /// Records what a stream hands to its sink: each record's position and each rejection with
    /// its captured text. Refuses records (as `FreeformWriter` does when a table is full) whose
    /// first value is `refuse`, with `refusal`.
    final class Sink: RecordSink, FreeformSink {
        var lines: [String] = []
        var refusal = SluiceError(.data, "no room for this record")

        func accept(_ record: borrowing Record) -> RecordHandle {
            lines.append("record \(record.position)")
            return RecordHandle(entity: record.entity, index: lines.count)
        }

        func accept(_ record: FreeformRecord, columnNames: [String]) throws(SluiceError) {
            if record.values.first == .some(.text("refuse")) { throw refusal }
            lines.append("record \(record.position)")
        }

        func reject(_ error: SluiceError, entity: Int, record: [UInt8]?) {
            lines.append("rejected \(error) | \(record.map { String(decoding: $0, as: UTF8.self) } ?? "-")")
        }

        func reject(_ error: SluiceError, record: [UInt8]?) {
            reject(error, entity: 0, record: record)
        }
    }

    private static let model = Model(root: .entity("Item"), entities: [
        Model.Entity(name: "Item", identity: ["id"], attributes: [.init(name: "id", type: .integer)]),
    ])

    private func parse(_ json: String, into stream: some RecordEventHandler) throws {
        try feed(json, to: stream, chunkSize: 5)
    }

    @Test func aModelStreamCapturesRejectedRecordsArraysAndScalars() throws {
        let sink = Sink()
        let stream = RecordStream(plan: try MappingPlan(model: Self.model), sink: sink, capturesRejectedRecords: true)
        try parse(#"[{"id": 1}, {"id": "x", "n": [1, {"a": null}]}, [2, [3]], 7, {"id": 4}]"#, into: stream)
        #expect(sink.lines == [
            "record 1:2",
            #"rejected in.json:1:13: Item.id: cannot convert "x" to integer | {"id":"x","n":[1,{"a":null}]}"#,
            "rejected in.json:1:49: a record of Item must be an object, got an array | [2,[3]]",
            "rejected in.json:1:59: a record of Item must be an object, got a number | 7",
            "record 1:62",
        ])
        #expect(stream.recordCount == 5)
    }

    @Test func aModelStreamWithoutCaptureRejectsWithNoText() throws {
        let sink = Sink()
        let stream = RecordStream(plan: try MappingPlan(model: Self.model), sink: sink)
        try parse(#"[{"id": "x"}, [2], 7]"#, into: stream)
        #expect(sink.lines == [
            #"rejected in.json:1:2: Item.id: cannot convert "x" to integer | -"#,
            "rejected in.json:1:15: a record of Item must be an object, got an array | -",
            "rejected in.json:1:20: a record of Item must be an object, got a number | -",
        ])
    }

    @Test func aZeroConfigStreamCapturesRejectedArraysAndScalarsButNotRecords() throws {
        let sink = Sink()
        let stream = FreeformStream(table: "t", sink: sink, capturesRejectedRecords: true)
        try parse(#"[{"a": 1}, [2, {"b": [3]}], "s", null, {"b": 2}]"#, into: stream)
        #expect(sink.lines == [
            "record 1:2",
            #"rejected in.json:1:12: a record of t must be an object, got an array | [2,{"b":[3]}]"#,
            #"rejected in.json:1:29: a record of t must be an object, got a string | "s""#,
            "rejected in.json:1:34: a record of t must be an object, got null | null",
            "record 1:40",
        ])
        #expect(stream.recordCount == 5)
    }

    /// A record the sink cannot take is placed where it starts, and rejected with no text.
    @Test func aRecordTheZeroConfigSinkRefusesIsRejectedWhereItStarts() throws {
        let sink = Sink()
        let stream = FreeformStream(table: "t", sink: sink, capturesRejectedRecords: true)
        try parse("{\"a\": 1}\n  {\"a\": \"refuse\"}\n{\"a\": 3}", into: stream)
        #expect(sink.lines == ["record 1:1", "rejected in.json:2:3: no room for this record | -", "record 3:1"])
    }

    /// Any other error of the sink (one with a position, or not about the data) stops the parse unchanged.
    @Test func otherSinkErrorsStopTheParse() {
        let sink = Sink()
        sink.refusal = SluiceError(.io, "disk full")
        let stream = FreeformStream(table: "t", sink: sink)
        #expect(throws: SluiceError(.io, "disk full")) {
            try parse(#"{"a": "refuse"} {"a": 2}"#, into: stream)
        }
        #expect(sink.lines == [])
    }

    #if DEBUG
    /// The stream belongs to one thread and is never re-entered: a sink calling back into it
    /// stops a debug build.
    @Test func aSinkThatCallsBackIntoItsStreamStopsADebugBuild() async {
        await #expect(processExitsWith: .failure) {
            final class Reentrant: FreeformSink {
                var stream: FreeformStream?
                func accept(_ record: FreeformRecord, columnNames: [String]) throws(SluiceError) {
                    try stream?.startObject()
                }
                func reject(_ error: SluiceError, record: [UInt8]?) {}
            }
            let sink = Reentrant()
            let stream = FreeformStream(table: "t", sink: sink)
            sink.stream = stream
            let parser = JSONParser(sourceName: "in.json", handler: stream)
            stream.parser = parser
            try? Array(#"{"a": 1}"#.utf8).withUnsafeBytes { try parser.parse($0) }
        }
    }
    #endif
}
