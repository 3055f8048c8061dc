/// What the importer drives: the parser's event handler, which counts the records it assembles.
protocol RecordEventHandler: EventHandler {
    /// The parser that drives the handler, set once both exist; positions come from it.
    var parser: EventReader? { get set }
    /// Records completed or rejected so far.
    var recordCount: Int { get }
}

/// Connects the parser to an assembler: each JSON event goes to the state machine, each
/// record it completes or rejects to the sink. Positions come from the parser, only when needed.
///
/// With `capturesRejectedRecords` (`--rejects`), the text of whatever may be rejected is
/// captured as its events pass (`RejectedRecordCapture`), so that a rejection carries it: a
/// record from where the assembler's `isInRejectableRecord` becomes true, an array standing
/// where a record should from its `[` (where it is rejected) to its `]`, a scalar as its own text.
///
/// The events are the parse's hottest path, and the stream is specialised for each assembler
/// (in the module's optimised build). A protocol conformance of a generic class would dispatch
/// to its unspecialised code, so the parser's handler conformance lives on the final
/// subclasses `RecordStream` and `FreeformStream`, each with its own `JSONEventCallbacks`:
/// yajl's callbacks call these final methods directly, with a concrete assembler.
class EventStream<Assembler: EventAssembler & ~Copyable> {
    // Touched on every event by the one thread that drives the parser, never re-entered:
    // no dynamic exclusivity checks (they cost about a quarter of the per-event time).
    @exclusivity(unchecked) private final var assembler: Assembler
    /// Retained (a sink does not know its stream: no cycle); a `let`, so that calls on it
    /// retain nothing.
    private final let sink: Assembler.Sink
    /// Set once the parser that drives this stream exists (the parser needs its handler
    /// first). Not retained: whoever drives the parse keeps it alive.
    final var parser: EventReader? {
        get { parserReference?.takeUnretainedValue() }
        set { parserReference = newValue.map(Unmanaged.passUnretained) }
    }
    /// `parser`, read without a retain: asking it for each record's position through an
    /// `unowned(unsafe)` reference still retained and released it around the call.
    @exclusivity(unchecked) private final var parserReference: Unmanaged<EventReader>?
    @exclusivity(unchecked) private final var capture: RejectedRecordCapture?
    /// Debug builds: events arrive on one thread at a time, and the sink never calls back in.
    private final let use = ExclusiveUse()

    init(_ assembler: consuming Assembler, sink: Assembler.Sink, capturesRejectedRecords: Bool, maxValueBytes: Int) {
        self.assembler = assembler
        self.sink = sink
        if capturesRejectedRecords { capture = RejectedRecordCapture(limit: maxValueBytes) }
    }

    final var recordCount: Int { assembler.recordCount }

    /// Reads the assembler, between events (after a parse, for what it saw).
    final func withAssembler<Result>(_ body: (borrowing Assembler) -> Result) -> Result { body(assembler) }

    /// - Parameters:
    ///   - scalar: the event was this scalar (a rejection of it carries its text).
    ///   - closedCapture: the event closed the captured value (a rejection carries its text).
    @inline(__always)  // forced: docs/performance.md#forced-inlining
    private final func handle(_ action: AssemblerAction, scalar: Scalar? = nil, closedCapture: Bool = false)
        throws(SluiceError)
    {
        switch action {
        case .none:
            return
        case .record:
            // A record the sink cannot take is placed here, where the source is known, and
            // rejected with no text.
            if let refused = try assembler.handOverCompleted(to: sink) {
                try Assembler.reject(SluiceError(refused, in: parser), entity: refused.entity, record: nil, to: sink)
            }
        case .rejected(let reason):
            let error = SluiceError(reason, in: parser)
            var record: [UInt8]?
            if capture != nil {
                guard case .now(let text) = capture!.route(error, entity: reason.entity, scalar: scalar,
                                                            closedCapture: closedCapture) else { return }
                record = text
            }
            try Assembler.reject(error, entity: reason.entity, record: record, to: sink)
        }
    }

    /// Delivers the rejections that waited for the captured value to close.
    private final func deliverDeferred() throws(SluiceError) {
        guard capture != nil else { return }
        for (error, entity) in capture!.takeDeferred() {
            try Assembler.reject(error, entity: entity, record: capture!.text, to: sink)
        }
    }

    @inline(__always)  // forced: docs/performance.md#forced-inlining
    final func startObject() throws(SluiceError) {
        try open(array: false) { assembler, position in assembler.startObject(position: position) }
    }

    @inline(__always)  // forced: docs/performance.md#forced-inlining
    final func key(_ bytes: UnsafeRawBufferPointer) {
        use.enter("an EventStream")
        defer { use.leave() }
        capture?.key(bytes)
        assembler.key(bytes)
    }

    @inline(__always)  // forced: docs/performance.md#forced-inlining
    final func endObject() throws(SluiceError) {
        try close({ $0.endObject() }, { $0.endObject() })
    }

