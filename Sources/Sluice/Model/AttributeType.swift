/// The attribute types of `docs/model.md`, each stored as `docs/database-layout.md` says.
public enum AttributeType: String, CaseIterable, Sendable {
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
