/// Brings a database up to a list of `TableDefinition`s without losing anything: creates
/// missing tables, adds missing columns (`ALTER TABLE … ADD COLUMN`), creates missing indexes.
///
/// Everything is planned first, reading only; any incompatibility is reported before a
/// single statement is written:
/// * an existing column with another declared type (compared case-insensitively),
/// * a primary key Sluice needs that the existing table lacks (it cannot be added),
/// * existing rows with duplicate identities, which the unique index would refuse,
/// * an index name Sluice needs that another table already uses.
///
/// Table and column names compare as SQLite compares them: ASCII case-insensitively.
/// Run it inside the import's transaction, so the DDL is rolled back with a failed import.
struct SQLiteSchema {
    /// The statements that bring the database up to date, in order. Empty when it is.
    var statements: [String]
    /// With `deferringSecondaryIndexes`: the indexes of the tables it creates, by when each is
    /// made (those made with their table are in `statements` too).
    var newIndexes = SecondaryIndexes.NewTableIndexes()
    /// The tables it creates.
    var createdTables: [String] = []

    /// Plans the migration of `connection`'s database to `tables`. Reads only.
    static func plan(_ connection: Connection, tables: [TableDefinition], deferringSecondaryIndexes: Bool = false)
        throws(SluiceError) -> SQLiteSchema
    {
        var problems: [String] = []
        var migration = SQLiteSchema(statements: [])
        do {
            try migration.makePlan(connection, tables: tables, deferring: deferringSecondaryIndexes, problems: &problems)
        } catch {
            throw error.sluiceError(database: connection.displayName)
        }
        if let refusal = TableDefinition.feedRefusal(among: problems, database: connection.displayName) { throw refusal }
        guard problems.isEmpty else {
            throw SluiceError(.cannotCreate, "database '\(connection.displayName)' does not fit the model: "
                + problems.joined(separator: "; "))
        }
        return migration
    }

    /// Plans, then applies. Returns the statements that ran.
    @discardableResult
    static func migrate(_ connection: Connection, to tables: [TableDefinition]) throws(SluiceError) -> [String] {
        let migration = try plan(connection, tables: tables)
        try migration.apply(to: connection)
        return migration.statements
    }

    func apply(to connection: Connection) throws(SluiceError) {
        for statement in statements {
            do {
                try connection.execute(statement)
            } catch {
                // Planning checked for duplicates; a constraint failing is a race with another writer.
                throw error.sluiceError(database: connection.displayName, migrating: statement)
            }
        }
    }

    // MARK: Planning

    private mutating func makePlan(_ connection: Connection, tables: [TableDefinition], deferring: Bool,
                                   problems: inout [String]) throws(SQLiteError) {

        for table in tables {
            let existing = try Self.existingColumns(of: table.name, connection)
            guard !existing.isEmpty else {
                if let kind = try Self.schemaObjectKind(named: table.name, connection) {
                    problems.append("table \(quoteIdentifier(table.name)) cannot be created: a \(kind) has that name")
                    continue
                }
                statements.append(table.createTableSQL)
                createdTables.append(table.name)
                for (index, sql) in try Self.indexStatements(for: table, tableExists: false, connection, problems: &problems) {
                    if !deferring || newIndexes.add(index, of: table.name, sql: sql) { statements.append(sql) }
                }
                continue
            }
            let byName = Dictionary(existing.map { (ColumnName.fold($0.name), $0) }, uniquingKeysWith: { first, _ in first })
            var columnProblems = !table.migrateColumns(found: { byName[ColumnName.fold($0.name)] }, check: { column, found in
                if ColumnName.fold(found.type) != ColumnName.fold(column.sqlType) {
                    return "has \(found.type.isEmpty ? "no type" : "type \(found.type)"), the model needs \(column.sqlType)"
                }
                if table.primaryKey?.contains(column.name) == true, found.primaryKeyPosition == 0 {
                    return "is not part of the primary key, the model needs it to be"
                }
                return nil
            }, columnSQL: table.columnSQL, statements: &statements, problems: &problems)
            if !columnProblems, let problem = try Self.identityProblem(of: table, connection) {
                problems.append(problem)
                columnProblems = true
            }
            if !columnProblems {
                statements += try Self.indexStatements(for: table, tableExists: true, connection, problems: &problems).map(\.sql)
            }
        }
    }

