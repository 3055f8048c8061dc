internal import CSQLite

/// One SQLite connection: the only owner of its `sqlite3*`, closed in `deinit` (or earlier by
/// `close()`). Statements keep their connection alive, so a connection is never closed under
/// a live statement; `close()` uses `sqlite3_close_v2`, which defers the real close until the
/// last statement is finalized.
///
/// Not `Sendable`: a connection and its statements belong to one thread at a time.
final class Connection {
    enum Mode: Sendable {
        /// `SQLITE_OPEN_READONLY`.
        case readOnly
        /// `SQLITE_OPEN_READWRITE`: the file must exist (SQLite falls back to read-only when
        /// the file is write-protected; `ImportDatabase` checks that beforehand).
        case readWrite
        /// `SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE`.
        case create

        var flags: Int32 {
            switch self {
            case .readOnly: return SQLITE_OPEN_READONLY
            case .readWrite: return SQLITE_OPEN_READWRITE
            case .create: return SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
            }
        }
    }

    /// The file SQLite opened.
    let path: String
    /// How messages name the database: the path the user gave, which differs from `path`
    /// while a new database is built in a temporary file.
    var displayName: String

    private var db: OpaquePointer?
    /// The closure `trace(_:)` installed, owned here because SQLite keeps only a pointer.
    var traceBox: TraceBox?
    /// The check `setInterruptCheck(_:)` installed, owned here for the same reason.
    var interruptBox: InterruptBox?

    /// Opens `path` (`":memory:"` for an in-memory database) with extended result codes on.
    init(path: String, mode: Mode = .create, displayName: String? = nil) throws(SQLiteError) {
        self.path = path
        self.displayName = displayName ?? path
        var handle: OpaquePointer?
        let rc = sqlite3_open_v2(path, &handle, mode.flags | SQLITE_OPEN_NOMUTEX, nil)
        guard rc == SQLITE_OK, let handle else {
            let error = SQLiteError(resultCode: rc, db: handle)
            sqlite3_close_v2(handle)  // a handle is returned even on failure, except on NOMEM
            throw error
        }
        sqlite3_extended_result_codes(handle, 1)
        db = handle
    }

    deinit {
        close()
    }

    /// Closes the connection now; using it afterwards is a bug. Harmless when already closed.
    func close() {
        guard let db else { return }
        // sqlite3_close_v2 only fails on a bad handle; unfinalized statements make it a
        // "zombie" that closes when the last one is finalized.
        sqlite3_close_v2(db)
        self.db = nil
    }

    var isClosed: Bool { db == nil }

    /// The raw handle, for `Statement`.
    var handle: OpaquePointer {
        guard let db else { preconditionFailure("SQLite connection used after close()") }  // our bug
        return db
    }

    /// Runs one or more `;`-separated statements, discarding any rows.
    func execute(_ sql: String) throws(SQLiteError) {
        var message: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(handle, sql, nil, nil, &message)
        guard rc == SQLITE_OK else {
            var error = SQLiteError(resultCode: rc, db: handle, sql: sql)
            if let message {
                error.message = String(cString: message)
                sqlite3_free(message)
            }
            throw error
        }
    }

    /// Prepares one statement (`SQLITE_PREPARE_PERSISTENT`: meant to be reused).
    func prepare(_ sql: String) throws(SQLiteError) -> Statement {
        try Statement(connection: self, sql: sql)
    }

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

    /// Rows changed since the connection was opened.
    var totalChanges: Int64 { sqlite3_total_changes64(handle) }

    /// Whether the connection is inside an explicit transaction.
    var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

    /// How long a statement waits for another connection's lock before SQLITE_BUSY.
    func setBusyTimeout(ms: Int32) {
        sqlite3_busy_timeout(handle, ms)
    }

    /// Whether the main database was opened (or fell back to) read-only.
    var isReadOnly: Bool { sqlite3_db_readonly(handle, "main") == 1 }
}

@available(*, unavailable, message: "a Connection belongs to one thread at a time")
extension Connection: Sendable {}
