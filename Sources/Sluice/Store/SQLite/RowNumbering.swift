/// The pk of each new row of a table, chosen here as SQLite would choose it (the largest pk
/// plus one), so that the pks of a multi-row `INSERT` are known without reading them back.
///
/// The largest pk is read once, before the first row: the import's transaction is the only
/// writer, and its rows of the table are inserted only by one `RowInserter` until the second
/// pass.
struct RowNumbering {
    private var next = Next.unread

    private enum Next {
        case unread
        case pk(Int64)
        /// The largest pk is `Int64.max`: SQLite picks unused pks at random, a row at a time.
        case exhausted
    }

    /// The pk for the next row of `table`, or nil once the table's largest pk is `Int64.max`.
    mutating func take(table: String, connection: Connection) throws(SQLiteError) -> Int64? {
        if case .unread = next {
            let statement = try connection.prepare("SELECT max(\"pk\") FROM \(quoteIdentifier(table))")
            _ = try statement.step()
            let largest = statement.isNull(at: 0) ? nil : statement.int64(at: 0)
            next = largest.map { $0 == .max ? .exhausted : .pk($0 + 1) } ?? .pk(1)
        }
        guard case .pk(let pk) = next else { return nil }
        next = pk == .max ? .exhausted : .pk(pk + 1)
        return pk
    }
}
