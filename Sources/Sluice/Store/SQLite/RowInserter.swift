/// Inserts the new rows of one table, numbered here (`RowNumbering`) and written
/// `rowsPerInsert` to a statement: run one row at a time, SQLite spends most of an insert
/// starting and ending the statement (16 rows per statement took 40% less time than 1 in a
/// C loop, 64 rows 48%).
///
/// The multi-row statement names only the columns some row of the import has given a value
/// so far (`ManyRowsInsert`): a column it leaves out gets NULL, as a bound NULL would, and
/// SQLite then neither copies a parameter nor encodes it per row. W3's stop times fill 10 of
/// their 24 columns.
///
/// Into a table that held rows before, in a file that keeps a journal (an existing database:
/// a new one is written without, see `ImportDatabase`), each row is a statement of its own.
/// SQLite undoes a failed multi-row statement alone, so before the statement changes a page
/// that the transaction changed already, it copies the page to a statement journal, a
/// temporary file: W3's weekly update at scale 0.2 copied 6,456 pages of 16 KiB that way
/// (105 MB, more than the 67 MB database) for the 6,200 rows it inserted, each statement's 64
/// rows changing as many pages of the indexes over the stops and trips. A statement of one row
/// without triggers needs no such copy. A table the import created keeps many rows to a
/// statement: its indexes wait for the end of the load, so a statement changes a page or two
/// at the end of the table (one row a statement, W3 at scale 0.2 into an existing file took
/// 0.3 s more CPU, 1.5 s in all, and saved 0.1 s in the kernel).
///
/// A value owned by the thread that writes (through its `SQLiteEntityRows`, once per batch):
/// its queue and NULL bookkeeping, touched per row, need no dynamic exclusivity checks.
struct RowInserter {
    /// Rows per multi-row `INSERT`.
    let rowsPerInsert: Int
    private let table: String
    /// The table's key column, which the rows are numbered in.
    private let key: String
    private let columns: [String]
    private let filled: [(column: String, fill: TableDefinition.Fill)]
    /// Per column, the value a missing cell takes (an attribute's default); nil: NULL.
    private let defaults: [ColumnValue?]
    private let connection: Connection
    /// `INSERT` of one row, naming every column. It and `insertMany` name the pk: rows are
    /// numbered here, so the pk of each row of a multi-row insert is known without reading
    /// it back.
    private let insertOne: Statement
    /// The multi-row `INSERT`, prepared when first needed and again when a row gives a value
    /// to a column it leaves out: with up to 1,024 parameters it takes about 80 KB, for every
    /// entity of a large model that may never fill one.
    private var insertMany: ManyRowsInsert?
    /// The columns every multi-row `INSERT` names: those with a default, the model's or the
    /// table's (leaving one out would store the table's default, not NULL).
    private let alwaysNamed: ColumnSet
    private var numbering = RowNumbering()
    /// The largest pk issued before (`RowNumbering.take`).
    private let issued: Int64
    /// Rows from this pk up were inserted here (`RowNumbering.first`).
    var firstNewPK: Int64? { numbering.first }
    /// Rows numbered and waiting for `insertMany` (fewer than `rowsPerInsert`).
    private var queued: [(row: Int, pk: Int64)] = []
    /// Which parameters of `insertOne` hold NULL (`NullParameters`).
    private var oneNulls: NullParameters
    private let allColumns: [Int]
    /// The row of `rows` whose insert failed last: how the refusal of a value names its record.
    private(set) var refusedRow: Int?

    /// Prepares the insert of rows of `columns` (and the key, `key`) into `table`; the columns
    /// the store fills itself (`filled`) are written as constants of the statement.
    /// `rowPerStatement`: the table held rows before, in a file that keeps a journal (above).
    init(table: String, key: String, columns: [String], filled: [(column: String, fill: TableDefinition.Fill)] = [],
         issued: Int64 = 0, defaults: [ColumnValue?], rowPerStatement: Bool = false, connection: Connection)
        throws(SluiceError)
    {
        self.issued = issued
        self.table = table
        self.key = key
        self.columns = columns
        self.filled = filled
        self.defaults = defaults
        self.connection = connection
        rowsPerInsert = rowPerStatement ? 1 : Self.rowsPerInsert(width: columns.count)
        oneNulls = NullParameters(count: columns.count + 1)
        allColumns = Array(columns.indices)
        do {
            var named = ColumnSet(width: columns.count)
            let tableDefaults = try Self.columnsWithDefaults(table, connection)
            for (column, name) in columns.enumerated() where defaults[column] != nil || tableDefaults.contains(name) {
                named.insert(column)
            }
            alwaysNamed = named
            insertOne = try connection.prepare(Self.insertSQL(table: table, key: key, columns: columns, named: allColumns,
                                                              filled: filled, rows: 1))
        } catch {
            throw error.sluiceError(database: connection.displayName)
        }
    }

    /// `INSERT` of `rows` rows of the pk and the columns `named` (indexes into `columns`),
    /// with the filled columns' constants.
    private static func insertSQL(table: String, key: String, columns: [String], named: [Int],
                                  filled: [(column: String, fill: TableDefinition.Fill)], rows: Int) -> String {
        let names = ([key] + named.map { columns[$0] } + filled.map(\.column)).map(quoteIdentifier).joined(separator: ", ")
        let row = "(\(([SQLParameters.placeholders(named.count + 1)] + filled.map(\.fill.insertedSQL)).joined(separator: ", ")))"
        return "INSERT INTO \(quoteIdentifier(table)) (\(names)) VALUES " + Array(repeating: row, count: rows).joined(separator: ", ")
    }