    final func startArray() throws(SluiceError) {
        try open(array: true) { assembler, position in assembler.startArray(position: position) }
    }

    final func endArray() throws(SluiceError) {
        try close({ $0.endArray() }, { $0.endArray() })
    }

    /// An opening bracket: to the capture, then to the assembler. What may be rejected is
    /// captured from its opening bracket: a record from where it opens, an array standing
    /// where a record should from the `[` where it is rejected.
    @inline(__always)  // forced: docs/performance.md#forced-inlining
    private final func open(array: Bool, _ event: (inout Assembler, () -> InputPosition) -> AssemblerAction)
        throws(SluiceError)
    {
        use.enter("an EventStream")
        defer { use.leave() }
        // The position closure captures the parser as a local: capturing `self` (for its
        // property) retained and released the stream around every event.
        let parser = parserReference
        guard capture != nil else { return try handle(event(&assembler) { parser.position(length: 1) }) }
        if array { capture!.startArray() } else { capture!.startObject() }
        let outside = !assembler.isInRejectableRecord
        let action = event(&assembler) { parser.position(length: 1) }
        let rejected = if case .rejected = action { true } else { false }
        if !capture!.isCapturing, rejected || outside && assembler.isInRejectableRecord {
            capture!.begin(array: array)
        }
        try handle(action)
    }

    /// A closing bracket: to the capture (a rejection waiting for the captured value to close
    /// is delivered when it does), then to the assembler.
    @inline(__always)  // forced: docs/performance.md#forced-inlining
    private final func close(_ capturing: (inout RejectedRecordCapture) -> Bool,
                             _ event: (inout Assembler) -> AssemblerAction) throws(SluiceError) {
        use.enter("an EventStream")
        defer { use.leave() }
        guard capture != nil else { return try handle(event(&assembler)) }
        let closed = capturing(&capture!)
        let action = event(&assembler)
        if closed { try deliverDeferred() }
        try handle(action, closedCapture: closed)
    }

    /// Invalid text (`InvalidTextPolicy.reject`): inside a record it rejects the record, with
    /// where the bad bytes are; anywhere else it is the input error the parser made of it.
    final func invalidText(_ error: SluiceError) throws(SluiceError) {
        use.enter("an EventStream")
        defer { use.leave() }
        guard let position = error.position else { throw error }
        let problem = "\(error.message) at line \(position.line), column \(position.column)"
        if !assembler.invalidText(problem) { throw error }
    }

    // Scalars go through one method, with the token's length in the input (for the position
    // of a rejection). The events of W1's records (objects, keys, strings, numbers) are inlined
    // into yajl's callbacks (`RecordStream.callbacks`): a call each was measurable.

    final func null() throws(SluiceError) { try scalar(.null, length: 4) }
    final func bool(_ value: Bool) throws(SluiceError) { try scalar(.bool(value), length: value ? 4 : 5) }
    @inline(__always)  // forced: docs/performance.md#forced-inlining
    final func number(_ text: UnsafeRawBufferPointer) throws(SluiceError) { try scalar(.number(text), length: text.count) }
    @inline(__always)  // forced: docs/performance.md#forced-inlining
    final func string(_ bytes: UnsafeRawBufferPointer) throws(SluiceError) {
        try scalar(.string(bytes), length: bytes.count + 2)
    }

    /// A CSV field: its key and its string in one event, so that the assembler may look the
    /// column's name up once per header. With a capture, the two events as they are.
    final func field(_ column: Int, name: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer) throws(SluiceError) {
        guard capture == nil else {
            key(name)
            return try string(value)
        }
        use.enter("an EventStream")
        defer { use.leave() }
        let parser = parserReference
        let length = value.count + 2
        try handle(assembler.field(column, name: name, value: .string(value)) { parser.position(length: length) })
    }

    final func columnsNamed() {
        assembler.columnsNamed()
    }

    @inline(__always)  // forced: docs/performance.md#forced-inlining
    private final func scalar(_ value: Scalar, length: Int) throws(SluiceError) {
        use.enter("an EventStream")
        defer { use.leave() }
        let parser = parserReference
        guard capture != nil else { return try handle(assembler.scalar(value) { parser.position(length: length) }) }
        capture!.scalar(value)
        try handle(assembler.scalar(value) { parser.position(length: length) }, scalar: value)
    }
}

@available(*, unavailable, message: "a stream belongs to the one thread that drives its parser")
extension EventStream: Sendable {}

extension Optional where Wrapped == Unmanaged<EventReader> {
    /// Where the current token starts, or a placeholder before a parser is attached.
    fileprivate func position(length: Int) -> InputPosition {
        guard let self else { return InputPosition(line: 0, column: 0, offset: 0) }
        return self._withUnsafeGuaranteedRef { $0.tokenPosition(length: length) }
    }
}
