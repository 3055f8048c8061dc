/// Opens the store a `--db` value names: a PostgreSQL connection URI
/// (`postgresql://…`, `postgres://…`), or else the path of an SQLite file.
enum ImportStores {
    /// Whether `database` names a PostgreSQL server rather than an SQLite file.
    static func isPostgreSQL(_ database: String) -> Bool {
        PostgresURI.isURI(database)
    }

    static func begin(_ database: String, schema: String) throws(SluiceError) -> any ImportStore {
        if PostgresURI.isURI(database) {
            return try PostgresStore(uri: database, schema: schema)
        }
        return try SQLiteStore(path: database)
    }
}
