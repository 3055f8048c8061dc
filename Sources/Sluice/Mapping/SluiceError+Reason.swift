extension SluiceError {
    /// A record-level problem before it is tied to a source: what and where in the text.
    struct Reason: Sendable, Equatable {
        var message: String
        var position: TextPosition
        /// The entity of the record that failed.
        var entity: Int
        init(_ message: String, at position: TextPosition, entity: Int) {
            self.message = message
            self.position = position
            self.entity = entity
        }
    }
}

extension SluiceError {
    /// A record-level problem placed in the source the parser reads.
    init(_ reason: Reason, in parser: JSONParser?) {
        let position = SourcePosition(source: parser?.sourceName ?? "", line: reason.position.line,
                                      column: reason.position.column, offset: reason.position.offset)
        self.init(.data, reason.message, at: position)
    }
}
