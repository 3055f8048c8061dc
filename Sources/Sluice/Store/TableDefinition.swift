/// A table as Sluice wants it: a pure description, and the DDL that creates it.
/// `SQLiteSchema` compares it with what a database holds.
public struct TableDefinition: Sendable, Equatable {
    /// A column of the table: its name, declared type, and what it refers to.
    public struct ColumnDefinition: Sendable, Equatable {
        /// The column's name, unquoted.
        public var name: String
        /// The declared type: `INTEGER`, `REAL`, `TEXT` or `BLOB`.
        public var sqlType: String
        /// The table whose `"pk"` this column refers to.
        public var references: String?
        /// The attribute type the column holds, for stores whose types say more than SQLite's
        /// four (PostgreSQL: numeric, timestamptz, uuid…); nil for keys and plain integers.
        public var attributeType: AttributeType?
        /// A column the store fills itself, never from a record's values (Core Data's `Z_ENT`
        /// of a table of one entity, `Z_OPT`); nil for the columns records fill.
        public var fill: Fill?

        /// A column named `name` of `sqlType`, a reference to the `"pk"` of the table `references` when given.
        public init(name: String, sqlType: String, references: String? = nil, attributeType: AttributeType? = nil,
                    fill: Fill? = nil) {
            self.name = name
            self.sqlType = sqlType
            self.references = references
            self.attributeType = attributeType
            self.fill = fill
        }
    }

    /// What the store writes into a column it fills itself.
    public enum Fill: Sendable, Equatable {
        /// This number in every row.
        case constant(Int64)
        /// A row's version (Core Data's optimistic locking, `Z_OPT`): 1 in a new row; raised
        /// by the layout once per import that changes the row (`CoreDataVersioning`).
        case version
    }


    /// The table's name, unquoted.
    public var name: String
    /// Its columns, in order.
    public var columns: [ColumnDefinition]
    /// The identity columns, covered by the unique index `"<table>_identity"`; empty for none.
    public var uniqueIndex: [String]
    /// Plain indexes, one column list each, named `"<table>_<col>_<col>"`.
    public var indexes: [[String]]
    /// Whether the plain indexes leave out the rows whose column is NULL (`WHERE "<col>" IS
    /// NOT NULL`): an entity table's, each over a to-one's column, which a row that links
    /// nothing leaves NULL. Every lookup by such a column (`= ?`, `IN`, a join) implies NOT
    /// NULL, so SQLite and PostgreSQL use the smaller index; building one over 3 million NULLs
    /// (the GTFS-Flex columns of a feed's stop times) took 0.8 s, and 0.2 s this way.
    public var plainIndexesSkipNull: Bool
    /// The primary key. One column is declared inline (`"pk" INTEGER PRIMARY KEY`, an alias
    /// of the rowid); several become a table constraint (join tables).
    public var primaryKey: [String]?
    /// `WITHOUT ROWID`: for join tables, whose composite key is then the only b-tree.
    public var withoutRowID: Bool
    /// How a family's table names each row's entity; nil: as Sluice does, when it has the column.
    public var entityColumn: Model.EntityColumn?

    /// A table named `name` with these columns, indexes and key.
    public init(name: String, columns: [ColumnDefinition], uniqueIndex: [String] = [],
                indexes: [[String]] = [], plainIndexesSkipNull: Bool = false, primaryKey: [String]? = nil,
                withoutRowID: Bool = false, entityColumn: Model.EntityColumn? = nil) {
        self.entityColumn = entityColumn
        self.plainIndexesSkipNull = plainIndexesSkipNull
        self.name = name
        self.columns = columns
        self.uniqueIndex = uniqueIndex
        self.indexes = indexes
        self.primaryKey = primaryKey
        self.withoutRowID = withoutRowID
    }

    /// An index of the table, with the name Sluice gives it.
    public struct IndexDefinition: Sendable, Equatable {
        /// The index's name, unquoted.
        public var name: String
        /// The columns it covers, in order.
        public var columns: [String]
        /// Whether it is a `UNIQUE` index.
        public var unique: Bool
        /// Whether it leaves out the rows whose (single) column is NULL: a partial index
        /// `WHERE "<col>" IS NOT NULL`.
        public var skipsNull = false

        /// Whether a new table's index may be made with the table and kept while the import
        /// leaves its one column NULL (`SecondaryIndexes.early`): a plain index that skips NULLs.
        var isEmptyUntilItsColumnIsFilled: Bool { !unique && skipsNull && columns.count == 1 }

        /// `" WHERE "<col>" IS NOT NULL"` for an index that skips NULLs, else empty: the end
        /// of its `CREATE INDEX` in SQLite and PostgreSQL alike.
        public var whereClause: String {
            skipsNull ? " WHERE " + columns.map { "\(quoteIdentifier($0)) IS NOT NULL" }.joined(separator: " AND ") : ""
        }
    }

    /// The name of the identity index of table `name`.
    static func identityIndexName(ofTable name: String) -> String { "\(name)_identity" }

    /// The unique identity index first, then the plain indexes in order.
    public var indexDefinitions: [IndexDefinition] {
        var result: [IndexDefinition] = []
        if !uniqueIndex.isEmpty {
            result.append(IndexDefinition(name: Self.identityIndexName(ofTable: name), columns: uniqueIndex, unique: true))
        }
        for columns in indexes {
            result.append(IndexDefinition(name: "\(name)_\(columns.joined(separator: "_"))", columns: columns, unique: false,
                                          skipsNull: plainIndexesSkipNull))
        }
        return result
    }

