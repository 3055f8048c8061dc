/// Where assembled records go.
protocol RecordSink: AnyObject {
    /// A complete record, lent for the call: its values are valid only during it (copy what
    /// you keep).
    /// Returns how the record is named, so that a parent can link to it. Nested records
    /// complete before their parent; a sink must keep them until their top-level record
    /// (`record.isTopLevel`) has completed.
    func accept(_ record: borrowing Record) throws(SluiceError) -> RecordHandle
    /// A record of `entity` that cannot be imported, with its place in the input and, when
    /// the stream captures them (`--rejects`), its JSON text (nil otherwise, or when it was
    /// larger than `--max-value-bytes`). Throw to stop the import (`--on-error abort`),
    /// return to go on without it.
    func reject(_ error: SluiceError, entity: Int, record: [UInt8]?) throws(SluiceError)
}

/// The stream of an import with a model: the parser's events to a `RecordAssembler`, its
/// records to a `RecordSink`. With `capturesRejectedRecords` (`--rejects`) a rejection
/// carries the text of its record.
final class RecordStream: EventStream<RecordAssembler>, RecordEventHandler {
    /// `eventPlan`: `plan`'s, when one is made already; `start`: where the input's top-level
    /// values stand (`RecordAssembler`).
    init(plan: MappingPlan, eventPlan: EventPlan.Storage? = nil, start: RecordStart? = nil, sink: any RecordSink,
         maxValueBytes: Int = 64 << 20, capturesRejectedRecords: Bool = false, fastPaths: Bool = FastPaths.enabledByDefault) {
        super.init(RecordAssembler(plan: plan, eventPlan: eventPlan, start: start, maxValueBytes: maxValueBytes,
                                   fastPaths: fastPaths), sink: sink,
                   capturesRejectedRecords: capturesRejectedRecords, maxValueBytes: maxValueBytes)
    }
}

extension RecordStream {
    /// The parser calls the stream's methods directly (`JSONEventCallbacks`): W1's hottest path.
    static let callbacks: JSONEventCallbacks? = JSONEventCallbacks(
        null: { JSONParser.null($0, to: RecordStream.self) },
        bool: { JSONParser.bool($0, $1, to: RecordStream.self) },
        number: { JSONParser.number($0, $1, $2, to: RecordStream.self) },
        string: { JSONParser.string($0, $1, $2, to: RecordStream.self) },
        startObject: { JSONParser.startObject($0, to: RecordStream.self) },
        key: { JSONParser.key($0, $1, $2, to: RecordStream.self) },
        endObject: { JSONParser.endObject($0, to: RecordStream.self) },
        startArray: { JSONParser.startArray($0, to: RecordStream.self) },
        endArray: { JSONParser.endArray($0, to: RecordStream.self) })
}
