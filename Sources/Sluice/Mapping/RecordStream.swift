/// Where assembled records go.
protocol RecordSink: AnyObject {
    /// A complete record; its values are valid only during the call (copy what you keep).
    /// Returns how the record is named, so that a parent can link to it. Nested records
    /// complete before their parent; a sink must keep them until their top-level record
    /// (`record.isTopLevel`) has completed.
    func accept(_ record: Record) throws(SluiceError) -> RecordHandle
    /// A record of `entity` that cannot be imported, with its place in the input and, when
    /// the stream captures them (`--rejects`), its JSON text (nil otherwise, or when it was
    /// larger than `--max-value-bytes`). Throw to stop the import (`--on-error abort`),
    /// return to go on without it.
    func reject(_ error: SluiceError, entity: Int, record: [UInt8]?) throws(SluiceError)
}

/// What the importer drives: the parser's event handler, which counts the records it assembles.
protocol RecordEventHandler: JSONEventHandler {
    /// The parser that drives the handler, set once both exist; positions come from it.
    var parser: JSONParser? { get set }
    /// Records completed or rejected so far.
    var recordCount: Int { get }
}

/// Connects the parser to the record assembler: each JSON event goes to the state machine,
/// each record it completes to the sink. Positions come from the parser, only when needed.
///
/// With `capturesRejectedRecords` (`--rejects`), the text of every top-level record is
/// captured as its events pass (`RejectedRecordCapture`) so that a rejection carries it; a
/// record starts where the assembler's `openRecordCount` goes from 0 to 1.
final class RecordStream: RecordEventHandler, ScalarForwarding {
    // Touched on every event by the one thread that drives the parser, never re-entered:
    // no dynamic exclusivity checks (they cost about a quarter of the per-event time).
    @exclusivity(unchecked) private var assembler: RecordAssembler
    /// Not retained (the importer owns both), nor checked on each record.
    private unowned(unsafe) let sink: any RecordSink
    /// Set once the parser that drives this stream exists (the parser needs its handler first).
    @exclusivity(unchecked) unowned(unsafe) var parser: JSONParser?
    @exclusivity(unchecked) private var capture: RejectedRecordCapture?

    init(plan: MappingPlan, sink: any RecordSink, maxValueBytes: Int = 64 << 20, capturesRejectedRecords: Bool = false) {
        assembler = RecordAssembler(plan: plan, maxValueBytes: maxValueBytes)
        self.sink = sink
        if capturesRejectedRecords { capture = RejectedRecordCapture(limit: maxValueBytes) }
    }

    var recordCount: Int { assembler.recordCount }

    /// - Parameters:
    ///   - scalar: the event was this scalar (a rejection of it carries its text).
    ///   - closedCapture: the event closed the captured value (a rejection carries its text).
    @inline(__always)
    private func handle(_ action: RecordAssembler.Action, scalar: Scalar? = nil, closedCapture: Bool = false)
        throws(SluiceError)
    {
        switch action {
        case .none:
            return
        case .record:
            assembler.attach(try assembler.withCompleted { record throws(SluiceError) in try sink.accept(record) })
        case .rejected(let reason):
            let error = SluiceError(reason, in: parser)
            var record: [UInt8]?
            if capture != nil {
                guard case .now(let text) = capture!.route(error, entity: reason.entity, scalar: scalar,
                                                            closedCapture: closedCapture) else { return }
                record = text
            }
            try sink.reject(error, entity: reason.entity, record: record)
        }
    }

    /// Delivers the rejections that waited for the captured value to close.
    private func deliverDeferred() throws(SluiceError) {
        guard capture != nil else { return }
        for (error, entity) in capture!.takeDeferred() { try sink.reject(error, entity: entity, record: capture!.text) }
    }

    // The position closures capture `parser` as a local: capturing `self` (for its property)
    // retained and released the stream around every event.

    func startObject() throws(SluiceError) {
        unowned(unsafe) let parser = parser
        guard capture != nil else { return try handle(assembler.startObject { parser.position(length: 1) }) }
        capture!.startObject()
        let outside = assembler.openRecordCount == 0
        let action = assembler.startObject { parser.position(length: 1) }
        if outside, assembler.openRecordCount > 0, !capture!.isCapturing { capture!.begin(array: false) }
        try handle(action)
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
