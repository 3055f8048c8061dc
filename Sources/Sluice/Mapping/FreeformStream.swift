/// Where the records of a zero-config import go.
protocol FreeformSink: AnyObject {
    /// A complete record: `record.values[i]` is the value of column `columnNames[i]` (nil when
    /// the record lacks it). Both are valid only during the call (copy what you keep).
    func accept(_ record: FreeformRecord, columnNames: [String]) throws(SluiceError)
    /// What stood where a record should cannot be imported; `record` is its JSON text when the
    /// stream captures it (`--rejects`). Throw to stop the import (`--on-error abort`), return
    /// to go on without it.
    func reject(_ error: SluiceError, record: [UInt8]?) throws(SluiceError)
}

/// The stream of a zero-config import: the parser's events to a `FreeformAssembler`, its
/// records to a `FreeformSink`.
///
/// With `capturesRejectedRecords` (`--rejects`) the text of what is rejected is captured: a
/// scalar is its own text; an array is rejected at its `[` and captured to its `]`; a record
/// (rejected only for invalid text in it) from its `{`.
final class FreeformStream: EventStream<FreeformAssembler>, RecordEventHandler {
    /// - Parameters:
    ///   - maxKeys: the most distinct keys that get a column (the table's column limit less `"pk"`).
    ///   - columnLimitOwner: whose limit that is, for the message (`"SQLite's"`).
    init(table: String, path: [String] = [], mapKey: String? = nil, numbersAsText: Bool = false, sink: any FreeformSink,
         capturesRejectedRecords: Bool = false, maxValueBytes: Int = 64 << 20, maxKeys: Int = .max,
         columnLimitOwner: String = "the store's") {
        super.init(FreeformAssembler(table: table, path: path, mapKey: mapKey, numbersAsText: numbersAsText,
                                     maxValueBytes: maxValueBytes, maxKeys: maxKeys, columnLimitOwner: columnLimitOwner),
                   sink: sink, capturesRejectedRecords: capturesRejectedRecords, maxValueBytes: maxValueBytes)
    }
}

extension FreeformStream {
    /// The parser calls the stream's methods directly (`JSONEventCallbacks`).
    static let callbacks: JSONEventCallbacks? = JSONEventCallbacks(
        null: { JSONParser.null($0, to: FreeformStream.self) },
        bool: { JSONParser.bool($0, $1, to: FreeformStream.self) },
        number: { JSONParser.number($0, $1, $2, to: FreeformStream.self) },
        string: { JSONParser.string($0, $1, $2, to: FreeformStream.self) },
        startObject: { JSONParser.startObject($0, to: FreeformStream.self) },
        key: { JSONParser.key($0, $1, $2, to: FreeformStream.self) },
        endObject: { JSONParser.endObject($0, to: FreeformStream.self) },
        startArray: { JSONParser.startArray($0, to: FreeformStream.self) },
        endArray: { JSONParser.endArray($0, to: FreeformStream.self) })
}
