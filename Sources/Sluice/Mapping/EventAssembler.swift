/// What an assembler's event means for its stream.
enum AssemblerAction {
    case none
    /// A record is complete: the stream hands it to the sink (`handOverCompleted(to:)`)
    /// before the next event.
    case record
    /// A record (or what stands where a record should) cannot be imported. The events of
    /// that record are consumed; the next event continues with the next record.
    case rejected(SluiceError.Reason)
}

/// A state machine that turns JSON events into records, with no yajl and no SQLite inside:
/// `RecordAssembler` (a model's entities) and `FreeformAssembler` (zero-config). Each event is
/// a mutating method that returns an `Action`; an `EventStream` feeds it the parser's events
/// and carries out the actions.
///
/// Positions are asked for through a closure, only when a record starts or goes wrong.
protocol EventAssembler: ~Copyable {
    typealias Action = AssemblerAction
    /// Where the records go (`RecordSink`, `FreeformSink`).
    associatedtype Sink

    /// How many records have been completed or rejected.
    var recordCount: Int { get }
    /// Whether the events so far are inside a record that may still be rejected: a stream
    /// capturing rejected records (`--rejects`) begins a record's text where this becomes true.
    var isInRejectableRecord: Bool { get }

    mutating func startObject(position: () -> InputPosition) -> Action
    /// An object key: decoded UTF-8 bytes, valid only during the call.
    mutating func key(_ bytes: UnsafeRawBufferPointer)
    mutating func endObject() -> Action
    mutating func startArray(position: () -> InputPosition) -> Action
    mutating func endArray() -> Action
    /// A scalar value. `position` gives where it starts, asked for only on a rejection.
    mutating func scalar(_ value: Scalar, position: () -> InputPosition) -> Action
    /// A CSV field: `key(name)` then `scalar(value)` (the default), with the field's column
    /// (`EventHandler.field`).
    mutating func field(_ column: Int, name: UnsafeRawBufferPointer, value: Scalar, position: () -> InputPosition)
        -> Action
    /// A CSV header has ended: columns may name other keys than before.
    mutating func columnsNamed()

    /// The next string or key holds invalid text, described by `problem`. Inside a record the
    /// record is rejected when it completes (true); elsewhere false, an input error.
    mutating func invalidText(_ problem: String) -> Bool

    /// Hands the record just completed (after a `.record` action) to `sink`. Returns why it is
    /// rejected instead when the sink cannot take it; throws what the sink throws.
    mutating func handOverCompleted(to sink: Sink) throws(SluiceError) -> SluiceError.Reason?
    /// Hands a rejection to `sink`, with the record's captured text when there is one. Throws
    /// what the sink throws to stop the import.
    static func reject(_ error: SluiceError, entity: Int, record: [UInt8]?, to sink: Sink) throws(SluiceError)
}

extension EventAssembler where Self: ~Copyable {
    mutating func field(_ column: Int, name: UnsafeRawBufferPointer, value: Scalar, position: () -> InputPosition)
        -> Action
    {
        key(name)
        return scalar(value, position: position)
    }

    mutating func columnsNamed() {}
}
