/// Inserts the new rows of one table, numbered here (`RowNumbering`) and written
/// `rowsPerInsert` to a statement: run one row at a time, SQLite spends most of an insert
/// starting and ending the statement (16 rows per statement took 40% less time than 1 in a
/// C loop, 64 rows 48%).
///
/// One thread at a time uses an inserter, and never re-enters it: its queue, touched per
/// row, has no dynamic exclusivity checks.
final class RowInserter {
    /// Rows per multi-row `INSERT`.
    let rowsPerInsert: Int
    private let table: String
    /// The table's key column, which the rows are numbered in.
    private let key: String
    /// Per column, the value a missing cell takes (an attribute's default); nil: NULL.
    private let defaults: [ColumnValue?]
    private let connection: Connection
    /// `INSERT` of one row, and of `rowsPerInsert` rows. Both name the pk: rows are numbered
    /// here, so the pk of each row of a multi-row insert is known without reading it back.
    /// The second is prepared when first needed: with up to 1,024 parameters it takes about
    /// 80 KB (64 rows of 13), for every entity of a large model that may never fill one.
    private let insertOne: Statement
    private var insertMany: Statement?
    private let insertManySQL: String
    private var numbering = RowNumbering()
    /// The largest pk issued before (`RowNumbering.take`).
    private let issued: Int64
    /// Rows from this pk up were inserted here (`RowNumbering.first`).
    var firstNewPK: Int64? { numbering.first }
    /// Rows numbered and waiting for `insertMany` (fewer than `rowsPerInsert`).
    @exclusivity(unchecked) private var queued: [(row: Int, pk: Int64)] = []
    /// Which parameters of `insertOne` and `insertMany` hold NULL (`NullParameters`).
    @exclusivity(unchecked) private var oneNulls: NullParameters
    @exclusivity(unchecked) private var manyNulls: NullParameters
    /// The row of `rows` whose insert failed last: how the refusal of a value names its record.
    private(set) var refusedRow: Int?

    /// Prepares the insert of rows of `columns` (and the key, `key`) into `table`; the columns
    /// the store fills itself (`filled`) are written as constants of the statement.
    init(table: String, key: String, columns: [String], filled: [(column: String, fill: TableDefinition.Fill)] = [],
         issued: Int64 = 0, defaults: [ColumnValue?], connection: Connection) throws(SluiceError) {
        self.issued = issued
        self.table = table
        self.key = key
        self.defaults = defaults
        self.connection = connection
        let names = ([key] + columns + filled.map(\.column)).map(quoteIdentifier).joined(separator: ", ")
        let row = "(\(([SQLParameters.placeholders(columns.count + 1)] + filled.map(\.fill.insertedSQL)).joined(separator: ", ")))"
        let insert = "INSERT INTO \(quoteIdentifier(table)) (\(names)) VALUES "
        rowsPerInsert = Self.rowsPerInsert(width: columns.count)
        insertManySQL = insert + Array(repeating: row, count: rowsPerInsert).joined(separator: ", ")
        oneNulls = NullParameters(count: columns.count + 1)
        manyNulls = NullParameters(count: (columns.count + 1) * rowsPerInsert)
        do {
            insertOne = try connection.prepare(insert + row)
        } catch {
            throw error.sluiceError(database: connection.displayName)
        }
    }

    /// Rows per multi-row `INSERT` for rows of `width` columns (and the pk): 64, fewer when
    /// that would bind more than `SQLParameters.maxPerStatement` values.
    static func rowsPerInsert(width: Int) -> Int {
        max(1, min(64, SQLParameters.maxPerStatement / (width + 1)))
    }

    /// Inserts row `row` of `rows` and returns its pk. A numbered row waits for a full
    /// statement: until `flush(_:)`, `rows` must hold the waiting rows unchanged.
    func insert(_ row: Int, of rows: CellRows) throws(SluiceError) -> Int64 {
        do {
            guard let pk = try numbering.take(table: table, key: key, issued: issued, connection: connection) else {
                // The rows numbered before go in first: SQLite's random pick must see their pks taken.
                try insertQueued(rows)
                try insertAlone(row, of: rows, pk: nil)
                return connection.lastInsertRowID
            }
            queued.append((row, pk))
            if rowsPerInsert > 1, queued.count == rowsPerInsert {
                try insertQueuedTogether(rows)
            }
            return pk
        } catch {
            throw error.sluiceError(database: connection.displayName)
        }
    }

