/// What turns an input's bytes into `EventHandler` events and knows where in the input the
/// event being delivered is: the JSON parser (`JSONParser`) or the CSV reader (`CSVReader`).
/// A handler asks it for positions only when it needs one (a record's start, an error).
class EventReader {
    /// The name of the input in messages: a path, `<stdin>`, `feed.zip:stops.txt`.
    let sourceName: String

    init(sourceName: String) {
        self.sourceName = sourceName
    }

    /// The position of the token being delivered, which is `length` bytes long in the input
    /// and ends where the reader is now (a reader that knows where each token starts may
    /// ignore `length`). Meaningful only inside a handler call.
    func tokenPosition(length: Int) -> InputPosition {
        preconditionFailure("a reader says where its events are")
    }
}
