/// An import into an SQLite file: the engine's `ImportStore` over `ImportDatabase` (the
/// all-or-nothing file), `SchemaMigration`, the row writers, `SQLRunner` (its links) and
/// `SQLitePendingLinks`. It adds no
/// behaviour of its own: each requirement is one call into the types that do the work.
final class SQLiteStore: ImportStore {
    let database: ImportDatabase
    let runner: SQLRunner

    init(path: String) throws(SluiceError) {
        database = try ImportDatabase.begin(path: path)
        runner = SQLRunner(connection: database.connection, databaseName: path)
    }

    /// The tables `migrate(to:)` created.
    private var createdTables: [String] = []

    var connection: Connection { database.connection }
    var displayName: String { database.path }
    var links: any LinkStore { runner }

    var owner: ThreadOwner {
        get { database.connection.owner }
        set { database.connection.owner = newValue }
    }

    func setInterruptCheck(_ shouldStop: (() -> Bool)?) {
        // A long statement (a big lookup, ANALYZE) stops within a few thousand VM steps.
        database.connection.setInterruptCheck(shouldStop)
    }

    func migrate(to tables: [TableDefinition]) throws(SluiceError) -> SecondaryIndexes {
        let migration = try SchemaMigration.plan(database.connection, tables: tables, deferringSecondaryIndexes: true)
        try migration.apply(to: database.connection)
        runner.keys = TableKeys(tables)
        createdTables = migration.createdTables
        return SecondaryIndexes(sql: runner, deferred: migration.deferredIndexes)
    }

    func entityRows(entity: String, table: String, columns: [String], defaults: [ColumnValue?], identity: [Int])
        throws(SluiceError) -> any EntityRowStore
    {
        try SQLiteEntityRows(entity: entity, table: table, key: runner.keys.column(of: table), columns: columns,
                             defaults: defaults, identity: identity, connection: database.connection)
    }

    func pendingLinks() -> any PendingLinkStore { SQLitePendingLinks(sql: runner) }

    func freeformTable(named name: String) throws(SluiceError) -> any FreeformTableStore {
        try FreeformTable(opening: name, in: database.connection)
    }

    func touchedRows(entities: Set<Int>) throws(SluiceError) -> any TouchedRowStore {
        try TouchedRows(sql: runner, entities: entities)
    }

    func dropCreatedTablesLeftEmpty() throws(SluiceError) {
        guard !database.isNew else { return }
        runner.finalizeStatements()
        for table in createdTables where table != DatabaseLayout.importsTableName {
            do {
                guard try connection.scalar("SELECT 1 FROM \(quoteIdentifier(table)) LIMIT 1") == nil else { continue }
                try connection.execute("DROP TABLE \(quoteIdentifier(table))")
            } catch {
                throw error.sluiceError(database: displayName)
            }
        }
    }

    func log(_ record: ImportRecord) throws(SluiceError) {
        try ImportLog.insert(record, into: database.connection)
    }

    func analyze() throws(SluiceError) { try database.analyze() }
    func commit(vacuum: Bool, willVacuum: () -> Void) throws(SluiceError) {
        runner.finalizeStatements()
        try database.commit(vacuum: vacuum, willVacuum: willVacuum)
    }
    func rollback() {
        runner.finalizeStatements()
        database.rollback()
    }
}

extension SQLRunner: SQLRunning {
    var dialect: SQLDialect { .sqlite }
}


/// Rows go in one statement each as they come: nothing waits.
extension FreeformTable: FreeformTableStore {
    var columnLimitOwner: String { "SQLite's" }
    /// SQLite matches column names ignoring ASCII case.
    var foldsCase: Bool { true }
    /// Untyped columns keep each number's own type (`docs/cli.md`, zero-config).
    var storesNumbersAsText: Bool { false }
    /// SQLite takes any name but one holding U+0000, which `FreeformWriter` replaces.
    func columnName(forKey key: String) -> String { key }

    func insert(_ values: [ColumnValue?], setting set: [Int], source: String, at position: InputPosition) throws(SluiceError) {
        try insert(values, setting: set)
    }

    func flush() {}
}
