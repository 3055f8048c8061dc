/// A JSON value held in memory. Used for small documents only (the model file, a
/// `default`); records are never built as trees.
///
/// Numbers keep the exact text they were written with, so no precision is lost before a
/// conversion decides what they mean.
public indirect enum JSONValue: Hashable, Sendable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number, as the exact text it was written with (`1e3`, `0.10`).
    case number(String)
    /// A string, unescaped.
    case string(String)
    /// An array's elements, in order.
    case array([JSONValue])
    /// Members in document order; a key may repeat (the last one wins for lookups).
    case object([Member])

    /// One member of an object: its key and value.
    public struct Member: Hashable, Sendable {
        /// The member's key, unescaped.
        public var key: String
        /// The member's value.
        public var value: JSONValue
        /// The member `key`: `value`.
        public init(_ key: String, _ value: JSONValue) {
            self.key = key
            self.value = value
        }
    }

    /// The value of the member `key` of an object (its last, when the key repeats); nil for a
    /// key it lacks and for anything but an object.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.last { $0.key == key }?.value
    }
}
