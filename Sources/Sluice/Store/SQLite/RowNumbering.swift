/// The pk of each new row of a table, chosen here as SQLite would choose it (the largest pk
/// plus one), so that the pks of a multi-row `INSERT` are known without reading them back.
///
/// The largest pk is read once, before the first row: the import's transaction is the only
/// writer, and its rows of the table are inserted only by one `RowInserter` until the second
/// pass.
struct RowNumbering {
    private var next = Next.unread
    /// Whether SQLite, given NULL for the pk, picks the very pk numbered here: true unless the
    /// database has an `AUTOINCREMENT` table (whose next rowid also depends on
    /// `sqlite_sequence`, which may be past the largest pk) or a trigger (which may insert
    /// rows of its own in between, taking the numbers: with explicit pks that fails the
    /// import instead, `UNIQUE constraint failed`). Then the inserter binds NULL:
    /// an explicit pk costs SQLite a search of the table's B-tree for a row that holds it
    /// (for uniqueness), about 700 instructions a row, a fifth of a narrow row's insert,
    /// where a pk SQLite picks itself lands after the last row without one.
    private(set) var sqlitePicksTheSamePK = false
    /// The first pk numbered: every row of the table from it up is one this import inserted
    /// (the rows before it were all below). nil before the first row, and when the largest
    /// pk was already `Int64.max`.
    private(set) var first: Int64?

    private enum Next {
        case unread
        case pk(Int64)
        /// The largest pk is `Int64.max`: SQLite picks unused pks at random, a row at a time.
        case exhausted
    }

    /// The pk for the next row of `table`, or nil once the table's largest pk is `Int64.max`.
    /// `issued`: the largest pk handed out before, when the layout records one beyond the
    /// table's rows (Core Data's `Z_MAX`: a deleted row's pk is not used again).
    mutating func take(table: String, key: String, issued: Int64 = 0, connection: Connection) throws(SQLiteError) -> Int64? {
        if case .unread = next {
            let statement = try connection.prepare("""
                SELECT max(\(quoteIdentifier(key))),
                    NOT EXISTS (SELECT 1 FROM sqlite_master WHERE name = 'sqlite_sequence' OR type = 'trigger')
                    AND NOT EXISTS (SELECT 1 FROM sqlite_temp_master WHERE type = 'trigger')
                FROM \(quoteIdentifier(table))
                """)
            _ = try statement.step()
            let inTable = statement.isNull(at: 0) ? nil : statement.int64(at: 0)
            let largest = issued > (inTable ?? 0) ? issued : inTable
            sqlitePicksTheSamePK = statement.int64(at: 1) == 1 && largest == inTable
            next = largest.map { $0 == .max ? .exhausted : .pk($0 + 1) } ?? .pk(1)
            if case .pk(let pk) = next { first = pk }
        }
        guard case .pk(let pk) = next else { return nil }
        next = pk == .max ? .exhausted : .pk(pk + 1)
        return pk
    }
}
