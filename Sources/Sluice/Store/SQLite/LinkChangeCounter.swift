internal import CSQLite

/// The SQL function `sluice_link(slot, new, old)` of one connection, for the second pass that
/// sets several to-one columns of a row in one `UPDATE` (`SQLitePendingLinks`): it returns `new`,
/// or `old` when `new` is NULL (a target not found), and counts per `slot` the columns it
/// changes — the links made, which the statement's own count of changed rows cannot tell
/// apart when one row gains two links.
///
/// An `UPDATE … FROM` evaluates its `SET` expressions once per row it changes, so the
/// counts are exact as long as each row is joined to one row of the `FROM` clause.
final class LinkChangeCounter {
    static let functionName = "sluice_link"
    /// Links changed per slot since the last `reset`.
    private(set) var changed: [Int]
    /// Weak: SQLite holds the counter, and the connection must still close when its owners
    /// let go of it.
    private weak var connection: Connection?

    /// Defines the function on `connection` for `slots` slots (0 to `slots - 1`); it stays
    /// defined, counting into this object, until `remove()`.
    init(connection: Connection, slots: Int) throws(SQLiteError) {
        self.connection = connection
        changed = Array(repeating: 0, count: slots)
        // SQLite holds a reference until the function is replaced or removed, or the connection
        // closes (its destructor releases it): a statement can never call into a freed counter.
        let context = Unmanaged.passRetained(self).toOpaque()
        let rc = sqlite3_create_function_v2(
            connection.handle, Self.functionName, 3, SQLITE_UTF8, context,
            { context, count, arguments in
                guard let context, count == 3, let arguments, let slot = arguments[0], let new = arguments[1],
                      let old = arguments[2] else { return }
                let counter = Unmanaged<LinkChangeCounter>.fromOpaque(sqlite3_user_data(context)).takeUnretainedValue()
                guard sqlite3_value_type(new) != SQLITE_NULL else {
                    sqlite3_result_value(context, old)
                    return
                }
                let same = sqlite3_value_type(old) == SQLITE_INTEGER && sqlite3_value_type(new) == SQLITE_INTEGER
                    && sqlite3_value_int64(old) == sqlite3_value_int64(new)
                if !same {
                    let index = Int(sqlite3_value_int64(slot))
                    if counter.changed.indices.contains(index) { counter.changed[index] += 1 }
                }
                sqlite3_result_value(context, new)
            }, nil, nil, { context in
                if let context { Unmanaged<LinkChangeCounter>.fromOpaque(context).release() }
            })
        guard rc == SQLITE_OK else { throw SQLiteError(resultCode: rc, db: connection.handle) }
    }

    func reset() {
        for slot in changed.indices { changed[slot] = 0 }
    }

    /// Removes the function from the connection, which releases the counter.
    func remove() {
        guard let connection, !connection.isClosed else { return }
        sqlite3_create_function_v2(connection.handle, Self.functionName, 3, SQLITE_UTF8, nil, nil, nil, nil, nil)
    }
}
