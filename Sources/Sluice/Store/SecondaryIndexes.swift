/// The plain (non-unique) indexes of tables this import created, built after the load
/// instead of before it.
///
/// A to-one column starts NULL and is set in the second pass, so an index over it would be
/// written twice per row while the import runs; one `CREATE INDEX` at the end sorts each
/// index once. The tables were created empty by this import, so nothing needs the indexes
/// before then, except a statement that looks rows up by such a column (unlinking a to-many
/// through its inverse, `--delete-missing`), which builds its index first with `ensure`.
///
/// An index that leaves out NULL (`WHERE "<col>" IS NOT NULL`, over a to-one's column) may
/// instead be made with its empty table (`early`): while no record links through the column,
/// every row leaves it NULL, the index stays empty and keeping it costs a test per insert,
/// where building it after the load reads the whole table (W3's four empty GTFS-Flex columns
/// of 3 million stop times: each `CREATE INDEX` about 800 instructions a row). The first
/// batch whose links fill the column drops it (`willFill`), and it is built after the load
/// like the others; unless the writer of the table's rows keeps it while they fill the column
/// in the index's order (`keepWhileInOrder`, `EarlyIndexOrder`). Should a column be filled
/// without that word, the index is kept up row by row: slower, never wrong.
///
/// A new table's unique identity index is made with it too (`identities`), and kept: every
/// batch's lookups use it. The engine may defer it instead (`deferIdentity`), for a table no
/// relationship looks into by id, whose records it knows are new without a lookup
/// (`IdentityCeiling`) and come in another order than the index's: one sort after the load
/// then replaces an index search per insert (W3's stop times at scale 1: 0.8 s of 5.7). A
/// lookup that needs it after all builds it first (`ensure`); built before the others, it is in
/// place for every statement after the load.
final class SecondaryIndexes {
    struct Deferred: Equatable {
        var name: String
        var table: String
        var columns: [String]
        var sql: String
    }

    private let sql: any SQLRunning
    private(set) var deferred: [Deferred]
    /// Indexes made with their new, empty table, each over one column that no row has filled yet.
    private(set) var early: [Deferred]
    /// The unique identity indexes made with their new, empty tables.
    private(set) var identities: [Deferred]
    /// Early indexes that the writer of their table's rows keeps up while it fills their column
    /// in the index's order (`EarlyIndexOrder`).
    private(set) var keptInOrder: [Deferred] = []

    init(sql: any SQLRunning, deferred: [Deferred], early: [Deferred] = [], identities: [Deferred] = []) {
        self.sql = sql
        self.deferred = deferred
        self.early = early
        self.identities = identities
    }

    /// Drops the identity index made with `table` and builds it after the load before any
    /// other (or when `ensure` asks for it). Returns its columns; nil when the table
    /// has none made with it.
    func deferIdentity(of table: String) throws(SluiceError) -> [String]? {
        guard let index = identities.firstIndex(where: { $0.table == table }) else { return nil }
        let statement = identities.remove(at: index)
        try execute("DROP INDEX \(quoteIdentifier(statement.name))")
        deferred.insert(statement, at: 0)
        return statement.columns
    }

    /// Whether an index made early covers exactly `column` of `table`, kept in order or not.
    func isEarly(table: String, column: String) -> Bool {
        Self.index(of: table, column, in: early) != nil || isKeptInOrder(table: table, column: column)
    }

    /// Whether the early index over `column` of `table` is kept while it is filled in order.
    func isKeptInOrder(table: String, column: String) -> Bool {
        Self.index(of: table, column, in: keptInOrder) != nil
    }

    /// Lets the writer of `table`'s rows keep the early index over `column` up while its rows
    /// fill the column in the index's order, until it says otherwise with `willFill`. Returns
    /// whether there is such an index and the store keeps indexes so (`SQLDialect`).
    func keepWhileInOrder(table: String, column: String) -> Bool {
        guard sql.dialect.keepsIndexesInOrder, let index = Self.index(of: table, column, in: early) else { return false }
        keptInOrder.append(early.remove(at: index))
        return true
    }

