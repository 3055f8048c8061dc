internal import CSQLite

/// A zero-config table (`docs/cli.md`): `"pk" INTEGER PRIMARY KEY` and columns with no
/// declared type, so SQLite keeps each value's own type (integer, real, text) as it comes.
/// Columns are added as new keys appear, several in one schema change (`addColumns`); none is
/// ever dropped or retyped. A table that does not exist yet is made with its first columns
/// (`CREATE TABLE` with them, at the first `addColumns`, row or `flush`): an `ADD COLUMN`
/// parses the whole schema again, so a table made bare and then given its columns cost time
/// in proportion to the tables already there, and a zip of 5,000 small CSV entries, each its
/// own table, took minutes.
///
/// Each row is inserted with the columns it has, so a column it lacks gets the column's
/// default (NULL for the columns Sluice adds). The INSERTs are cached by that column list;
/// rows of one shape, the usual case, reuse one statement.
///
/// A class, not a value the writing thread holds: it is reached per record through the
/// `FreeformWriter` the parser's callbacks call (a class), so a value would sit in that
/// class's storage and be checked there instead. One thread at a time uses a table, never
/// re-entering it: its statement cache, one value read per row, has no dynamic exclusivity
/// checks (they cost 0.28% of a zero-config import's instructions, callgrind at scale 0.1).
final class SQLiteFreeformTable {
    let name: String
    /// The table's columns in order (`"pk"` among them), as named in the database.
    private(set) var columns: [String]
    /// The most columns a table may have (`Connection.columnLimit`), read once.
    let columnLimit: Int
    /// The keys earlier imports put in a column of another name (`FreeformColumns`).
    let renamedKeys: [String: String]
    private let connection: Connection
    /// The table does not exist yet (`createIfWaiting`).
    private var waitsForCreation: Bool
    @exclusivity(unchecked) private var inserts = InsertCache()
    /// More distinct shapes than this and the cache starts over (sparse data has many). A
    /// prepared INSERT builds a whole row, so its program and registers grow with the table's
    /// columns, not with the row's (about 90 bytes a column): a wide table keeps fewer, so the
    /// cache stays near a megabyte and a half (64 of 2,000 columns were 11 MB).
    static func maxCachedInserts(columns: Int) -> Int {
        max(2, min(64, 16_384 / max(columns, 1)))
    }

    /// Opens `name` and reads its columns, creating it with only `"pk"` when it does not
    /// exist. A view or index of that name is an error.
    init(opening name: String, in connection: Connection) throws(SluiceError) {
        self.name = name
        self.connection = connection
        let existing = try Self.open(name, in: connection)
        columns = existing ?? ["pk"]
        waitsForCreation = existing == nil
        columnLimit = connection.columnLimit
        renamedKeys = try Self.renamedKeys(of: name, in: connection)
    }

    /// The columns of `table`; nil when it does not exist (nor anything else of its name).
    private static func open(_ table: String, in connection: Connection) throws(SluiceError) -> [String]? {
        try SQLiteError.converting(database: connection.displayName) {
            let columns = try connection.rows("SELECT name FROM pragma_table_info(?)", [.text(table)])
                .map { $0[0].textValue ?? "" }
            let kind = try connection.scalar("SELECT type FROM sqlite_schema WHERE lower(name) = lower(?)",
                                             [.text(table)])?.textValue
            if let kind, kind != "table" {
                throw SluiceError(.cannotCreate, "cannot import into table \(quoteIdentifier(table)) of database "
                    + "'\(connection.displayName)': a \(kind) has that name")
            }
            return columns.isEmpty ? nil : columns
        }
    }

    /// Makes the table, with `pk` and `columns` after it, when it does not exist yet.
    func createIfWaiting(with columns: [String] = []) throws(SluiceError) {
        guard waitsForCreation else { return }
        do {
            try connection.execute(Self.createSQL(name, columns: ["pk"] + columns))
        } catch {
            throw error.sluiceError(database: connection.displayName)
        }
        waitsForCreation = false
        self.columns += columns
    }

    /// Adds columns with no declared type, after the others.
    ///
    /// `ALTER TABLE … ADD COLUMN` parses the whole schema again each time, so adding k columns
    /// one by one costs O(k²) (1,999 columns with names of 1 KB: minutes). A table as Sluice
    /// makes it, whose `CREATE TABLE` text is exactly what `CREATE TABLE` and `ADD COLUMN` leave
    /// (`("pk" INTEGER PRIMARY KEY, "a", "b")`), gets the rest in one schema change instead, the
    /// way SQLite documents for changes that leave the stored rows as they are
    /// (https://sqlite.org/lang_altertable.html, "making other kinds of table schema changes"):
    /// its text rewritten under `PRAGMA writable_schema`, the schema version bumped. The rows need
    /// nothing: a row stored before a column was added at the end reads NULL there, which is all
    /// `ADD COLUMN` does too. The first column still goes through `ADD COLUMN`, which checks the
    /// name and brings the file format up to one that allows short rows. Any other table (made
    /// by someone else) gets one `ADD COLUMN` per column.
    func addColumns(_ names: [String]) throws(SluiceError) {
        guard let first = names.first else { return }
        if waitsForCreation {
            try createIfWaiting(with: names)
            inserts = InsertCache()
            return
        }
        do {
            try connection.execute("ALTER TABLE \(quoteIdentifier(name)) ADD COLUMN \(quoteIdentifier(first))")
            columns.append(first)
            let rest = names.dropFirst()
            if !rest.isEmpty, try !addInOneChange(Array(rest)) {
                for column in rest {
                    try connection.execute("ALTER TABLE \(quoteIdentifier(name)) ADD COLUMN \(quoteIdentifier(column))")
                    columns.append(column)
                }
            }
        } catch {
            throw error.sluiceError(database: connection.displayName)
        }
        inserts = InsertCache()
    }

