/// Where the records of a zero-config import go.
protocol FreeformSink: AnyObject {
    /// A complete record: `record.values[i]` is the value of column `columnNames[i]` (nil when
    /// the record lacks it). Both are valid only during the call (copy what you keep).
    func accept(_ record: Record, columnNames: [String]) throws(SluiceError)
    /// What stood where a record should cannot be imported. Throw to stop the import
    /// (`--on-error abort`), return to go on without it.
    func reject(_ error: SluiceError) throws(SluiceError)
}

/// Connects the parser to the zero-config assembler, as `RecordStream` does for a model: each
/// JSON event goes to the state machine, each record it completes to the sink.
final class FreeformStream: RecordEventHandler {
    private var assembler: FreeformAssembler
    private unowned let sink: any FreeformSink
    /// Set once the parser that drives this stream exists (the parser needs its handler first).
    unowned(unsafe) var parser: JSONParser?

    init(table: String, path: [String] = [], sink: any FreeformSink) {
        assembler = FreeformAssembler(table: table, path: path)
        self.sink = sink
    }

    var recordCount: Int { assembler.recordCount }

    @inline(__always)
    private func handle(_ action: FreeformAssembler.Action) throws(SluiceError) {
        switch action {
        case .none:
            return
        case .record:
            try sink.accept(assembler.completed, columnNames: assembler.columnNames)
        case .rejected(let reason):
            let position = SourcePosition(source: parser?.sourceName ?? "", line: reason.position.line,
                                          column: reason.position.column, offset: reason.position.offset)
            try sink.reject(SluiceError(.data, reason.message, at: position))
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
