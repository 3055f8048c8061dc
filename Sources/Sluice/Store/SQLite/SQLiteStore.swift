/// An import into an SQLite file: the engine's `ImportStore` over `ImportDatabase` (the
/// all-or-nothing file), `SQLiteSchema`, the row writers, `SQLiteRunner` (its links) and
/// `SQLitePendingLinks`. It adds no
/// behaviour of its own: each requirement is one call into the types that do the work.
final class SQLiteStore: ImportStore {
    let database: ImportDatabase
    let runner: SQLiteRunner

    /// The file of a layout other than Sluice's (Core Data's store); nil for Sluice's.
    private let file: LayoutFile?
    /// Whether this import made the file a store of that layout: its indexes are then built
    /// after the load (`LayoutFile.deferredIndexes`).
    private var createdLayoutFile = false

    /// `vacuum`: whether `commit` will be asked to vacuum (a new file is then built for its
    /// copy, `ImportDatabase`).
    init(path: String, file: LayoutFile? = nil, vacuum: Bool = false) throws(SluiceError) {
        self.file = file
        try Self.inspect(path, for: file)
        database = try ImportDatabase.begin(path: path, fileFormat: file?.fileFormat ?? ImportDatabase.sluiceFileFormat,
                                            vacuum: vacuum)
        runner = SQLiteRunner(connection: database.connection, databaseName: path)
    }

    /// The tables `migrate(to:)` created.
    private var createdTables: [String] = []
    /// The tables a new store of the layout was made with (`LayoutFile.creation`).
    private var layoutTables: Set<String> = []

    var connection: Connection { database.connection }
    var displayName: String { database.path }
    var notes: [String] { database.notes }
    var links: any LinkStore { runner }

    var owner: ThreadOwner {
        get { database.connection.owner }
        set { database.connection.owner = newValue }
    }

    func setInterruptCheck(_ shouldStop: (() -> Bool)?) {
        // A long statement (a big lookup, ANALYZE) stops within a few thousand VM steps.
        database.connection.setInterruptCheck(shouldStop)
    }

    var feed: String? {
        get { runner.keys.feed }
        set { runner.keys.feed = newValue }
    }

    func migrate(to tables: [TableDefinition]) throws(SluiceError) -> SecondaryIndexes {
        if let file { try prepare(file) } else {
            try Self.refuseCoreDataStore(tables: SQLiteError.converting(database: displayName) { try Self.tableNames(connection) },
                                         displayName: displayName)
        }
        let migration = try SQLiteSchema.plan(database.connection, tables: tables, deferringSecondaryIndexes: true)
        try migration.apply(to: database.connection)
        runner.keys = TableKeys(tables, feed: runner.keys.feed)
        if let file {
            runner.keys.issuedKeys = try issuedKeys(file)
            try setUp(file)
        }
        createdTables = migration.createdTables
        let layoutIndexes = createdLayoutFile ? file?.deferredIndexes ?? [] : []
        let new = migration.newIndexes
        return SecondaryIndexes(sql: runner, deferred: new.deferred + layoutIndexes, early: new.early,
                                identities: new.identities + (createdLayoutFile ? file?.identityIndexes ?? [] : []))
    }

    func entityRows(entity: String, table: String, columns: [String], defaults: [ColumnValue?], identity: [Int])
        throws(SluiceError) -> any EntityRowStore
    {
        try SQLiteEntityRows(entity: entity, table: table, key: runner.keys.column(of: table), columns: columns,
                             filled: runner.keys.filled(of: table), issued: runner.keys.issued(in: table), defaults: defaults, identity: identity,
                             startedEmpty: createdTables.contains(table) || layoutTables.contains(table),
                             journaled: !database.isNew, connection: database.connection)
    }

    func pendingLinks() -> any PendingLinkStore { SQLitePendingLinks(sql: runner) }

    func freeformTable(named name: String) throws(SluiceError) -> any FreeformTableStore {
        try SQLiteFreeformTable(opening: name, in: database.connection)
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

    /// A layout of its own keeps no `sluice_imports` (Core Data's store holds only its tables),
    /// but a place of its own (`LayoutFile.importLog`).
    func log(_ record: ImportRecord) throws(SluiceError) {
        guard let place = file?.importLog else { return try ImportLog.insert(record, into: runner) }
        if let statement = place.record(try runner.rows(place.query, []), record) {
            try runner.run(statement.sql, statement.values)
        }
    }

    func lastImport() throws(SluiceError) -> LoggedImport? {
        guard let place = file?.importLog else { return try ImportLog.last(in: runner, feed: feed) }
        return place.last(try runner.rows(place.query, []))
    }

    func analyze() throws(SluiceError) { try database.analyze() }
    func commit(vacuum: Bool, willVacuum: () -> Void) throws(SluiceError) {
        if let file {
            do {
                for statement in file.finishing { try connection.execute(statement) }
            } catch {
                throw error.sluiceError(database: displayName)
            }
        }
        runner.finalizeStatements()
        try database.commit(vacuum: vacuum, journalMode: file?.journalMode, willVacuum: willVacuum)
    }
    func rollback() {
        runner.finalizeStatements()
        database.rollback()
    }
}

extension SQLiteStore {
    /// An empty file becomes a store of the layout; an existing one must be one, written for
    /// this model (`LayoutFile.verify`), checked again under the import's write lock.
    private func prepare(_ file: LayoutFile) throws(SluiceError) {
        try SQLiteError.converting(database: displayName) {
            guard try Self.refuse(connection, for: file, displayName: displayName) else { return }
            for (sql, values) in file.creation { _ = try connection.rows(sql, values) }
            createdLayoutFile = true
            layoutTables = Set(try connection.rows("SELECT name FROM sqlite_schema WHERE type = 'table'").compactMap { $0.first?.textValue })
        }
    }

