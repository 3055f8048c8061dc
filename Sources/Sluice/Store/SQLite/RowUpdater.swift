/// Writes the columns of existing rows whose values changed: one `UPDATE` per set of
/// columns, prepared when first needed (a re-import changes the same few columns of many
/// rows, or none).
final class RowUpdater {
    private let table: String
    private let key: String
    private let columns: [String]
    private let connection: Connection
    /// `UPDATE` statements by the set of columns they write.
    private var updates: [ColumnSet: Statement] = [:]

    /// Updates rows of `columns` (the pk aside) of `table`. A row's version (Core Data's
    /// `Z_OPT`) is not raised here: once per import, by the layout (`CoreDataVersioning`).
    init(table: String, key: String, columns: [String], connection: Connection) {
        self.table = table
        self.key = key
        self.columns = columns
        self.connection = connection
    }

    /// Sets the `changed` columns of the row whose pk is `pk` to those of row `row` of `rows`.
    func update(_ row: Int, of rows: CellRows, changed: ColumnSet, pk: Int64) throws(SluiceError) {
        do {
            let statement = try statement(for: changed)
            var index: Int32 = 1
            for column in changed.members {
                try statement.bind(rows[row, column], in: rows.arena, at: index)
                index += 1
            }
            try statement.bind(.integer(pk), at: index)
            try statement.runKeepingBindings()
        } catch {
            throw error.sluiceError(database: connection.displayName)
        }
    }

    private func statement(for changed: ColumnSet) throws(SQLiteError) -> Statement {
        if let statement = updates[changed] { return statement }
        let assignments = changed.members.map { "\(quoteIdentifier(columns[$0])) = ?" }
        let sql = "UPDATE \(quoteIdentifier(table)) SET \(assignments.joined(separator: ", ")) WHERE \(quoteIdentifier(key)) = ?"
        let statement = try connection.prepare(sql)
        updates[changed] = statement
        return statement
    }
}
