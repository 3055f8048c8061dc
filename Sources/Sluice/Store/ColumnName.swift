/// Table and column names as the stores compare them when they ignore case.
enum ColumnName {
    /// ASCII lowercase: how SQLite folds every identifier and PostgreSQL an unquoted one (both
    /// leave other letters as they are), so that names differing only so are known to meet.
    static func fold(_ name: String) -> String {
        String(decoding: name.utf8.map { (65...90).contains($0) ? $0 + 32 : $0 }, as: UTF8.self)
    }
}
