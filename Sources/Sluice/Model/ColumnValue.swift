/// A value as SQLite stores it: what conversions produce, what the store binds and reads back.
///
/// Comparing a converted input value with the stored one decides whether an update writes
/// anything, so equality is exact (no numeric coercion between `integer` and `real`).
public enum ColumnValue: Hashable, Sendable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])
}

extension ColumnValue: CustomStringConvertible {
    public var description: String {
        switch self {
        case .null: return "NULL"
        case .integer(let value): return String(value)
        case .real(let value): return String(value)
        case .text(let value): return "\"\(value)\""
        case .blob(let bytes): return "<\(bytes.count) bytes>"
        }
    }
}
