internal import CSQLite

/// One prepared statement: prepared in `init`, finalized in `deinit`. Holds its connection
/// strongly, so the connection outlives it.
///
/// Not `Sendable`: it belongs to its connection's thread.
final class Statement {
    let connection: Connection
    private let handle: OpaquePointer

    /// Prepares exactly one statement. Trailing whitespace or comments are fine; a second
    /// statement is a bug of the caller and throws `SQLITE_MISUSE`.
    init(connection: Connection, sql: String) throws(SQLiteError) {
        self.connection = connection
        let db = connection.handle
        var statement: OpaquePointer?
        var tailOffset = 0
        let rc = sql.withCString { text in
            var tail: UnsafePointer<CChar>?
            let rc = sqlite3_prepare_v3(db, text, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, &tail)
            if let tail { tailOffset = text.distance(to: tail) }
            return rc
        }
        guard rc == SQLITE_OK else {
            throw SQLiteError(resultCode: rc, db: db, sql: sql)
        }
        guard let statement else {
            throw SQLiteError(code: SQLiteError.misuse, message: "no SQL statement to prepare", sql: sql)
        }
        let rest = sql.utf8.dropFirst(tailOffset)
        if rest.contains(where: { !(UInt8(ascii: " ") == $0 || (9...13).contains($0)) }) {
            // A comment after the statement would land here too; we never write one.
            sqlite3_finalize(statement)
            throw SQLiteError(code: SQLiteError.misuse, message: "more than one SQL statement to prepare", sql: sql)
        }
        self.handle = statement
    }

    deinit {
        sqlite3_finalize(handle)
    }

    /// The SQL as prepared.
    var sql: String { String(cString: sqlite3_sql(handle)) }

    // MARK: Binding

    /// Binds `value` to parameter `index` (1-based). Text and blobs are copied
    /// (`SQLITE_TRANSIENT`); an empty blob stays an empty blob, not NULL.
    func bind(_ value: ColumnValue, at index: Int32) throws(SQLiteError) {
        let rc: Int32
        switch value {
        case .null:
            rc = sqlite3_bind_null(handle, index)
        case .integer(let number):
            rc = sqlite3_bind_int64(handle, index, number)
        case .real(let number):
            rc = sqlite3_bind_double(handle, index, number)
        case .text(var text):
            // Explicit length: a Swift string may hold NUL. A zero-length text needs a
            // non-nil pointer, else SQLite binds NULL.
            rc = text.withUTF8 { bytes in
                guard let base = bytes.baseAddress, !bytes.isEmpty else {
                    return sqlite3_bind_text64(handle, index, "", 0, sluice_sqlite_transient(), UInt8(SQLITE_UTF8))
                }
                return base.withMemoryRebound(to: CChar.self, capacity: bytes.count) { pointer in
                    sqlite3_bind_text64(handle, index, pointer, UInt64(bytes.count),
                                        sluice_sqlite_transient(), UInt8(SQLITE_UTF8))
                }
            }
        case .blob(let bytes):
            if bytes.isEmpty {
                rc = sqlite3_bind_zeroblob(handle, index, 0)
            } else {
                rc = bytes.withUnsafeBytes { raw in
                    sqlite3_bind_blob64(handle, index, raw.baseAddress, UInt64(raw.count), sluice_sqlite_transient())
                }
            }
        }
        guard rc == SQLITE_OK else {
            throw SQLiteError(resultCode: rc, db: connection.handle, sql: sql)
        }
    }

    /// Binds a cell to parameter `index` (1-based); a missing cell binds NULL. Text and blobs
    /// are read in place from `arena` (`SQLITE_STATIC`, no copy): the caller keeps those
    /// bytes unchanged until the statement is reset.
    func bind(_ cell: Cell, in arena: UnsafeRawBufferPointer, at index: Int32) throws(SQLiteError) {
        let rc: Int32
        switch cell.kind {
        case .missing, .null:
            rc = sqlite3_bind_null(handle, index)
        case .integer:
            rc = sqlite3_bind_int64(handle, index, cell.integer)
        case .real:
            rc = sqlite3_bind_double(handle, index, cell.real)
        case .text:
            let bytes = cell.bytes(in: arena)
            // A zero-length text needs a non-nil pointer, else SQLite binds NULL.
            guard let base = bytes.baseAddress, !bytes.isEmpty else { return try bind(.text(""), at: index) }
            rc = sqlite3_bind_text64(handle, index, base.assumingMemoryBound(to: CChar.self), UInt64(bytes.count),
                                     sluice_sqlite_static(), UInt8(SQLITE_UTF8))
        case .blob:
            let bytes = cell.bytes(in: arena)
            rc = bytes.isEmpty
                ? sqlite3_bind_zeroblob(handle, index, 0)
                : sqlite3_bind_blob64(handle, index, bytes.baseAddress, UInt64(bytes.count), sluice_sqlite_static())
        }
        guard rc == SQLITE_OK else {
            throw SQLiteError(resultCode: rc, db: connection.handle, sql: sql)
        }
    }

    /// Binds `values` to parameters 1, 2, … in order.
    func bind(_ values: some Collection<ColumnValue>) throws(SQLiteError) {
        var index: Int32 = 1
        for value in values {
            try bind(value, at: index)
            index += 1
        }
    }

    /// The number of parameters (`?`) of the statement.
    var parameterCount: Int32 { sqlite3_bind_parameter_count(handle) }

    // MARK: Running

