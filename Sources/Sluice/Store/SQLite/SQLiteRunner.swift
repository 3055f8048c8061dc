/// Runs the engine's smaller statements (links, pending references) through a cache of
/// prepared statements keyed by their SQL, and turns SQLite's errors into `SluiceError`.
final class SQLiteRunner {
    let connection: Connection
    let databaseName: String
    /// Set by `SQLiteStore.migrate(to:)`.
    var keys = TableKeys()
    /// Statements by their SQL. Reached per statement, never per record (a batch's links, a
    /// slice of waiting links), so its dynamic exclusivity checks cost nothing measurable:
    /// the runner is a class because the store, its pending links, touched rows and indexes
    /// share it.
    private var statements: [String: Statement] = [:]

    init(connection: Connection, databaseName: String) {
        self.connection = connection
        self.databaseName = databaseName
    }

    /// Finalizes the cached statements. The store calls it before the connection closes: a
    /// statement left unfinalized keeps a closed connection open (SQLite's "zombie"), and with
    /// it the exclusive lock of a new database's file for as long as the runner lives.
    func finalizeStatements() {
        statements.removeAll()
    }

    /// Runs a statement to its end; returns how many rows it changed.
    @discardableResult
    func run(_ sql: String, _ arguments: some Collection<ColumnValue> = []) throws(SluiceError) -> Int {
        let statement = try prepared(sql)
        do {
            try statement.bind(arguments)
            while try statement.step() {}
            // Clearing costs a pass over every parameter (a thousand in a multi-row insert).
            if arguments.count == statement.parameterCount { statement.resetKeepingBindings() } else { statement.reset() }
        } catch {
            statement.reset()
            throw error.sluiceError(database: databaseName)
        }
        return Int(connection.changes)
    }

    /// The rows of a query.
    func rows(_ sql: String, _ arguments: [ColumnValue] = []) throws(SluiceError) -> [[ColumnValue]] {
        let statement = try prepared(sql)
        var rows: [[ColumnValue]] = []
        do {
            try statement.bind(arguments)
            while try statement.step() {
                rows.append((0..<statement.columnCount).map { statement.value(at: $0) })
            }
            statement.reset()
        } catch {
            statement.reset()
            throw error.sluiceError(database: databaseName)
        }
        return rows
    }

    /// Runs SQL that takes no arguments and returns nothing (DDL), uncached.
    func execute(_ sql: String) throws(SluiceError) {
        do {
            try connection.execute(sql)
        } catch {
            throw error.sluiceError(database: databaseName)
        }
    }

    private func prepared(_ sql: String) throws(SluiceError) -> Statement {
        if let statement = statements[sql] { return statement }
        // Statements with `IN` lists of varying length would pile up: keep the cache small.
        if statements.count >= 64 { statements.removeAll() }
        do {
            let statement = try connection.prepare(sql)
            statements[sql] = statement
            return statement
        } catch {
            throw error.sluiceError(database: databaseName)
        }
    }
}
