internal import CSQLite

/// Small queries, and what the connection can tell about its state.
extension Connection {
    /// Runs `sql` with `arguments` and returns every row. For small queries (schema, tests).
    func rows(_ sql: String, _ arguments: [ColumnValue] = []) throws(SQLiteError) -> [[ColumnValue]] {
        let statement = try prepare(sql)
        try statement.bind(arguments)
        var rows: [[ColumnValue]] = []
        while try statement.step() {
            rows.append((0..<statement.columnCount).map { statement.value(at: $0) })
        }
        return rows
    }

    /// The first column of the first row, or nil when there is no row.
    func scalar(_ sql: String, _ arguments: [ColumnValue] = []) throws(SQLiteError) -> ColumnValue? {
        let statement = try prepare(sql)
        try statement.bind(arguments)
        return try statement.step() ? statement.value(at: 0) : nil
    }

    /// The rowid of the last successful INSERT on this connection.
    var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// Rows changed by the last INSERT, UPDATE or DELETE.
    var changes: Int64 { sqlite3_changes64(handle) }

    /// Whether the connection is inside an explicit transaction.
    var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

    /// How long a statement waits for another connection's lock before SQLITE_BUSY.
    func setBusyTimeout(ms: Int32) {
        sqlite3_busy_timeout(handle, ms)
    }

    /// Whether the main database was opened (or fell back to) read-only.
    var isReadOnly: Bool { sqlite3_db_readonly(handle, "main") == 1 }
}
