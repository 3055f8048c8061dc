/// A value as SQLite stores it: what conversions produce, what the store binds and reads back.
///
/// Comparing a converted input value with the stored one decides whether an update writes
/// anything, so equality is exact (no numeric coercion between `integer` and `real`).
public enum ColumnValue: Hashable, Sendable {
    /// SQL `NULL`.
    case null
    /// An INTEGER: a 64-bit signed integer.
    case integer(Int64)
    /// A REAL: a double.
    case real(Double)
    /// TEXT, UTF-8.
    case text(String)
    /// A BLOB: bytes.
    case blob([UInt8])
}

extension ColumnValue: CustomStringConvertible {
    /// The value as a log or test message shows it: `NULL`, digits, a quoted string, or a blob's size.
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
