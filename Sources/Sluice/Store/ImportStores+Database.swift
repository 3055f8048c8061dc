extension ImportStores {
    /// Why `database` names no database an import can open: a PostgreSQL URI that is not one,
    /// an empty path or schema; nil when it can.
    static func refusal(of database: Importer.Database) -> SluiceError? {
        switch database {
        case .sqlite(let path), .coreDataStore(let path):
            guard !path.isEmpty else { return SluiceError(.usage, "Importer.Database: the database's path is empty") }
        case .postgreSQL(let uri, let schema):
            guard PostgresURI.isURI(uri) else {
                return SluiceError(.usage, "Importer.Database.postgreSQL: '\(PostgresURI.displayName(uri))' is not a "
                    + "PostgreSQL URI (postgresql://… or postgres://…)")
            }
            guard !schema.isEmpty else { return SluiceError(.usage, "Importer.Database.postgreSQL: the schema is empty") }
        }
        return nil
    }

    /// Opens the store `database` names: what it is comes from the value, never from the shape
    /// of a path. `file`: the file of a layout other than Sluice's (Core Data's store);
    /// `vacuum`: whether the import will be committed with `VACUUM`.
    static func begin(_ database: Importer.Database, file: LayoutFile?, vacuum: Bool = false) throws(SluiceError) -> any ImportStore {
        switch database {
        case .sqlite(let path), .coreDataStore(let path):
            return try SQLiteStore(path: path, file: file, vacuum: vacuum)
        case .postgreSQL(let uri, let schema):
            return try PostgresStore(uri: uri, schema: schema)
        }
    }
}