    /// Inserts the rows still waiting, one statement each: the end of a batch.
    func flush(_ rows: CellRows) throws(SluiceError) {
        do {
            try insertQueued(rows)
        } catch {
            throw error.sluiceError(database: connection.displayName)
        }
    }

    /// The queued rows in one multi-row `INSERT`. When the database refuses a value, SQLite
    /// undoes the whole statement; the rows then go in one at a time, so that the refusal
    /// names its row (`refusedRow`).
    private func insertQueuedTogether(_ rows: CellRows) throws(SQLiteError) {
        let insertMany = try manyRowsInsert()
        for (offset, waiting) in queued.enumerated() {
            try bind(waiting.row, of: rows, pk: boundPK(waiting.pk), to: insertMany,
                     from: Int32(offset * (rows.width + 1) + 1), nulls: &manyNulls)
        }
        do {
            try insertMany.runKeepingBindings()
        } catch {
            guard error.isRefusedValue else { throw error }
            try insertQueued(rows)
            return
        }
        assert(connection.lastInsertRowID == queued[queued.count - 1].pk, "SQLite numbered rows otherwise")
        queued.removeAll(keepingCapacity: true)
    }

    private func insertQueued(_ rows: CellRows) throws(SQLiteError) {
        for waiting in queued {
            try insertAlone(waiting.row, of: rows, pk: boundPK(waiting.pk))
            assert(connection.lastInsertRowID == waiting.pk, "SQLite numbered a row otherwise")
        }
        queued.removeAll(keepingCapacity: true)
    }

    /// Inserts one row; a refusal is that row's (`refusedRow`).
    private func insertAlone(_ row: Int, of rows: CellRows, pk: Int64?) throws(SQLiteError) {
        do {
            try bind(row, of: rows, pk: pk, to: insertOne, from: 1, nulls: &oneNulls)
            try insertOne.runKeepingBindings()
        } catch {
            refusedRow = row
            throw error
        }
    }

    /// What a numbered row binds for its pk: NULL where SQLite picks the same pk itself
    /// (`RowNumbering.sqlitePicksTheSamePK`, which says why that is faster).
    @inline(__always)
    private func boundPK(_ pk: Int64) -> Int64? {
        numbering.sqlitePicksTheSamePK ? nil : pk
    }

    private func manyRowsInsert() throws(SQLiteError) -> Statement {
        if let insertMany { return insertMany }
        let statement = try connection.prepare(insertManySQL)
        insertMany = statement
        return statement
    }

    /// Binds the pk (nil: SQLite chooses) and every column of a row, from parameter `first`.
    /// A missing value takes its column's default. NULL is bound only where the parameter
    /// holds a value from an earlier row (`nulls`).
    private func bind(_ row: Int, of rows: CellRows, pk: Int64?, to statement: Statement, from first: Int32,
                      nulls: inout NullParameters) throws(SQLiteError) {
        if let pk {
            try statement.bind(.integer(pk), at: first)
            nulls[first] = false
        } else if !nulls[first] {
            try statement.bind(.null, at: first)
            nulls[first] = true
        }
        for column in 0..<rows.width {
            let cell = rows[row, column]
            let index = first + 1 + Int32(column)
            if cell.isMissing, let value = defaults[column] {
                try statement.bind(value, at: index)
                nulls[index] = value == .null
            } else if cell.kind == .missing || cell.kind == .null {
                guard !nulls[index] else { continue }
                try statement.bind(.null, at: index)
                nulls[index] = true
            } else {
                try statement.bind(cell, in: rows.arena, at: index)
                nulls[index] = false
            }
        }
    }
}

/// Which parameters of a statement hold NULL, so that NULL is not bound again where it is:
/// the inserts are run with `runKeepingBindings`, and a parameter keeps its value from row to
/// row. `sqlite3_bind_null` costs about 60 instructions, and most rows of a wide table leave
/// most optional columns empty (W3's stop times: 0.17 G of the 1.98 G spent inserting,
/// callgrind at scale 0.05). True only where NULL is known to be bound: a prepared statement's
/// parameters are all NULL, and so are they after a failed run (`Statement.reset` clears them).
private struct NullParameters {
    /// Indexed by parameter number, from 1.
    private var isNull: [Bool]

    init(count: Int) {
        isNull = Array(repeating: true, count: count + 1)
    }

    subscript(parameter: Int32) -> Bool {
        get { isNull[Int(parameter)] }
        set { isNull[Int(parameter)] = newValue }
    }
}
