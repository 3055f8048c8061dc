/// The SQL of a zero-config table (`docs/cli.md`): `"pk" INTEGER PRIMARY KEY` and columns with no
/// declared type, so SQLite keeps each value's own type (integer, real, text) as it comes.
/// Columns are added as new keys appear; none is ever dropped or retyped.
enum FreeformTable {
    /// The columns of `table` in order (`"pk"` among them), creating the table with only
    /// `"pk"` when it does not exist. A view or index of that name is an error.
    static func open(_ table: String, in connection: Connection) throws(SluiceError) -> [String] {
        do {
            let columns = try connection.rows("SELECT name FROM pragma_table_info(?)", [.text(table)])
                .map { $0[0].textValue ?? "" }
            let kind = try connection.scalar("SELECT type FROM sqlite_schema WHERE lower(name) = lower(?)",
                                             [.text(table)])?.textValue
            if let kind, kind != "table" {
                throw SluiceError(.cannotCreate, "cannot import into table \(quoteIdentifier(table)) of database "
                    + "'\(connection.displayName)': a \(kind) has that name")
            }
            guard columns.isEmpty else { return columns }
            try connection.execute("CREATE TABLE \(quoteIdentifier(table)) (\"pk\" INTEGER PRIMARY KEY)")
            return ["pk"]
        } catch let error as SQLiteError {
            throw error.sluiceError(database: connection.displayName)
        } catch let error as SluiceError {
            throw error
        } catch {
            preconditionFailure("unexpected error \(error)")  // the do block throws only these two
        }
    }

    /// `ALTER TABLE … ADD COLUMN` with no declared type.
    static func addColumn(_ column: String, to table: String, in connection: Connection) throws(SluiceError) {
        do {
            try connection.execute("ALTER TABLE \(quoteIdentifier(table)) ADD COLUMN \(quoteIdentifier(column))")
        } catch {
            throw error.sluiceError(database: connection.displayName)
        }
    }

    /// The INSERT of one row holding `columns` (all others get their default, NULL).
    static func insertSQL(into table: String, columns: [String]) -> String {
        guard !columns.isEmpty else { return "INSERT INTO \(quoteIdentifier(table)) DEFAULT VALUES" }
        let placeholders = Array(repeating: "?", count: columns.count).joined(separator: ", ")
        return "INSERT INTO \(quoteIdentifier(table)) (\(columns.map(quoteIdentifier).joined(separator: ", "))) "
            + "VALUES (\(placeholders))"
    }
}