    /// The identity an existing table was made with — its unique index `<table>_identity` —
    /// when it is not the model's: kept, the old index would refuse records the model tells
    /// apart, or let one record rewrite another's row, with no index for the new identity.
    /// The problem says what differs and the SQL that makes the table fit.
    private static func identityProblem(of table: TableDefinition, _ connection: Connection) throws(SQLiteError) -> String? {
        let name = "\(table.name)_identity"
        let owner = try connection.scalar("SELECT tbl_name FROM sqlite_schema WHERE type = 'index' AND lower(name) = lower(?)",
                                          [.text(name)])?.textValue
        let existing: [String]
        if let owner, ColumnName.fold(owner) == ColumnName.fold(table.name) {
            existing = try connection.rows("SELECT name FROM pragma_index_info(?) ORDER BY seqno", [.text(name)])
                .map { $0[0].textValue ?? "" }
        } else {
            existing = []
        }
        // A table without one gains the model's identity (`indexStatements`, which checks for duplicates).
        guard !existing.isEmpty, existing.map(ColumnName.fold) != table.uniqueIndex.map(ColumnName.fold) else { return nil }
        return table.identityMismatch(existing: existing, index: name)
    }

    private struct ExistingColumn {
        var name: String
        var type: String
        var primaryKeyPosition: Int64
    }

    private static func existingColumns(of table: String, _ connection: Connection) throws(SQLiteError) -> [ExistingColumn] {
        try connection.rows("SELECT name, type, pk FROM pragma_table_info(?)", [.text(table)]).map { row in
            ExistingColumn(name: row[0].textValue ?? "", type: row[1].textValue ?? "", primaryKeyPosition: row[2].integerValue ?? 0)
        }
    }

    /// The kind ("table", "view", "index", "trigger") of the schema object named `name`.
    private static func schemaObjectKind(named name: String, _ connection: Connection) throws(SQLiteError) -> String? {
        try connection.scalar("SELECT type FROM sqlite_schema WHERE lower(name) = lower(?)", [.text(name)])?.textValue
    }

    private static func indexStatements(for table: TableDefinition, tableExists: Bool, _ connection: Connection,
                                        problems: inout [String])
        throws(SQLiteError) -> [(index: TableDefinition.IndexDefinition, sql: String)]
    {
        var statements: [(index: TableDefinition.IndexDefinition, sql: String)] = []
        for index in table.indexDefinitions {
            let owner = try connection.scalar(
                "SELECT tbl_name FROM sqlite_schema WHERE lower(name) = lower(?)", [.text(index.name)])
            if let owner {
                if owner.textValue.map(ColumnName.fold) == ColumnName.fold(table.name) { continue }  // already there
                let ownerName = owner.textValue ?? "?"
                problems.append("index \(quoteIdentifier(index.name)) cannot be created on table "
                    + "\(quoteIdentifier(table.name)): the name is taken by \(quoteIdentifier(ownerName))")
                continue
            }
            if index.unique, tableExists, try hasDuplicates(table.name, index.columns, connection) {
                problems.append("table \(quoteIdentifier(table.name)) has rows with the same identity "
                    + "(\(index.columns.map(quoteIdentifier).joined(separator: ", "))), so its unique index cannot be created")
                continue
            }
            statements.append((index, table.createIndexSQL(index)))
        }
        return statements
    }

    /// Whether two rows share all of `columns`, none NULL (NULLs never collide in a unique index).
    private static func hasDuplicates(_ table: String, _ columns: [String], _ connection: Connection) throws(SQLiteError) -> Bool {
        let list = columns.map(quoteIdentifier).joined(separator: ", ")
        let notNull = columns.map { "\(quoteIdentifier($0)) IS NOT NULL" }.joined(separator: " AND ")
        let sql = "SELECT 1 FROM \(quoteIdentifier(table)) WHERE \(notNull) GROUP BY \(list) HAVING count(*) > 1 LIMIT 1"
        return try connection.scalar(sql) != nil
    }
}

extension ColumnValue {
    var textValue: String? {
        if case .text(let text) = self { return text }
        return nil
    }

    var integerValue: Int64? {
        if case .integer(let number) = self { return number }
        return nil
    }
}