    /// Rewrites the table's `CREATE TABLE` text with `names` added, when it is exactly the text
    /// Sluice's own table has; false, changing nothing, when it is not.
    private func addInOneChange(_ names: [String]) throws(SQLiteError) -> Bool {
        let stored = try connection.rows("SELECT name, sql FROM sqlite_schema WHERE type = 'table' AND lower(name) = lower(?)",
                                         [.text(name)])
        guard stored.count == 1, let storedName = stored[0][0].textValue, let sql = stored[0][1].textValue,
              sql == Self.createSQL(storedName, columns: columns),
              case .integer(let version)? = try connection.scalar("PRAGMA schema_version")
        else { return false }
        // A host may have made the connection defensive, which refuses writable_schema: lifted
        // for these statements only.
        let wasDefensive = sluice_sqlite_set_defensive(connection.handle, 0)
        defer { _ = sluice_sqlite_set_defensive(connection.handle, wasDefensive) }
        try connection.execute("PRAGMA writable_schema = ON")
        do {
            _ = try connection.rows("UPDATE sqlite_schema SET sql = ? WHERE type = 'table' AND name = ?",
                                    [.text(Self.createSQL(storedName, columns: columns + names)), .text(storedName)])
            try connection.execute("PRAGMA schema_version = \(version + 1)")
        } catch {
            try? connection.execute("PRAGMA writable_schema = OFF")
            throw error
        }
        try connection.execute("PRAGMA writable_schema = OFF")
        columns += names
        return true
    }

    /// The text SQLite keeps for a table Sluice created with `"pk"` and added `columns` to.
    private static func createSQL(_ table: String, columns: [String]) -> String {
        guard columns.first == "pk" else { return "" }
        return "CREATE TABLE \(quoteIdentifier(table)) (\"pk\" INTEGER PRIMARY KEY"
            + columns.dropFirst().map { ", " + quoteIdentifier($0) }.joined() + ")"
    }

    // MARK: Renamed keys

    /// The renames recorded for `table` (named there ASCII-lowercased, as SQLite matches table
    /// names); none when no import renamed a key in this database.
    private static func renamedKeys(of table: String, in connection: Connection) throws(SluiceError) -> [String: String] {
        let recorded = quoteIdentifier(DatabaseLayout.renamedKeysTable)
        do {
            guard try connection.scalar("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?",
                                        [.text(DatabaseLayout.renamedKeysTable)]) != nil else { return [:] }
            var renamed: [String: String] = [:]
            for row in try connection.rows("SELECT \"key\", \"column\" FROM \(recorded) WHERE \"table\" = ?",
                                           [.text(ColumnName.fold(table))]) {
                if let key = row[0].textValue, let column = row[1].textValue { renamed[key] = column }
            }
            return renamed
        } catch {
            throw error.sluiceError(database: connection.displayName)
        }
    }

    func recordRenamedKeys(_ renames: [(key: String, column: String)]) throws(SluiceError) {
        let recorded = quoteIdentifier(DatabaseLayout.renamedKeysTable)
        do {
            try connection.execute("""
                CREATE TABLE IF NOT EXISTS \(recorded) (
                  "table" TEXT NOT NULL, "key" TEXT NOT NULL, "column" TEXT NOT NULL, PRIMARY KEY ("table", "key"))
                """)
            for rename in renames {
                _ = try connection.rows("INSERT OR REPLACE INTO \(recorded) VALUES (?, ?, ?)",
                                        [.text(ColumnName.fold(name)), .text(rename.key), .text(rename.column)])
            }
        } catch {
            throw error.sluiceError(database: connection.displayName)
        }
    }

    /// Inserts a row setting the columns numbered in `set`, in that order, to their values in
    /// `values` (indexed by column number; nil: NULL).
    func insert(_ values: [ColumnValue?], setting set: [Int]) throws(SluiceError) {
        try createIfWaiting()
        let insert = try insertStatement(setting: set)
        do {
            var index: Int32 = 1
            for column in set {
                try insert.bind(values[column] ?? .null, at: index)
                index += 1
            }
            _ = try insert.step()
            insert.reset()
        } catch {
            insert.reset()
            throw error.sluiceError(database: connection.displayName)
        }
    }

    private func insertStatement(setting set: [Int]) throws(SluiceError) -> Statement {
        if let last = inserts.last, last.columns == set { return last.statement }
        let statement: Statement
        if let cached = inserts.statements[set] {
            statement = cached
        } else {
            do {
                statement = try connection.prepare(Self.insertSQL(into: name, columns: set.map { columns[$0] }))
            } catch {
                throw error.sluiceError(database: connection.displayName)
            }
            if inserts.statements.count >= Self.maxCachedInserts(columns: columns.count) { inserts.statements.removeAll() }
            inserts.statements[set] = statement
        }
        inserts.last = (set, statement)
        return statement
    }

    /// INSERTs by the columns they set, in binding order; the last one used is kept apart to
    /// skip the hashing for a run of rows of the same shape.
    private struct InsertCache {
        var statements: [[Int]: Statement] = [:]
        var last: (columns: [Int], statement: Statement)?
    }

    /// The INSERT of one row holding `columns` (all others get their default, NULL).
    private static func insertSQL(into table: String, columns: [String]) -> String {
        guard !columns.isEmpty else { return "INSERT INTO \(quoteIdentifier(table)) DEFAULT VALUES" }
        return "INSERT INTO \(quoteIdentifier(table)) (\(columns.map(quoteIdentifier).joined(separator: ", "))) "
            + "VALUES (\(SQLParameters.placeholders(columns.count)))"
    }
}
