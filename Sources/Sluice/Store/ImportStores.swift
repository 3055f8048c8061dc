/// Opens the store an import writes (`StoreAddress`), and reads what the command line's `--db`
/// text names: a PostgreSQL connection URI (`postgresql://…`, `postgres://…`), or else the path
/// of an SQLite file.
package enum ImportStores {
    /// Whether `database` names a PostgreSQL server rather than an SQLite file.
    package static func isPostgreSQL(_ database: String) -> Bool {
        PostgresURI.isURI(database)
    }

    /// How messages name `database`: a PostgreSQL URI without its password, a path as it is.
    package static func displayName(of database: String) -> String {
        isPostgreSQL(database) || unknownScheme(of: database) != nil ? PostgresURI.displayName(database) : database
    }

    /// Why `table` cannot be the one table of a zero-config import into `database`: empty,
    /// `sluice_imports`, `sluice_renamed_keys`, or (in SQLite) a name beginning with `sqlite_`;
    /// nil when it can.
    static func refusal(ofTable table: String, in database: StoreAddress) -> SluiceError? {
        guard !table.isEmpty else { return SluiceError(.usage, "the table name is empty") }
        guard ColumnName.fold(table) != ColumnName.fold(DatabaseLayout.importsTableName) else {
            return SluiceError(.usage, "table \(quoteIdentifier(table)) is where Sluice logs its imports; choose another table")
        }
        guard ColumnName.fold(table) != DatabaseLayout.renamedKeysTable else {
            return SluiceError(.usage, "table \(quoteIdentifier(table)) is where Sluice records renamed keys; choose another table")
        }
        if case .sqlite = database, ColumnName.fold(table).hasPrefix("sqlite_") {
            return SluiceError(.usage, "table \(quoteIdentifier(table)): SQLite reserves names beginning with sqlite_ for itself; choose another table")
        }
        return nil
    }

    /// The names of the tables in the SQLite file `database`, read before the import opens it,
    /// for a layout that learns from the store what its model does not say (a Core Data
    /// many-to-many's join table); nil for a PostgreSQL URI, a file that does not exist yet or
    /// holds no table, or one SQLite cannot read (the import's own open then says why). Read
    /// without writing the file's `-shm` either (`Connection.Mode.untouched`): the store may yet be
    /// refused.
    static func tableNames(of database: String) -> Set<String>? {
        guard !isPostgreSQL(database), unknownScheme(of: database) == nil,
              let connection = try? Connection(path: database, mode: .untouched),
              let rows = try? connection.rows("SELECT name FROM sqlite_master WHERE type = 'table'") else { return nil }
        let names = Set(rows.compactMap { row -> String? in
            guard case .text(let name)? = row.first else { return nil }
            return name
        })
        return names.isEmpty ? nil : names
    }

    /// Whether `database` is an SQLite file holding Core Data's bookkeeping tables: a store an
    /// app opens, which an import writes only in Core Data's layout (`SQLiteStore.migrate`).
    package static func isCoreDataStore(_ database: String) -> Bool {
        guard let tables = tableNames(of: database) else { return false }
        return isCoreDataStore(tables: tables)
    }

    /// Whether a file of these tables is a Core Data store (SQLite's names ignore ASCII case).
    static func isCoreDataStore(tables: Set<String>) -> Bool {
        let names = Set(tables.map { ColumnName.fold($0) })
        return CoreDataStoreLayout.bookkeepingTables.allSatisfy { names.contains(ColumnName.fold($0)) }
    }

    /// What a Core Data store at `path` keeps of the model that last wrote it (`CoreDataModelCache`):
    /// `Z_MODELCACHE.Z_CONTENT` and `Z_METADATA.Z_PLIST`; nil for a file that is not an SQLite
    /// database (by its first 16 bytes) or has no model cache. Read without writing anything
    /// (`Connection.Mode.untouched`): the store is the one the import may then write.
    static func coreDataModelCache(of path: String) -> (content: [UInt8], metadata: ColumnValue?)? {
        guard !isPostgreSQL(path), unknownScheme(of: path) == nil, SystemCalls.status(ofPath: path)?.isRegularFile == true,
              let source = try? FileSource(path: path, role: "database") else { return nil }
        var reader = ChunkReader(source: source, chunkSize: 16)
        guard (try? reader.next()).flatMap({ $0 }).map({ Array($0) == Array("SQLite format 3\u{0}".utf8) }) == true,
              let connection = try? Connection(path: path, mode: .untouched),
              case .blob(let content)? = try? connection.scalar("SELECT Z_CONTENT FROM Z_MODELCACHE LIMIT 1") else { return nil }
        return (content, try? connection.scalar("SELECT Z_PLIST FROM Z_METADATA ORDER BY Z_VERSION LIMIT 1"))
    }

    /// The store the command line's `--db` text names: a PostgreSQL URI (its tables in
    /// `schema`), or else an SQLite file's path. A URI of another scheme is refused rather than
    /// taken for a path.
    static func address(of database: String, schema: String) throws(SluiceError) -> StoreAddress {
        if let scheme = unknownScheme(of: database) {
            let schemes = ["postgresql", "postgres"]
            let suggestion = NameSuggestion.nearest(to: scheme, among: schemes).map { "; did you mean '\($0)://'?" } ?? ""
            throw SluiceError(.usage, "database '\(PostgresURI.displayName(database))': '\(scheme)://' is not a database "
                + "Sluice writes to (postgresql:// or postgres:// for PostgreSQL; an SQLite database is a file's path)\(suggestion)")
        }
        return PostgresURI.isURI(database) ? .postgres(uri: database, schema: schema) : .sqlite(path: database)
    }

    /// The scheme of a database written as a URI that names no store Sluice writes to
    /// (`postgres1://…`, `sqlite://…`): nil for a file's path or a PostgreSQL URI. Without this,
    /// such a URI would be taken as an SQLite file's path and fail as one.
    static func unknownScheme(of database: String) -> String? {
        guard !PostgresURI.isURI(database), let end = database.firstRange(of: "://")?.lowerBound else { return nil }
        let scheme = database[..<end]
        guard let first = scheme.first, first.isASCII, first.isLetter,
              scheme.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+.-".contains($0)) }) else { return nil }
        return String(scheme)
    }
}
