/// How the stores run their smaller statements (links, lookups, waiting links, touched rows,
/// deferred indexes): written with `?` (or `?N`) placeholders and the few spellings that differ
/// between databases taken from `dialect`. `SQLiteRunner` (SQLite, cached prepared statements)
/// and `PostgresRunner` (`?` → `$N`) run them. Only the stores use it: the engine asks for
/// links through `LinkStore`.
protocol SQLRunning: AnyObject {
    var dialect: SQLDialect { get }
    /// The key column of each table, from the layout the store was migrated to.
    var keys: TableKeys { get }
    /// Runs a statement to its end; returns how many rows it changed.
    @discardableResult
    func run(_ sql: String, _ arguments: some Collection<ColumnValue>) throws(SluiceError) -> Int
    /// The rows of a query, each value as the engine's keys are (`ColumnValue`).
    func rows(_ sql: String, _ arguments: [ColumnValue]) throws(SluiceError) -> [[ColumnValue]]
    /// Runs SQL that takes no arguments and returns nothing (DDL).
    func execute(_ sql: String) throws(SluiceError)
    /// Frees the memory of the database pages the connection keeps cached (SQLite; nothing
    /// for PostgreSQL, whose server caches).
    func releaseCachedPages() throws(SluiceError)
}

extension SQLRunning {
    func releaseCachedPages() throws(SluiceError) {}
}

/// What differs in the SQL both stores share (`TouchedRows`) between SQLite and PostgreSQL.
struct SQLDialect: Sendable {
    /// Whether an insert that hits a unique key is skipped with `INSERT OR IGNORE` (SQLite) or
    /// `ON CONFLICT DO NOTHING` (PostgreSQL).
    var insertOrIgnore: Bool
    /// A 64-bit integer column: `INTEGER` (SQLite's is 64-bit, and `INTEGER PRIMARY KEY` is
    /// the rowid), `bigint` (PostgreSQL's `integer` is 32-bit).
    var integer: String
    /// After the columns of a table whose primary key is all it holds: SQLite's
    /// ` WITHOUT ROWID` makes the key its only b-tree.
    var keyOnlyTable: String
    /// SQLite: the statements that set up the connection for the indexes built after the
    /// load, and how to read back each setting they change (`SecondaryIndexes.createAll`);
    /// empty for PostgreSQL, whose server decides.
    var indexBuilding: [(set: String, read: String)] = []
    /// Whether a new table's early index may be kept up while its rows fill the column in
    /// the index's order (`SecondaryIndexes.keepWhileInOrder`). SQLite: yes, it costs less
    /// than building it after the load. PostgreSQL: no, a b-tree insert per row cost its
    /// server more than the sort after the load (W3's `stop_times_trip_pk`, 900,000 rows in
    /// one binary `COPY`: 1.3 s against 0.35 s for `CREATE INDEX`, docs/postgresql.md).
    var keepsIndexesInOrder = true

    static let sqlite = SQLDialect(insertOrIgnore: true, integer: "INTEGER", keyOnlyTable: " WITHOUT ROWID",
                                   indexBuilding: [("PRAGMA threads=1", "PRAGMA threads"),
                                                   ("PRAGMA cache_size=-512", "PRAGMA cache_size")])
    static let postgres = SQLDialect(insertOrIgnore: false, integer: "bigint", keyOnlyTable: "", keepsIndexesInOrder: false)

    /// `INSERT … VALUES (values)` into `table` (quoted) that skips a row already there
    /// (`values` may hold several rows: `?, ?), (?, ?`).
    func insertIgnoringDuplicates(into table: String, columns: String, values: String) -> String {
        insertOrIgnore
            ? "INSERT OR IGNORE INTO \(table) (\(columns)) VALUES (\(values))"
            : "INSERT INTO \(table) (\(columns)) VALUES (\(values)) ON CONFLICT DO NOTHING"
    }
}
