internal import CSQLite

extension Connection {
    /// The most columns a table may have (`SQLITE_LIMIT_COLUMN`: 2000 unless SQLite was built
    /// with another limit). A zero-config import checks it before adding a column, so a file
    /// with more distinct keys gets a clear error instead of SQLite's own.
    var columnLimit: Int {
        Int(sqlite3_limit(handle, SQLITE_LIMIT_COLUMN, -1))
    }
}
