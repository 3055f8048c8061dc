/// Finds which rows of a batch a table already holds, by identity: one query per up to
/// `rowsPerQuery` rows rather than one per row.
///
/// Each row's identity goes into a `VALUES` list next to the row's number, joined to the
/// table through its unique identity index (CROSS JOIN keeps that order: one index search per
/// identity, where `(a, b) IN (VALUES …)` would scan the whole index). A found row comes back
/// with the number it matched, so the caller needs no key built and hashed, and its columns
/// are compared where SQLite holds them (`FoundRows`), with no `String` per text.
final class IdentityLookup {
    /// Rows one query looks up: as many identities, each with its row's number, as one
    /// statement binds (`SQLParameters.maxPerStatement`).
    let rowsPerQuery: Int
    private let table: String
    private let key: String
    private let columns: [String]
    /// Indexes into `columns` of the identity, in model order.
    private let identity: [Int]
    private let connection: Connection
    /// Lookup statements by how many rows their `VALUES` list holds.
    private var lookups: [Int: Statement] = [:]
    /// The statements of `following`, by the columns they read.
    private var followingStatements: [ColumnSet: Statement] = [:]

    /// Looks up rows of `columns` (the pk aside) of `table` by the columns `identity` names.
    init(table: String, key: String, columns: [String], identity: [Int], connection: Connection) {
        self.table = table
        self.key = key
        self.columns = columns
        self.identity = identity
        self.connection = connection
        rowsPerQuery = max(1, SQLParameters.maxPerStatement / (identity.count + 1))
    }

    /// Runs the query for `rows` (at most `rowsPerQuery` of them) of `cells`; the rows it
    /// found are read from what it returns, before the next `find`.
    func find(_ rows: ArraySlice<Int>, of cells: CellRows) throws(SluiceError) -> FoundRows {
        let perTuple = identity.count + 1
        let size = SQLParameters.listSize(for: rows.count, limit: rowsPerQuery)
        do {
            let statement = try lookup(count: size)
            var index: Int32 = 1
            for row in rows {
                for column in identity {
                    try statement.bind(cells[row, column], in: cells.arena, at: index)
                    index += 1
                }
                try statement.bind(.integer(Int64(row)), at: index)
                index += 1
            }
            // The rest of the list is NULL, which matches nothing.
            while index <= Int32(size * perTuple) {
                try statement.bind(.null, at: index)
                index += 1
            }
            return FoundRows(statement: statement)
        } catch {
            throw error.sluiceError(database: connection.displayName)
        }
    }

    /// Runs the query for up to `limit` rows whose key follows `key` (nil: from the first
    /// row), in key order: one sequential read of the table, no index search per row. It
    /// reads only the columns `reading` holds, the others NULL (SQLite's cost per row is
    /// mostly its columns). Its rows are read as `find`'s are, their row number NULL.
    func following(_ key: Int64?, limit: Int, reading: ColumnSet) throws(SluiceError) -> FoundRows {
        do {
            let statement = try following(reading: reading)
            try statement.bind(.integer(key ?? .min), at: 1)
            try statement.bind(.integer(Int64(limit)), at: 2)
            return FoundRows(statement: statement, reading: reading)
        } catch {
            throw error.sluiceError(database: connection.displayName)
        }
    }

    private func following(reading: ColumnSet) throws(SQLiteError) -> Statement {
        if let statement = followingStatements[reading] { return statement }
        let selected = [quoteIdentifier(key)] + columns.indices.map { reading.contains($0) ? quoteIdentifier(columns[$0]) : "NULL" }
        let quotedKey = quoteIdentifier(key)
        let statement = try connection.prepare("SELECT NULL, \(selected.joined(separator: ", ")) FROM \(quoteIdentifier(table)) "
            + "WHERE \(quotedKey) > ?1 ORDER BY \(quotedKey) LIMIT ?2")
        followingStatements[reading] = statement
        return statement
    }

    private func lookup(count: Int) throws(SQLiteError) -> Statement {
        if let statement = lookups[count] { return statement }
        let identityNames = identity.map { quoteIdentifier(columns[$0]) }
        // The last value of each tuple is the row's number, returned first; then the pk.
        let selected = ([key] + columns).map { "t.\(quoteIdentifier($0))" }.joined(separator: ", ")
        let tuple = "(\(SQLParameters.placeholders(identityNames.count + 1)))"
        let match = identityNames.enumerated().map { "t.\($1) = k.column\($0 + 1)" }.joined(separator: " AND ")
        let sql = "SELECT k.column\(identityNames.count + 1), \(selected) FROM (VALUES \(Array(repeating: tuple, count: count).joined(separator: ", "))) AS k "
            + "CROSS JOIN \(quoteIdentifier(table)) AS t ON \(match)"
        let statement = try connection.prepare(sql)
        lookups[count] = statement
        return statement
    }
}

/// The rows one `IdentityLookup.find` found, read one at a time: which row of the batch each
/// matched, its pk, and its columns, read in place. Valid until the next `find`.
struct FoundRows: FoundRow {
    fileprivate let statement: Statement
    /// The columns read; nil: all.
    fileprivate var reading: ColumnSet? = nil
    /// Where the row's columns start among the query's: after the row's number and the pk.
    private static let firstColumn: Int32 = 2

    /// Steps to the next row found; false once there is none, the query then reset for the
    /// next `find`.
    func next() throws(SluiceError) -> Bool {
        do {
            if try statement.step() { return true }
            statement.reset()
            return false
        } catch {
            statement.reset()
            throw error.sluiceError(database: statement.connection.displayName)
        }
    }

    /// The row of the batch that this row matched.
    var row: Int { Int(statement.int64(at: 0)) }

    var pk: Int64 { statement.int64(at: Self.firstColumn - 1) }

    /// Whether the row's column `column` holds `cell` (bytes in `arena`), compared as
    /// `Cell.equals` compares: see `Statement.column(_:holds:in:)`.
    func column(_ column: Int, holds cell: Cell, in arena: UnsafeRawBufferPointer) -> Bool {
        statement.column(Self.firstColumn + Int32(column), holds: cell, in: arena)
    }

    /// The row's column `column` as a cell, its bytes appended to `arena`.
    func cell(_ column: Int, into arena: inout [UInt8]) -> Cell {
        statement.cell(at: Self.firstColumn + Int32(column), into: &arena)
    }

    func reads(_ column: Int) -> Bool {
        reading?.contains(column) ?? true
    }
}