    /// Sluice's layout is never written into a Core Data store: its tables would sit beside
    /// Core Data's, holding rows the app never reads. Read before the import opens the file to
    /// write (`inspect`), and again under its write lock.
    private static func refuseCoreDataStore(tables: [String], displayName: String) throws(SluiceError) {
        guard ImportStores.isCoreDataStore(tables: Set(tables)) else { return }
        throw SluiceError(.usage, "database '\(displayName)' is a Core Data store (it has Z_METADATA and Z_PRIMARYKEY): Sluice's "
            + "tables beside Core Data's would hold rows the app never reads; import into it with its Core Data model in Core "
            + "Data's layout (--layout coredata), or into another file")
    }

    /// Refuses an existing file that is not a store of the layout written for this model (or,
    /// in Sluice's layout, that is a Core Data store) before the import opens it to write: on a
    /// connection that writes none of the file's companions either (`Connection.Mode.untouched`).
    /// Opening a store in WAL mode to write and closing it checkpoints its `-wal` into the main
    /// file and deletes the `-wal` and `-shm` (an app's store keeps its rows in its `-wal`): a
    /// refused store is left byte for byte as it was. A file SQLite cannot read is left to the
    /// import's own open, which says why.
    private static func inspect(_ path: String, for file: LayoutFile?) throws(SluiceError) {
        guard SystemCalls.status(ofPath: path)?.isRegularFile == true,
              let connection = try? Connection(path: path, mode: .untouched, displayName: path) else { return }
        defer { connection.close() }
        do {
            if let file { _ = try refuse(connection, for: file, displayName: path) } else {
                try refuseCoreDataStore(tables: tableNames(connection), displayName: path)
            }
        } catch let error as SluiceError {
            throw error
        } catch {
            return
        }
    }

    private static func tableNames(_ connection: Connection) throws(SQLiteError) -> [String] {
        try connection.rows("SELECT name FROM sqlite_schema WHERE type = 'table'").compactMap { $0.first?.textValue }
    }

    /// Throws the refusal of a database that is not a store of the layout written for this
    /// model; returns whether it holds no table at all (a new store is made in it).
    private static func refuse(_ connection: Connection, for file: LayoutFile, displayName: String) throws -> Bool {
        guard try connection.scalar("SELECT 1 FROM sqlite_schema LIMIT 1") != nil else { return true }
        guard try connection.scalar("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?",
                                    [.text(file.markerTable)]) != nil else {
            throw SluiceError(.data, "database '\(displayName)' is not \(file.description) (it has tables but no "
                                + "\(file.markerTable)); nothing was written: import into a new file, or into \(file.description)")
        }
        if let problem = file.verify(try connection.rows(file.verifyQuery), displayName) { throw problem }
        return false
    }

    /// Runs the layout's `setup`, with each keyed table's largest key (of its rows, or issued
    /// before) for an existing store.
    private func setUp(_ file: LayoutFile) throws(SluiceError) {
        do {
            var lastKeys: [String: Int64]?
            if !createdLayoutFile {
                var keys: [String: Int64] = [:]
                for table in file.keyedTables {
                    let largest = try connection.scalar("SELECT ifnull(max(\(runner.keys.quoted(table))), 0) FROM \(quoteIdentifier(table))")
                    keys[table] = max(largest?.integerValue ?? 0, runner.keys.issued(in: table))
                }
                lastKeys = keys
            }
            for statement in file.setup(lastKeys) { try connection.execute(statement) }
        } catch {
            throw error.sluiceError(database: displayName)
        }
    }

    /// The largest key issued per table, as the layout's file records it.
    private func issuedKeys(_ file: LayoutFile) throws(SluiceError) -> [String: Int64] {
        do {
            var result: [String: Int64] = [:]
            for row in try connection.rows(file.issuedKeysQuery) {
                if case .text(let table) = row[0], case .integer(let issued) = row[1] { result[table] = issued }
            }
            return result
        } catch {
            throw error.sluiceError(database: displayName)
        }
    }
}

extension SQLiteRunner: SQLRunning {
    var dialect: SQLDialect { .sqlite }

    func releaseCachedPages() throws(SluiceError) {
        do {
            try connection.releaseCachedPages()
        } catch {
            throw error.sluiceError(database: databaseName)
        }
    }
}


/// Rows go in one statement each as they come: nothing waits.
extension SQLiteFreeformTable: FreeformTableStore {
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

    /// A table with no row still exists once the import has read its inputs.
    func flush() throws(SluiceError) { try createIfWaiting() }
}
