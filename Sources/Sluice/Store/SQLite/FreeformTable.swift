/// A zero-config table (`docs/cli.md`): `"pk" INTEGER PRIMARY KEY` and columns with no
/// declared type, so SQLite keeps each value's own type (integer, real, text) as it comes.
/// Columns are added as new keys appear; none is ever dropped or retyped.
///
/// Each row is inserted with the columns it has, so a column it lacks gets the column's
/// default (NULL for the columns Sluice adds). The INSERTs are cached by that column list;
/// rows of one shape, the usual case, reuse one statement.
///
/// One thread at a time uses a table, never re-entering it: the statement cache, read per
/// row, has no dynamic exclusivity checks.
final class FreeformTable {
    let name: String
    /// The table's columns in order (`"pk"` among them), as named in the database.
    private(set) var columns: [String]
    /// The most columns a table may have (`Connection.columnLimit`), read once.
    let columnLimit: Int
    private let connection: Connection
    /// INSERTs by the columns they set, in binding order; the last one used is kept apart to
    /// skip the hashing for a run of rows of the same shape.
    @exclusivity(unchecked) private var inserts: [[Int]: Statement] = [:]
    @exclusivity(unchecked) private var lastColumns: [Int]?
    @exclusivity(unchecked) private var lastInsert: Statement?
    /// More distinct shapes than this and the cache starts over (sparse data has many).
    private static let maxCachedInserts = 64

    /// Opens `name` and reads its columns, creating it with only `"pk"` when it does not
    /// exist. A view or index of that name is an error.
    init(opening name: String, in connection: Connection) throws(SluiceError) {
        self.name = name
        self.connection = connection
        columns = try Self.open(name, in: connection)
        columnLimit = connection.columnLimit
    }

    private static func open(_ table: String, in connection: Connection) throws(SluiceError) -> [String] {
        do {
            let columns = try connection.rows("SELECT name FROM pragma_table_info(?)", [.text(table)])
                .map { $0[0].textValue ?? "" }
            let kind = try connection.scalar("SELECT type FROM sqlite_schema WHERE lower(name) = lower(?)",
                                             [.text(table)])?.textValue
            if let kind, kind != "table" {
                throw SluiceError(.cannotCreate, "cannot import into table \(quoteIdentifier(table)) of database "
                    + "'\(connection.displayName)': a \(kind) has that name")
            }
            guard columns.isEmpty else { return columns }
            try connection.execute("CREATE TABLE \(quoteIdentifier(table)) (\"pk\" INTEGER PRIMARY KEY)")
            return ["pk"]
        } catch let error as SQLiteError {
            throw error.sluiceError(database: connection.displayName)
        } catch let error as SluiceError {
            throw error
        } catch {
            preconditionFailure("unexpected error \(error)")  // the do block throws only these two
        }
    }

    /// Adds a column with no declared type (`ALTER TABLE … ADD COLUMN`); returns its number.
    func addColumn(_ column: String) throws(SluiceError) -> Int {
        do {
            try connection.execute("ALTER TABLE \(quoteIdentifier(name)) ADD COLUMN \(quoteIdentifier(column))")
        } catch {
            throw error.sluiceError(database: connection.displayName)
        }
        columns.append(column)
        return columns.count - 1
    }

    /// Inserts a row setting the columns numbered in `set`, in that order, to their values in
    /// `values` (indexed by column number; nil: NULL).
    func insert(_ values: [ColumnValue?], setting set: [Int]) throws(SluiceError) {
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
        if let lastInsert, lastColumns == set { return lastInsert }
        let statement: Statement
        if let cached = inserts[set] {
            statement = cached
        } else {
            do {
                statement = try connection.prepare(Self.insertSQL(into: name, columns: set.map { columns[$0] }))
            } catch {
                throw error.sluiceError(database: connection.displayName)
            }
            if inserts.count >= Self.maxCachedInserts { inserts.removeAll() }
            inserts[set] = statement
        }
        lastColumns = set
        lastInsert = statement
        return statement
    }

    /// The INSERT of one row holding `columns` (all others get their default, NULL).
    private static func insertSQL(into table: String, columns: [String]) -> String {
        guard !columns.isEmpty else { return "INSERT INTO \(quoteIdentifier(table)) DEFAULT VALUES" }
        return "INSERT INTO \(quoteIdentifier(table)) (\(columns.map(quoteIdentifier).joined(separator: ", "))) "
            + "VALUES (\(SQLParameters.placeholders(columns.count)))"
    }
}