    /// Runs one step: true when a row is ready to read, false when done.
    @discardableResult
    func step() throws(SQLiteError) -> Bool {
        assert(connection.owner.isCurrentThread, "SQLite statement run by a thread that does not own its connection")  // our bug
        switch sqlite3_step(handle) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        case let rc: throw SQLiteError(resultCode: rc, db: connection.handle, sql: sql)
        }
    }

    /// Resets the statement for another run and clears its bindings (all become NULL).
    func reset() {
        // sqlite3_reset returns the error of the last step again, which step() already threw.
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    /// Resets the statement for another run, keeping its bindings: for a statement whose
    /// every parameter is bound again before each run (clearing them is a few percent of a
    /// bulk insert). The bound bytes need not stay valid: they are read only by a step.
    func resetKeepingBindings() {
        sqlite3_reset(handle)
    }

    /// Runs an INSERT or UPDATE whose parameters are all bound again before each run, then
    /// resets it keeping its bindings. After a failure it is reset and its bindings cleared.
    func runKeepingBindings() throws(SQLiteError) {
        do {
            _ = try step()
            resetKeepingBindings()
        } catch {
            reset()
            throw error
        }
    }

    /// Binds `values`, steps to the end, and resets. For INSERT/UPDATE/DELETE.
    func run(_ values: some Collection<ColumnValue>) throws(SQLiteError) {
        defer { reset() }
        try bind(values)
        while try step() {}
    }

    // MARK: Reading

    var columnCount: Int32 { sqlite3_column_count(handle) }

    func columnName(at column: Int32) -> String {
        guard let name = sqlite3_column_name(handle, column) else {
            preconditionFailure("column \(column) out of range")  // our bug, or out of memory
        }
        return String(cString: name)
    }

    /// The value of `column` (0-based) of the current row, by its storage class.
    func value(at column: Int32) -> ColumnValue {
        let value = sqlite3_column_value(handle, column)
        switch sqlite3_value_type(value) {
        case SQLITE_INTEGER: return .integer(sqlite3_value_int64(value))
        case SQLITE_FLOAT: return .real(sqlite3_value_double(value))
        case SQLITE_TEXT: return .text(String(decoding: Self.bytes(of: value, text: true), as: UTF8.self))
        case SQLITE_BLOB: return .blob(Array(Self.bytes(of: value, text: false)))
        default: return .null
        }
    }

    /// The column as a cell, its text or blob bytes appended to `arena`: no `String` or
    /// `Array` per value, for reading many rows.
    func cell(at column: Int32, into arena: inout [UInt8]) -> Cell {
        let value = sqlite3_column_value(handle, column)
        switch sqlite3_value_type(value) {
        case SQLITE_INTEGER: return .integer(sqlite3_value_int64(value))
        case SQLITE_FLOAT: return .real(sqlite3_value_double(value))
        case SQLITE_TEXT: return Cell.bytes(.text, Self.bytes(of: value, text: true), in: &arena)
        case SQLITE_BLOB: return Cell.bytes(.blob, Self.bytes(of: value, text: false), in: &arena)
        default: return .null
        }
    }

    /// Whether the column of the current row holds `cell` (its bytes read from `arena`), as
    /// `Cell.equals` compares a cell read with `cell(at:into:)`, without copying the column.
    func column(_ column: Int32, holds cell: Cell, in arena: UnsafeRawBufferPointer) -> Bool {
        let value = sqlite3_column_value(handle, column)
        switch (sqlite3_value_type(value), cell.kind) {
        case (SQLITE_NULL, .null):
            return true
        case (SQLITE_INTEGER, .integer):
            return sqlite3_value_int64(value) == cell.integer
        case (SQLITE_FLOAT, .real):
            return sqlite3_value_double(value) == cell.real
        case (SQLITE_TEXT, .text), (SQLITE_BLOB, .blob):
            let stored = Self.bytes(of: value, text: cell.kind == .text)
            let mine = cell.bytes(in: arena)
            return stored.count == mine.count
                && (mine.isEmpty || MemoryBytes.equal(stored.baseAddress!, mine.baseAddress!, count: mine.count))
        default:
            return false
        }
    }

    /// A text or blob value's bytes, valid until the next step or reset.
    ///
    /// The value is `sqlite3_column_value`'s: read through `sqlite3_value_*`, a column takes
    /// one call that enters the connection where `sqlite3_column_*` enter it once for its
    /// type, once for its value and once for its length (re-reading W3's rows: 174 M of 1,496
    /// M instructions went to those calls). SQLite calls such a value unprotected: reading it
    /// is safe while no other thread uses the connection, which one thread owns
    /// (`SQLITE_OPEN_NOMUTEX`, `Connection.owner`).
    private static func bytes(of value: OpaquePointer?, text: Bool) -> UnsafeRawBufferPointer {
        // Pointer first, then the byte count, as the SQLite documentation asks.
        let base = text ? UnsafeRawPointer(sqlite3_value_text(value)) : sqlite3_value_blob(value)
        return UnsafeRawBufferPointer(start: base, count: base == nil ? 0 : Int(sqlite3_value_bytes(value)))
    }

    /// The column as an integer (SQLite's conversion: NULL is 0).
    func int64(at column: Int32) -> Int64 {
        sqlite3_column_int64(handle, column)
    }

    /// Whether the column of the current row is NULL.
    func isNull(at column: Int32) -> Bool {
        sqlite3_column_type(handle, column) == SQLITE_NULL
    }

    /// The column as text (SQLite's conversion for numbers), nil when NULL.
    func text(at column: Int32) -> String? {
        guard !isNull(at: column), let text = sqlite3_column_text(handle, column) else { return nil }
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
    }
}

@available(*, unavailable, message: "a Statement belongs to its connection's thread")
extension Statement: Sendable {}
