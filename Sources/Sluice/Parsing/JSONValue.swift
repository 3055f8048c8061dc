/// A JSON value held in memory. Used for small documents only (the model file, a
/// `default`); records are never built as trees.
///
/// Numbers keep the exact text they were written with, so no precision is lost before a
/// conversion decides what they mean.
public indirect enum JSONValue: Hashable, Sendable {
    case null
    case bool(Bool)
    case number(String)
    case string(String)
    case array([JSONValue])
    /// Members in document order; a key may repeat (the last one wins for lookups).
    case object([Member])

    public struct Member: Hashable, Sendable {
        public var key: String
        public var value: JSONValue
        public init(_ key: String, _ value: JSONValue) {
            self.key = key
            self.value = value
        }
    }

    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.last { $0.key == key }?.value
    }
}
