/// Where assembled records go.
protocol RecordSink: AnyObject {
    /// A complete record; its values are valid only during the call (copy what you keep).
    /// Returns how the record is named, so that a parent can link to it. Nested records
    /// complete before their parent; a sink must keep them until their top-level record
    /// (`record.isTopLevel`) has completed.
    func accept(_ record: Record) throws(SluiceError) -> RecordHandle
    /// A record of `entity` that cannot be imported, with its place in the input. Throw to
    /// stop the import (`--on-error abort`), return to go on without it.
    func reject(_ error: SluiceError, entity: Int) throws(SluiceError)
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
final class RecordStream: RecordEventHandler {
    private var assembler: RecordAssembler
    private unowned let sink: any RecordSink
    /// Set once the parser that drives this stream exists (the parser needs its handler first).
    unowned(unsafe) var parser: JSONParser?

    init(plan: MappingPlan, sink: any RecordSink, maxValueBytes: Int = 64 << 20) {
        assembler = RecordAssembler(plan: plan, maxValueBytes: maxValueBytes)
        self.sink = sink
    }

    var recordCount: Int { assembler.recordCount }

    @inline(__always)
    private func handle(_ action: RecordAssembler.Action) throws(SluiceError) {
        switch action {
        case .none:
            return
        case .record:
            assembler.attach(try sink.accept(assembler.completed))
        case .rejected(let reason):
            let position = SourcePosition(source: parser?.sourceName ?? "", line: reason.position.line,
                                          column: reason.position.column, offset: reason.position.offset)
            try sink.reject(SluiceError(.data, reason.message, at: position), entity: reason.entity)
        }
    }

    private func position(length: Int) -> TextPosition {
        parser?.tokenPosition(length: length) ?? TextPosition(line: 0, column: 0, offset: 0)
    }

    func startObject() throws(SluiceError) {
        try handle(assembler.startObject { position(length: 1) })
    }

    func key(_ bytes: UnsafeRawBufferPointer) {
        assembler.key(bytes)
    }

    func endObject() throws(SluiceError) {
        try handle(assembler.endObject())
    }

    func startArray() throws(SluiceError) {
        try handle(assembler.startArray { position(length: 1) })
    }

    func endArray() throws(SluiceError) {
        try handle(assembler.endArray())
    }

    func null() throws(SluiceError) {
        try handle(assembler.scalar(.null) { position(length: 4) })
    }

    func bool(_ value: Bool) throws(SluiceError) {
        try handle(assembler.scalar(.bool(value)) { position(length: value ? 4 : 5) })
    }

    func number(_ text: UnsafeRawBufferPointer) throws(SluiceError) {
        try handle(assembler.scalar(.number(text)) { position(length: text.count) })
    }

    func string(_ bytes: UnsafeRawBufferPointer) throws(SluiceError) {
        try handle(assembler.scalar(.string(bytes)) { position(length: bytes.count + 2) })
    }
}
