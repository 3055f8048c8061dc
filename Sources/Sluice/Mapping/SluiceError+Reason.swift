extension SluiceError {
    /// A record-level problem before it is tied to a source: what and where in the text.
    struct Reason: Sendable, Equatable {
        var message: String
        var position: InputPosition
        /// The entity of the record that failed.
        var entity: Int
        init(_ message: String, at position: InputPosition, entity: Int) {
            self.message = message
            self.position = position
            self.entity = entity
        }
    }
}

extension SluiceError {
    /// A record-level problem placed in the source the parser reads.
    init(_ reason: Reason, in parser: EventReader?) {
        self.init(.data, reason.message, in: parser?.sourceName ?? "", at: reason.position)
    }
}
