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
