/// The attribute types of SPEC §2, each stored as SPEC §3 says.
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
}
