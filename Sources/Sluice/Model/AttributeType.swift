/// The attribute types of `docs/model.md`, each stored as `docs/database-layout.md` says.
public enum AttributeType: String, CaseIterable, Sendable {
    /// The types of `docs/model.md#types`: text, 64-bit integers (or 16/32 with `bits`), doubles,
    /// decimals kept as written, booleans, ISO 8601 dates in UTC, canonical UUIDs, base64 bytes,
    /// and any JSON value kept as compact JSON text.
    case string, integer, double, decimal, boolean, date, uuid, binary, json

    /// The declared SQLite column type.
    public var sqlType: String {
        switch self {
        case .string, .decimal, .date, .uuid, .json: return "TEXT"
        case .integer, .boolean: return "INTEGER"
        case .double: return "REAL"
        case .binary: return "BLOB"
        }
    }

    /// The type's name after "a" or "an", for messages: `an integer`, `a string`.
    var withArticle: String {
        switch self {
        case .integer: return "an \(rawValue)"
        default: return "a \(rawValue)"
        }
    }
}
