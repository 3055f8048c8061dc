/// The database an import writes, as the engine opens it (`ImportStores.begin`): which store
/// it is comes from the case, never again from the shape of a path. The engine builds it once
/// from either public form, an `Importer.Database` or the command line's `--db` text
/// (`ImportStores.address(of:schema:)`); a layout other than Sluice's adds its file
/// (`LayoutFile`) when the store is opened.
enum StoreAddress: Sendable, Hashable {
    /// An SQLite file, created at the commit when it does not exist.
    case sqlite(path: String)
    /// A PostgreSQL database: a `postgresql://` or `postgres://` URI and the schema of the tables.
    case postgres(uri: String, schema: String)

    /// The path or URI, as errors name the database.
    var text: String {
        switch self {
        case .sqlite(let path): path
        case .postgres(let uri, _): uri
        }
    }

    /// The file outputs must not overwrite; nil for PostgreSQL.
    var filePath: String? {
        switch self {
        case .sqlite(let path): path
        case .postgres: nil
        }
    }
}
