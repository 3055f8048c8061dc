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

/// Connects the parser to the zero-config assembler, as `RecordStream` does for a model: each
/// JSON event goes to the state machine, each record it completes to the sink.
///
/// With `capturesRejectedRecords` (`--rejects`) the text of what is rejected is captured: a
/// scalar is its own text; an array is rejected at its `[` and captured to its `]`. (A
/// zero-config record, once begun, is never rejected, so records themselves are not captured.)
final class FreeformStream: RecordEventHandler, ScalarForwarding {
    // Touched on every event by the one thread that drives the parser, never re-entered: no
    // dynamic exclusivity checks, no reference counting of the sink per record.
    @exclusivity(unchecked) private var assembler: FreeformAssembler
    private unowned(unsafe) let sink: any FreeformSink
    /// Set once the parser that drives this stream exists (the parser needs its handler first).
    unowned(unsafe) var parser: JSONParser?

    @exclusivity(unchecked) private var capture: RejectedRecordCapture?

    init(table: String, path: [String] = [], sink: any FreeformSink, capturesRejectedRecords: Bool = false,
         maxValueBytes: Int = 64 << 20) {
        assembler = FreeformAssembler(table: table, path: path)
        self.sink = sink
        if capturesRejectedRecords { capture = RejectedRecordCapture(limit: maxValueBytes) }
    }

    var recordCount: Int { assembler.recordCount }

    @inline(__always)
    private func handle(_ action: FreeformAssembler.Action, scalar: Scalar? = nil, closedCapture: Bool = false)
        throws(SluiceError)
    {
        switch action {
        case .none:
            return
        case .record:
            do {
                try sink.accept(assembler.completed, columnNames: assembler.columnNames)
            } catch where error.kind == .data && error.position == nil {
                // A record the sink cannot take (`FreeformWriter.tooManyColumns`): placed here,
                // where the source is known, and rejected like any record error.
                let reason = SluiceError.Reason(error.message, at: assembler.completed.position, entity: 0)
                try sink.reject(SluiceError(reason, in: parser), record: nil)
            }
        case .rejected(let reason):
            let error = SluiceError(reason, in: parser)
            var record: [UInt8]?
            if capture != nil {
                guard case .now(let text) = capture!.route(error, entity: reason.entity, scalar: scalar,
                                                            closedCapture: closedCapture) else { return }
                record = text
            }
            try sink.reject(error, record: record)
        }
    }

    /// Delivers the rejections that waited for the captured value to close.
    private func deliverDeferred() throws(SluiceError) {
        guard capture != nil else { return }
        for (error, _) in capture!.takeDeferred() { try sink.reject(error, record: capture!.text) }
    }

    // The position closures capture `parser` as a local, not `self` (a retain per event).

    func startObject() throws(SluiceError) {
        unowned(unsafe) let parser = parser
        capture?.startObject()
        try handle(assembler.startObject { parser.position(length: 1) })
    }

    func key(_ bytes: UnsafeRawBufferPointer) {
        capture?.key(bytes)
        assembler.key(bytes)
    }

    func endObject() throws(SluiceError) {
        guard capture != nil else { return try handle(assembler.endObject()) }
        let closed = capture!.endObject()
        let action = assembler.endObject()
        if closed { try deliverDeferred() }
        try handle(action, closedCapture: closed)
    }

    func startArray() throws(SluiceError) {
        unowned(unsafe) let parser = parser
        guard capture != nil else { return try handle(assembler.startArray { parser.position(length: 1) }) }
        capture!.startArray()
        let action = assembler.startArray { parser.position(length: 1) }
        // An array where a record should be is rejected at its `[`: capture it to its `]`.
        if case .rejected = action, !capture!.isCapturing { capture!.begin(array: true) }
        try handle(action)
    }

    func endArray() throws(SluiceError) {
        guard capture != nil else { return try handle(assembler.endArray()) }
        let closed = capture!.endArray()
        let action = assembler.endArray()
        if closed { try deliverDeferred() }
        try handle(action, closedCapture: closed)
    }

    @inline(__always)
    func scalar(_ value: Scalar, length: Int) throws(SluiceError) {
        unowned(unsafe) let parser = parser
        guard capture != nil else { return try handle(assembler.scalar(value) { parser.position(length: length) }) }
        capture!.scalar(value)
        try handle(assembler.scalar(value) { parser.position(length: length) }, scalar: value)
    }
}
