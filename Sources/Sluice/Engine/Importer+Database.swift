/// The database of an import named by a value (`docs/library.md#the-database`): what it is
/// (an SQLite file, a PostgreSQL server, Core Data's store) is said where it is named, rather
/// than read from a path that may also be a URI and an option elsewhere.
extension Importer {
    /// The database an import writes. (Nested in `Importer`: a type named `Database` at the top
    /// level would make GRDB's `Database` ambiguous in a file that imports both.)
    public enum Database: Sendable, Hashable {
        /// An SQLite file in Sluice's layout (`docs/database-layout.md`), created at the commit
        /// when it does not exist.
        case sqlite(path: String)
        /// A PostgreSQL database (`docs/postgresql.md`): a `postgresql://` or `postgres://`
        /// connection URI and the schema of the tables.
        case postgreSQL(uri: String, schema: String = "public")
        /// The SQLite store Core Data keeps for a Core Data model (`docs/coredata-store.md`),
        /// which an app opens as its own; written through the model's file
        /// (`Importer(database:modelFile:options:)`).
        case coreDataStore(path: String)

        /// The file the database is in; nil for PostgreSQL.
        public var path: String? {
            switch self {
            case .sqlite(let path), .coreDataStore(let path): path
            case .postgreSQL: nil
            }
        }

        /// The store this value names, once it is checked: refuses what no import can run
        /// with, a PostgreSQL URI that is not one, an empty path, and the command line's
        /// `options.layout` and `options.schema`, which this value says instead.
        func address(checking options: ImportOptions) throws(SluiceError) -> StoreAddress {
            let address: StoreAddress = switch self {
            case .sqlite(let path), .coreDataStore(let path): .sqlite(path: path)
            case .postgreSQL(let uri, let schema): .postgres(uri: uri, schema: schema)
            }
            if let refusal = ImportStores.refusal(of: address) { throw refusal }
            guard options.layout == .sluice else {
                throw SluiceError(.usage, "ImportOptions.layout is for Importer(databasePath:…); with an Importer.Database, "
                    + "Core Data's store is .coreDataStore(path:)")
            }
            guard options.schema == ImportOptions().schema else {
                throw SluiceError(.usage, "ImportOptions.schema is for Importer(databasePath:…); with an Importer.Database, "
                    + "the schema is .postgreSQL(uri:schema:)'s")
            }
            return address
        }
    }

    /// Opens (or prepares to create) `database` and brings its schema up to `model`, as
    /// `init(databasePath:model:options:modelSHA256:)` does. Core Data's store is written from
    /// the Core Data model's file: `init(database:modelFile:options:)`.
    public convenience init(database: Database, model: Model, options: ImportOptions = ImportOptions(),
                            modelSHA256: String = "") throws(SluiceError)
    {
        let address = try database.address(checking: options)
        if case .coreDataStore = database {
            throw SluiceError(.usage, "Importer.Database.coreDataStore is written from the Core Data model's file: "
                + "use Importer(database:modelFile:options:)")
        }
        try self.init(name: address, model: model, options: options, modelSHA256: modelSHA256, coreData: nil)
    }

    /// Opens (or prepares to create) `database` for an import through `modelFile`'s model,
    /// recording its digest; `.coreDataStore` needs a Core Data model (`.xcdatamodeld`,
    /// `.xcdatamodel`, `.momd`).
    public convenience init(database: Database, modelFile: ModelFile, options: ImportOptions = ImportOptions())
        throws(SluiceError)
    {
        let address = try database.address(checking: options)
        var options = options
        // Core Data's store is an SQLite file written in Core Data's layout, as `--layout coredata` asks.
        if case .coreDataStore = database { options.layout = .coreData }
        try self.init(name: address, modelFile: modelFile, options: options)
    }

    /// A zero-config import into `table` of `database` (`init(databasePath:table:options:)`);
    /// Sluice's layout only: `.coreDataStore` is a usage error.
    public convenience init(database: Database, table: String, options: ImportOptions = ImportOptions())
        throws(SluiceError)
    {
        let address = try database.address(checking: options)
        if case .coreDataStore = database {
            throw SluiceError(.usage, "Importer.Database.coreDataStore needs a Core Data model: "
                + "a zero-config import writes Sluice's layout")
        }
        try self.init(name: address, table: table, options: options)
    }
}

extension StoreAddress {
    /// How the store keeps values in Sluice's layout: PostgreSQL keeps dates to the
    /// microsecond. (A Core Data store's are its layout's, `CoreDataImportLayout.values`.)
    var storeValues: StoreValues {
        switch self {
        case .sqlite: .sluice
        case .postgres: .postgreSQL
        }
    }
}
