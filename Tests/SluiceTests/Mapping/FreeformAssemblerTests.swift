import Testing
@testable import Sluice

/// Collects what a `FreeformStream` produces: each record as key → value (keys as first
/// spelled), and the rejections.
final class FreeformCollectingSink: FreeformSink {
    var records: [[String: ColumnValue]] = []
    var positions: [[Int]] = []
    var rejections: [String] = []
    var columnNames: [String] = []

    func accept(_ record: FreeformRecord, columnNames: [String]) {
        #expect(record.values.count == columnNames.count)
        var values: [String: ColumnValue] = [:]
        for (index, value) in record.values.enumerated() {
            if let value { values[columnNames[index]] = value }
        }
        records.append(values)
        positions.append([record.position.line, record.position.column])
        self.columnNames = columnNames
    }

    func reject(_ error: SluiceError, record: [UInt8]?) {
        rejections.append(error.description)
    }
}

/// Assembles `json` (fed in chunks of `chunkSize` bytes) with no model.
func assembleFreeform(_ json: String, table: String = "t", path: [String] = [], chunkSize: Int = 1 << 20)
    throws -> FreeformCollectingSink
{
    let sink = FreeformCollectingSink()
    let stream = FreeformStream(table: table, path: path, sink: sink)
    try feed(json, to: stream, chunkSize: chunkSize)
    return sink
}

extension ZeroConfigTests {
    @Suite struct FreeformAssemblerTests {
        @Test func eventsMakeRecordsWithoutAParser() {
            var assembler = FreeformAssembler(table: "t")
            let here = { InputPosition(line: 1, column: 1, offset: 0) }
            func key(_ text: String) {
                Array(text.utf8).withUnsafeBytes { assembler.key($0) }
            }
            _ = assembler.startArray(position: here)
            _ = assembler.startObject(position: here)
            key("a")
            _ = Array("7".utf8).withUnsafeBytes { assembler.scalar(.number($0), position: here) }
            key("b")
            _ = assembler.startArray(position: here)
            _ = assembler.scalar(.bool(true), position: here)
            _ = assembler.endArray()
            guard case .record = assembler.endObject() else {
                Issue.record("expected a record")
                return
            }
            #expect(assembler.columnNames == ["a", "b"])
            #expect(assembler.completed.values == [.integer(7), .text("[true]")])
            #expect(assembler.recordCount == 1)
        }