    /// Says that rows of `table` are about to get values in `column` (out of the index's
    /// order, when it is kept in order): its early index, if it has one, is dropped while it
    /// is still small, and built after the load.
    func willFill(table: String, column: String) throws(SluiceError) {
        let statement: Deferred
        if let index = Self.index(of: table, column, in: early) {
            statement = early.remove(at: index)
        } else if let index = Self.index(of: table, column, in: keptInOrder) {
            statement = keptInOrder.remove(at: index)
        } else {
            return
        }
        try execute("DROP INDEX \(quoteIdentifier(statement.name))")
        deferred.append(statement)
    }

    private static func index(of table: String, _ column: String, in list: [Deferred]) -> Int? {
        list.firstIndex { $0.table == table && $0.columns == [column] }
    }

    /// Builds the deferred index over exactly `columns` of `table`, if there is one.
    func ensure(table: String, columns: [String]) throws(SluiceError) {
        guard let index = deferred.firstIndex(where: { $0.table == table && $0.columns == columns }) else { return }
        let statement = deferred.remove(at: index)
        try execute(statement.sql)
    }

    /// Builds every index still deferred; `willBuild` is told each one's name first.
    ///
    /// In SQLite, with a second thread sorting (`PRAGMA threads=1`: `CREATE INDEX` sorts its
    /// entries in chunks, one sorted and written while the next is read): the second core is
    /// otherwise idle once the rows are in (W2's two stop-time indexes at scale 1, by the
    /// `sqlite3` shell: 1.20 s against 1.41–1.46 s). Each thread's chunk is as large as the
    /// page cache, and at least 250 pages (4 MiB of 16 KiB pages). The cache, which the
    /// builds read through once and append to, is 512 KiB meanwhile (as fast as 2 MiB and
    /// 7 MiB were) and restored after; the pages cached by the load and the second pass (the
    /// temporary tables' too) are written and freed first (`releaseCachedPages`): the second
    /// chunk is paid for by what the caches give up. Merging the chunks takes a page-sized
    /// buffer per chunk, the one part that grows with the table: 4 MiB more at 31.8 million
    /// stop times than at 3 million, SQLite's own (`docs/performance.md`, Memory).
    func createAll(willBuild: (String) -> Void = { _ in }) throws(SluiceError) {
        guard !deferred.isEmpty else { return }
        var restore: [String] = []
        for setting in sql.dialect.indexBuilding {
            let was = try sql.rows(setting.read, []).first?.first
            try execute(setting.set)
            if case .integer(let value)? = was { restore.append("\(setting.read)=\(value)") }
        }
        // The load's batches are gone; its cached pages go too, and the allocator gives the
        // memory back (it kept it in its arenas, between blocks still in use): the builds'
        // sort needs 8 MiB of its own.
        try sql.releaseCachedPages()
        FreedMemory.returnToTheSystem()
        while let statement = deferred.first {
            willBuild(statement.name)
            try execute(statement.sql)
            deferred.removeFirst()
        }
        for statement in restore { try execute(statement) }
    }

    private func execute(_ sql: String) throws(SluiceError) {
        try self.sql.execute(sql)
    }
}

extension SecondaryIndexes {
    /// The indexes of the tables a migration creates, filed by when each is made; the same
    /// rule for every store.
    struct NewTableIndexes {
        /// Made with the table and kept: the unique identity indexes (the engine may still defer one).
        private(set) var identities: [Deferred] = []
        /// Made with the table, dropped once a batch fills its column (`early`).
        private(set) var early: [Deferred] = []
        /// Built after the load.
        private(set) var deferred: [Deferred] = []

        /// Files `index` of the new table `table`, made by `sql`; returns whether it is made
        /// with the table (its statement is then run with the table's).
        mutating func add(_ index: TableDefinition.IndexDefinition, of table: String, sql: String) -> Bool {
            let later = Deferred(name: index.name, table: table, columns: index.columns, sql: sql)
            if index.unique {
                identities.append(later)
            } else if index.isEmptyUntilItsColumnIsFilled {
                early.append(later)
            } else {
                deferred.append(later)
                return false
            }
            return true
        }

        /// Builds `statement` after the load, in turn with the indexes filed (PostgreSQL's
        /// primary key of a table nothing looks up while it loads, filed before its indexes).
        mutating func buildAfterTheLoad(_ statement: Deferred) {
            deferred.append(statement)
        }
    }
}
