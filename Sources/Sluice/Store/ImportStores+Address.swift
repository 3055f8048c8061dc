extension ImportStores {
    /// Why `address`, made from an `Importer.Database`, names no database an import can open: a
    /// PostgreSQL URI that is not one, an empty path or schema; nil when it can.
    static func refusal(of address: StoreAddress) -> SluiceError? {
        switch address {
        case .sqlite(let path):
            guard !path.isEmpty else { return SluiceError(.usage, "Importer.Database: the database's path is empty") }
        case .postgres(let uri, let schema):
            guard PostgresURI.isURI(uri) else {
                return SluiceError(.usage, "Importer.Database.postgreSQL: '\(PostgresURI.displayName(uri))' is not a "
                    + "PostgreSQL URI (postgresql://… or postgres://…)")
            }
            guard !schema.isEmpty else { return SluiceError(.usage, "Importer.Database.postgreSQL: the schema is empty") }
        }
        return nil
    }

    /// Opens the store `address` names and begins the import's transaction. `file`: the file of
    /// a layout other than Sluice's (an SQLite file only); `vacuum`: whether the import will be
    /// committed with `VACUUM` (`ImportDatabase`).
    static func begin(_ address: StoreAddress, file: LayoutFile? = nil, vacuum: Bool = false) throws(SluiceError) -> any ImportStore {
        switch address {
        case .sqlite(let path):
            return try SQLiteStore(path: path, file: file, vacuum: vacuum)
        case .postgres(let uri, let schema):
            if let file {
                throw SluiceError(.usage, "database '\(PostgresURI.displayName(uri))': \(file.description) is an SQLite file; "
                                    + "give its path with --db")
            }
            return try PostgresStore(uri: uri, schema: schema)
        }
    }
}