    /// The single-column primary key that numbers the rows (an entity table's); nil for a
    /// join table's composite key.
    public var keyColumn: String? {
        guard let primaryKey, primaryKey.count == 1 else { return nil }
        return primaryKey[0]
    }

    /// Whether `column` is the single-column primary key.
    func isInlinePrimaryKey(_ column: String) -> Bool {
        primaryKey == [column]
    }

    /// The column's text inside CREATE TABLE or ALTER TABLE … ADD COLUMN.
    public func columnSQL(_ column: ColumnDefinition) -> String {
        var text = "\(quoteIdentifier(column.name)) \(column.sqlType)"
        if isInlinePrimaryKey(column.name) { text += " PRIMARY KEY" }
        if let target = column.references { text += " REFERENCES \(quoteIdentifier(target))(\(quoteIdentifier(DatabaseLayout.keyColumn)))" }
        return text
    }

    /// `CREATE TABLE IF NOT EXISTS`, one column a line.
    public var createTableSQL: String {
        var lines = columns.map { "  " + columnSQL($0) }
        if let primaryKey, primaryKey.count > 1 {
            lines.append("  PRIMARY KEY(\(primaryKey.map(quoteIdentifier).joined(separator: ", ")))")
        }
        return "CREATE TABLE IF NOT EXISTS \(quoteIdentifier(name)) (\n"
            + lines.joined(separator: ",\n")
            + "\n)" + (withoutRowID ? " WITHOUT ROWID" : "") + ";"
    }

    /// The `CREATE [UNIQUE] INDEX IF NOT EXISTS` statement of `index` on this table.
    public func createIndexSQL(_ index: IndexDefinition) -> String {
        "CREATE \(index.unique ? "UNIQUE " : "")INDEX IF NOT EXISTS \(quoteIdentifier(index.name)) ON "
            + "\(quoteIdentifier(name))(\(index.columns.map(quoteIdentifier).joined(separator: ", ")))\(index.whereClause);"
    }

    /// The table and its indexes, each statement ending in `;`, one statement a line (the
    /// table's columns on lines of their own).
    public var ddl: String {
        ([createTableSQL] + indexDefinitions.map(createIndexSQL)).joined(separator: "\n")
    }
}

/// An SQL identifier in double quotes, any `"` inside doubled: `a"b` → `"a""b"`.
func quoteIdentifier(_ name: String) -> String {
    "\"" + name.replacing("\"", with: "\"\"") + "\""
}

/// An SQL text literal in single quotes, any `'` inside doubled: `it's` → `'it''s'`.
func quoteText(_ text: String) -> String {
    "'" + text.replacing("'", with: "''") + "'"
}

extension TableDefinition {
    /// Why an existing table whose unique index `index` covers `existing` does not fit this
    /// table's identity, with the SQL that makes it fit: one line for the error both stores give.
    func identityMismatch(existing: [String], index: String) -> String {
        if let feed = feedMismatch(existing: existing) { return feed }
        func list(_ columns: [String]) -> String { "(" + columns.map(quoteIdentifier).joined(separator: ", ") + ")" }
        let differs = uniqueIndex.isEmpty
            ? "has the identity \(list(existing)), the model has none"
            : "has the identity \(list(existing)), the model's is \(list(uniqueIndex))"
        var migration = ["DROP INDEX \(quoteIdentifier(index));"]
        if !uniqueIndex.isEmpty {
            migration.append("CREATE UNIQUE INDEX \(quoteIdentifier(index)) ON \(quoteIdentifier(name)) \(list(uniqueIndex));")
        }
        return "table \(quoteIdentifier(name)) \(differs) (its unique index \(quoteIdentifier(index))); "
            + "import into a new database, or make the table fit the model first: \(migration.joined(separator: " "))"
    }

    /// An existing identity that differs from this one by `Model.feedColumn` alone: the table
    /// was written with `--feed` and this import is without, or the reverse. A database holds
    /// one feed or named feeds, never both (`docs/import-semantics.md#feeds`).
    private func feedMismatch(existing: [String]) -> String? {
        let feed = Model.feedColumn
        if existing.first == feed, Array(existing.dropFirst()) == uniqueIndex {
            return Self.feedMismatchStart + "holds named feeds (table \(quoteIdentifier(name)) has the column \(feed)): "
                + "import with --feed NAME"
        }
        if uniqueIndex.first == feed, Array(uniqueIndex.dropFirst()) == existing {
            return Self.feedMismatchStart + "was imported without --feed (table \(quoteIdentifier(name)) has no column \(feed)): "
                + "import without --feed, or import each feed with --feed into a new database"
        }
        return nil
    }

    private static let feedMismatchStart = "was written "

    /// The refusal of a migration whose `problems` include a feed mismatch: that one alone, a
    /// usage error (the option, not the database, is what to change).
    static func feedRefusal(among problems: [String], database: String) -> SluiceError? {
        problems.first { $0.hasPrefix(feedMismatchStart) }.map { problem in
            SluiceError(.usage, "database '\(database)' " + problem.dropFirst(feedMismatchStart.count))
        }
    }
}
