/// Where the records of a zero-config import go.
protocol FreeformSink: AnyObject {
    /// A complete record: `record.values[i]` is the value of column `columnNames[i]` (nil when
    /// the record lacks it). Both are valid only during the call (copy what you keep).
    func accept(_ record: Record, columnNames: [String]) throws(SluiceError)
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
final class FreeformStream: RecordEventHandler {
    private var assembler: FreeformAssembler
    private unowned let sink: any FreeformSink
    /// Set once the parser that drives this stream exists (the parser needs its handler first).
    unowned(unsafe) var parser: JSONParser?

    private var capture: RejectedRecordCapture?

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
            try sink.accept(assembler.completed, columnNames: assembler.columnNames)
        case .rejected(let reason):
            let position = SourcePosition(source: parser?.sourceName ?? "", line: reason.position.line,
                                          column: reason.position.column, offset: reason.position.offset)
            let error = SluiceError(.data, reason.message, at: position)
            guard capture != nil else { return try sink.reject(error, record: nil) }
            if capture!.isCapturing {
                capture!.deferred.append((error, reason.entity))
            } else if let scalar {
                try sink.reject(error, record: RejectedRecordCapture.text(of: scalar))
            } else {
                try sink.reject(error, record: closedCapture ? capture!.text : nil)
            }
        }
    }

    /// Delivers the rejections that waited for the captured value to close.
    private func deliverDeferred() throws(SluiceError) {
        guard let waiting = capture?.deferred, !waiting.isEmpty else { return }
        capture!.deferred.removeAll()
        for (error, _) in waiting { try sink.reject(error, record: capture!.text) }
    }

    private func position(length: Int) -> TextPosition {
        parser?.tokenPosition(length: length) ?? TextPosition(line: 0, column: 0, offset: 0)
    }

    func startObject() throws(SluiceError) {
        capture?.startObject()
        try handle(assembler.startObject { position(length: 1) })
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
        guard capture != nil else { return try handle(assembler.startArray { position(length: 1) }) }
        capture!.startArray()
        let action = assembler.startArray { position(length: 1) }
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

    func null() throws(SluiceError) {
        try scalar(.null, length: 4)
    }

    func bool(_ value: Bool) throws(SluiceError) {
        try scalar(.bool(value), length: value ? 4 : 5)
    }

    func number(_ text: UnsafeRawBufferPointer) throws(SluiceError) {
        try scalar(.number(text), length: text.count)
    }

    func string(_ bytes: UnsafeRawBufferPointer) throws(SluiceError) {
        try scalar(.string(bytes), length: bytes.count + 2)
    }

    @inline(__always)
    private func scalar(_ value: Scalar, length: Int) throws(SluiceError) {
        guard capture != nil else { return try handle(assembler.scalar(value) { position(length: length) }) }
        capture!.scalar(value)
        try handle(assembler.scalar(value) { position(length: length) }, scalar: value)
    }
}