    /// The names of `table`'s columns declared with a `DEFAULT`.
    private static func columnsWithDefaults(_ table: String, _ connection: Connection) throws(SQLiteError) -> Set<String> {
        let rows = try connection.rows("SELECT name FROM pragma_table_xinfo(?) WHERE dflt_value IS NOT NULL", [.text(table)])
        return Set(rows.compactMap { row in
            guard case .text(let name)? = row.first else { return nil }
            return name
        })
    }

    /// Rows per multi-row `INSERT` for rows of `width` columns (and the pk): 64, fewer when
    /// that would bind more than `SQLParameters.maxPerStatement` values.
    static func rowsPerInsert(width: Int) -> Int {
        max(1, min(64, SQLParameters.maxPerStatement / (width + 1)))
    }

    /// Inserts row `row` of `rows` and returns its pk. A numbered row waits for a full
    /// statement: until `flush(_:)`, `rows` must hold the waiting rows unchanged.
    mutating func insert(_ row: Int, of rows: CellRows) throws(SluiceError) -> Int64 {
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
    mutating func flush(_ rows: CellRows) throws(SluiceError) {
        do {
            try insertQueued(rows)
        } catch {
            throw error.sluiceError(database: connection.displayName)
        }
    }

    /// The queued rows in one multi-row `INSERT`. When the database refuses a value, SQLite
    /// undoes the whole statement; the rows then go in one at a time, so that the refusal
    /// names its row (`refusedRow`).
    private mutating func insertQueuedTogether(_ rows: CellRows) throws(SQLiteError) {
        try prepareManyRowsInsert(for: rows)
        let statement = insertMany!.statement, columns = insertMany!.columns
        for (offset, waiting) in queued.enumerated() {
            try Self.bind(waiting.row, of: rows, pk: boundPK(waiting.pk), to: statement, columns: columns,
                          from: Int32(offset * (columns.count + 1) + 1), defaults: defaults, nulls: &insertMany!.nulls)
        }
        do {
            try statement.runKeepingBindings()
        } catch {
            guard error.isRefusedValue else { throw error }
            try insertQueued(rows)
            return
        }
        assert(connection.lastInsertRowID == queued[queued.count - 1].pk, "SQLite numbered rows otherwise")
        queued.removeAll(keepingCapacity: true)
    }

    private mutating func insertQueued(_ rows: CellRows) throws(SQLiteError) {
        for waiting in queued {
            try insertAlone(waiting.row, of: rows, pk: boundPK(waiting.pk))
            assert(connection.lastInsertRowID == waiting.pk, "SQLite numbered a row otherwise")
        }
        queued.removeAll(keepingCapacity: true)
    }

    /// Inserts one row; a refusal is that row's (`refusedRow`).
    private mutating func insertAlone(_ row: Int, of rows: CellRows, pk: Int64?) throws(SQLiteError) {
        do {
            try Self.bind(row, of: rows, pk: pk, to: insertOne, columns: allColumns, from: 1, defaults: defaults, nulls: &oneNulls)
            try insertOne.runKeepingBindings()
        } catch {
            refusedRow = row
            throw error
        }
    }

    /// What a numbered row binds for its pk: NULL where SQLite picks the same pk itself
    /// (`RowNumbering.sqlitePicksTheSamePK`, which says why that is faster).
    private func boundPK(_ pk: Int64) -> Int64? {
        numbering.sqlitePicksTheSamePK ? nil : pk
    }

    /// Makes `insertMany` a multi-row `INSERT` for the queued rows: the one in use while it
    /// names every column they give a value; else one naming those too.
    private mutating func prepareManyRowsInsert(for rows: CellRows) throws(SQLiteError) {
        var named = insertMany?.named ?? alwaysNamed
        let before = named
        for column in 0..<rows.width where !named.contains(column) {
            for waiting in queued where !rows[waiting.row, column].isMissing {
                named.insert(column)
                break
            }
        }
        if insertMany != nil, named == before { return }
        let columns = allColumns.filter(named.contains)
        let statement = try connection.prepare(Self.insertSQL(table: table, key: key, columns: self.columns, named: columns,
                                                              filled: filled, rows: rowsPerInsert))
        insertMany = ManyRowsInsert(statement: statement, named: named, columns: columns,
                                    nulls: NullParameters(count: (columns.count + 1) * rowsPerInsert))
    }

    /// Binds the pk (nil: SQLite chooses) and the columns `columns` of a row, from parameter
    /// `first`. A missing value takes its column's default. NULL is bound only where the
    /// parameter holds a value from an earlier row (`nulls`).
    private static func bind(_ row: Int, of rows: CellRows, pk: Int64?, to statement: Statement, columns: [Int], from first: Int32,
                             defaults: [ColumnValue?], nulls: inout NullParameters) throws(SQLiteError) {
        if let pk {
            try statement.bind(.integer(pk), at: first)
            nulls[first] = false
        } else if !nulls[first] {
            try statement.bind(.null, at: first)
            nulls[first] = true
        }
        var index = first
        for column in columns {
            let cell = rows[row, column]
            index += 1
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

/// A prepared multi-row `INSERT` naming some of the table's columns (`named`, and as indexes
/// in order, `columns`), and which of its parameters hold NULL.
private struct ManyRowsInsert {
    let statement: Statement
    let named: ColumnSet
    let columns: [Int]
    var nulls: NullParameters
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
