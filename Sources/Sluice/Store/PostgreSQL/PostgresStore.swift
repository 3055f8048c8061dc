/// An import into a PostgreSQL schema (`docs/postgresql.md`): the engine's `ImportStore` over
/// one libpq connection and one transaction.
///
/// * Everything — DDL included — happens in one transaction: on any error, interruption or
///   kill the server rolls it back (a closed connection aborts it), and holds what it held.
/// * Imports into one schema run one at a time: each takes a transaction-scoped advisory lock
///   named for the schema before it reads anything (so even two imports creating the same new
///   tables wait for each other, which a table lock cannot do for tables that do not exist
///   yet), then `LOCK TABLE … IN SHARE ROW EXCLUSIVE MODE` on the model's tables, which keeps
///   other writers out until the commit while readers go on reading the rows as they were.
/// * The session's `search_path` is the schema (created if missing), its time zone UTC (dates
///   read back as Sluice writes them).
final class PostgresStore: ImportStore {
    let connection: PostgresConnection
    let runner: PostgresRunner
    let schema: String
    var owner = ThreadOwner()
    private var tables: [String: TableDefinition] = [:]
    private var entityCount = 0
    /// The tables `migrate(to:)` created.
    private var createdTables: Set<String> = []
    private var finished = false
    private var watcher: PostgresCancelWatcher?

    init(uri: String, schema: String) throws(SluiceError) {
        guard !schema.isEmpty else { throw SluiceError(.usage, "the schema name (--schema) is empty") }
        if let refusal = PostgresNames.schemaRefusal(schema) { throw refusal }
        self.schema = schema
        connection = try PostgresConnection(uri: uri, displayName: PostgresURI.displayName(uri))
        runner = PostgresRunner(connection: connection)
        do {
            try connection.execute("""
                SET TIME ZONE 'UTC';
                SET client_min_messages = warning;
                BEGIN;
                """)
            try connection.query("SELECT pg_advisory_xact_lock(hashtext($1))", ["sluice import " + schema])
            // Created only when missing: a user may write an existing schema without the right
            // to create schemas.
            if try connection.query("SELECT 1 FROM pg_namespace WHERE nspname = $1", [schema]).rowCount == 0 {
                try connection.execute("CREATE SCHEMA \(quoteIdentifier(schema))")
            }
            try connection.execute("SET LOCAL search_path TO \(quoteIdentifier(schema))")
        } catch {
            connection.close()
            throw error
        }
    }

    deinit {
        watcher?.stop()
    }

    var displayName: String { connection.displayName }
    var links: any LinkStore { runner }

    /// Besides the engine's checks between chunks and batches, a watcher thread cancels the
    /// statement running when `shouldStop` becomes true (one long `UPDATE` or index build).
    func setInterruptCheck(_ shouldStop: (() -> Bool)?) {
        watcher?.stop()
        watcher = nil
        guard let shouldStop, !connection.isClosed else { return }
        watcher = connection.cancelWatcher(shouldStop)
    }

    var feed: String? {
        get { runner.keys.feed }
        set { runner.keys.feed = newValue }
    }

    func migrate(to tables: [TableDefinition]) throws(SluiceError) -> SecondaryIndexes {
        if let refusal = PostgresNames.refusal(of: tables) { throw refusal }
        for table in tables { self.tables[table.name] = table }
        runner.keys = TableKeys(tables, feed: runner.keys.feed)
        let plan = try PostgresSchema.plan(runner, schema: schema, tables: tables)
        for statement in plan.statements { try connection.execute(statement) }
        createdTables = plan.created
        let names = tables.map { quoteIdentifier($0.name) }.joined(separator: ", ")
        try connection.execute("LOCK TABLE \(names) IN SHARE ROW EXCLUSIVE MODE")
        return SecondaryIndexes(sql: runner, deferred: plan.newIndexes.deferred, early: plan.newIndexes.early,
                                identities: plan.newIndexes.identities)
    }

    func entityRows(entity: String, table: String, columns: [String], defaults: [ColumnValue?], identity: [Int])
        throws(SluiceError) -> any EntityRowStore
    {
        let definitions = columns.map { name in
            self.tables[table]?.columns.first { $0.name == name } ?? .init(name: name, sqlType: "TEXT")
        }
        entityCount += 1
        return PostgresEntityRows(entity: entity, table: table, key: runner.keys.column(of: table), columns: definitions,
                                      defaults: defaults, identity: identity, number: entityCount,
                                      startedEmpty: createdTables.contains(table), connection: connection)
    }

    func pendingLinks() -> any PendingLinkStore {
        let tables = self.tables
        return PostgresPendingLinks(connection: connection, keys: runner.keys) { plan in
            let column = tables[plan.targetTable]?.columns.first { $0.name == plan.relatedByColumn }
            return column.map(PostgresSchema.type(of:)) ?? "text"
        }
    }

    func freeformTable(named name: String) throws(SluiceError) -> any FreeformTableStore {
        let table = try PostgresFreeformTable(opening: name, connection: connection)
        tables[name] = TableDefinition(name: name, columns: [])
        return table
    }

    func touchedRows(entities: Set<Int>) throws(SluiceError) -> any TouchedRowStore {
        try TouchedRows(sql: runner, entities: entities)
    }

    func log(_ record: ImportRecord) throws(SluiceError) {
        try ImportLog.insert(record, into: runner)
    }

    func lastImport() throws(SluiceError) -> LoggedImport? {
        try ImportLog.last(in: runner, feed: feed)
    }

    func analyze() throws(SluiceError) {
        try connection.execute("ANALYZE " + tables.keys.sorted().map(quoteIdentifier).joined(separator: ", "))
    }

    func commit(vacuum: Bool, willVacuum: () -> Void) throws(SluiceError) {
        precondition(!finished, "commit() after commit() or rollback()")  // our bug
        finished = true
        setInterruptCheck(nil)
        defer { connection.close() }
        try connection.execute("COMMIT")
        if vacuum {
            willVacuum()
            try connection.execute("VACUUM " + tables.keys.sorted().map(quoteIdentifier).joined(separator: ", "))
        }
    }

    func rollback() {
        guard !finished else { return }
        finished = true
        setInterruptCheck(nil)
        // Closing is enough: the server rolls back a transaction whose connection ends.
        connection.close()
    }
}