        @Test func scalarsByTheirJSONKind() throws {
            let sink = try assembleFreeform(#"{"s": "x\ny", "i": -42, "r": 2.5, "f": 2.0, "e": 1e3, "t": true, "n": false, "z": null}"#)
            #expect(sink.rejections == [])
            #expect(sink.records == [[
                "s": .text("x\ny"), "i": .integer(-42), "r": .real(2.5), "f": .real(2), "e": .real(1000),
                "t": .integer(1), "n": .integer(0), "z": .null,
            ]])
        }

        @Test func bigNumbersKeepEveryDigit() throws {
            let sink = try assembleFreeform(
                #"{"max": 9223372036854775807, "min": -9223372036854775808, "over": 9223372036854775808, "huge": 1e400, "tiny": 1.5e-300}"#)
            #expect(sink.records == [[
                "max": .integer(.max), "min": .integer(.min), "over": .text("9223372036854775808"),
                "huge": .text("1e400"), "tiny": .real(1.5e-300),
            ]])
        }

        @Test func nestedValuesBecomeCompactJSONText() throws {
            let json = #"[{"o": {"b": [1, {"c": null}], "d": "q\"uote"}, "a": [], "e": {}, "n": 10248909829.50}]"#
            let sink = try assembleFreeform(json, chunkSize: 3)
            #expect(sink.records == [[
                "o": .text(#"{"b":[1,{"c":null}],"d":"q\"uote"}"#), "a": .text("[]"), "e": .text("{}"),
                "n": .real(10248909829.5),
            ]])
        }

        @Test func columnsAreNumberedAsKeysFirstAppearAndMissingKeysAreNil() throws {
            let sink = try assembleFreeform(#"{"a": 1} {"b": 2, "a": 3} {}"#)
            #expect(sink.columnNames == ["a", "b"])
            #expect(sink.records == [["a": .integer(1)], ["a": .integer(3), "b": .integer(2)], [:]])
        }

        /// Keys differing in case are columns of their own (the writer names them apart where the
        /// store would not); a key repeated in one record keeps its last value.
        @Test func keysCompareExactlyAndTheLastRepeatWins() throws {
            let sink = try assembleFreeform(#"[{"id": 1, "ID": 2}, {"Id": 3}, {"x": 1, "x": {"y": 2}}]"#)
            #expect(sink.columnNames == ["id", "ID", "Id", "x"])
            #expect(sink.records == [["id": .integer(1), "ID": .integer(2)], ["Id": .integer(3)], ["x": .text(#"{"y":2}"#)]])
        }

        /// The column after the previous key's is tried first: a key in that place that is
        /// another key (same length, other bytes), a case variant, a skipped or reordered key
        /// all land in their own column.
        @Test func keysFindTheirColumnWhateverTheOrder() throws {
            let sink = try assembleFreeform("""
                {"ab": 1, "cd": 2, "ef": 3} {"ab": 4, "ba": 5, "ef": 6} {"AB": 7, "CD": 8} {"ef": 9, "cd": 10, "ab": 11}
                """)
            #expect(sink.columnNames == ["ab", "cd", "ef", "ba", "AB", "CD"])
            #expect(sink.records == [
                ["ab": .integer(1), "cd": .integer(2), "ef": .integer(3)],
                ["ab": .integer(4), "ba": .integer(5), "ef": .integer(6)],
                ["AB": .integer(7), "CD": .integer(8)],
                ["ab": .integer(11), "cd": .integer(10), "ef": .integer(9)],
            ])
        }

        @Test func recordsAreTopLevelObjectsOrElementsOfATopLevelArray() throws {
            let sink = try assembleFreeform("{\"a\": 1}\n[{\"a\": 2}, {\"a\": 3}]\n{\"a\": 4}\nnull\n")
            #expect(sink.records.map { $0["a"] } == [.integer(1), .integer(2), .integer(3), .integer(4)])
            #expect(sink.positions == [[1, 1], [2, 2], [2, 12], [3, 1]])
            // A top-level null stands where a record should: a record error (docs/cli.md).
            #expect(sink.rejections == ["in.json:4:1: a record of t must be an object, got null"])
        }

        @Test func aRecordThatIsNotAnObjectIsRejectedAndTheNextFollows() throws {
            let sink = try assembleFreeform("[1, \"s\", [{\"a\": 0}], null, {\"a\": 5}]\n7\n", table: "stops")
            #expect(sink.rejections == [
                "in.json:1:2: a record of stops must be an object, got a number",
                "in.json:1:5: a record of stops must be an object, got a string",
                "in.json:1:10: a record of stops must be an object, got an array",
                "in.json:1:22: a record of stops must be an object, got null",
                "in.json:2:1: a record of stops must be an object, got a number",
            ])
            #expect(sink.records == [["a": .integer(5)]])
        }

        @Test func anEnvelopePathSelectsTheRecords() throws {
            let json = #"{"meta": {"data": [{"skip": 1}]}, "data": {"items": [{"a": 1}, {"a": 2}], "other": [{"x": 1}]}}"#
            let sink = try assembleFreeform(json, path: ["data", "items"])
            #expect(sink.records == [["a": .integer(1)], ["a": .integer(2)]])
            #expect(sink.columnNames == ["a"])

            let one = try assembleFreeform(#"{"data": {"items": {"a": 3}}} {"data": {"items": null}}"#, path: ["data", "items"])
            #expect(one.records == [["a": .integer(3)]])
            #expect(one.rejections == [])
        }
    }
}
