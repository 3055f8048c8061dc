/// What `RecordStream` and `FreeformStream` share: scalar events through one method, a
/// rejection placed in the source, and positions asked of the parser.

/// A stream whose scalar events all go through one method, with the token's length in the
/// input (for the position of a rejection).
protocol ScalarForwarding: JSONEventHandler {
    func scalar(_ value: Scalar, length: Int) throws(SluiceError)
}

extension ScalarForwarding {
    func null() throws(SluiceError) { try scalar(.null, length: 4) }
    func bool(_ value: Bool) throws(SluiceError) { try scalar(.bool(value), length: value ? 4 : 5) }
    func number(_ text: UnsafeRawBufferPointer) throws(SluiceError) { try scalar(.number(text), length: text.count) }
    func string(_ bytes: UnsafeRawBufferPointer) throws(SluiceError) { try scalar(.string(bytes), length: bytes.count + 2) }
}

extension SluiceError {
    /// A record-level problem placed in the source the parser reads.
    init(_ reason: Reason, in parser: JSONParser?) {
        let position = SourcePosition(source: parser?.sourceName ?? "", line: reason.position.line,
                                      column: reason.position.column, offset: reason.position.offset)
        self.init(.data, reason.message, at: position)
    }
}

extension Optional where Wrapped == JSONParser {
    /// Where the current token starts, or a placeholder before a parser is attached.
    func position(length: Int) -> TextPosition {
        self?.tokenPosition(length: length) ?? TextPosition(line: 0, column: 0, offset: 0)
    }
}
