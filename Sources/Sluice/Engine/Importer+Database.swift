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

        /// Refuses what no import can run with: a PostgreSQL URI that is not one, an empty
        /// path, and the command line's `options.layout` and `options.schema`, which this
        /// value says instead.
        func check(_ options: ImportOptions) throws(SluiceError) {
            if let refusal = ImportStores.refusal(of: self) { throw refusal }
            guard options.layout == .sluice else {
                throw SluiceError(.usage, "ImportOptions.layout is for Importer(databasePath:…); with an Importer.Database, "
                    + "Core Data's store is .coreDataStore(path:)")
            }
            guard options.schema == ImportOptions().schema else {
                throw SluiceError(.usage, "ImportOptions.schema is for Importer(databasePath:…); with an Importer.Database, "
                    + "the schema is .postgreSQL(uri:schema:)'s")
            }
        }
    }

    /// Opens (or prepares to create) `database` and brings its schema up to `model`, as
    /// `init(databasePath:model:options:modelSHA256:)` does. Core Data's store is written from
    /// the Core Data model's file: `init(database:modelFile:options:)`.
    public convenience init(database: Database, model: Model, options: ImportOptions = ImportOptions(),
                            modelSHA256: String = "") throws(SluiceError)
    {
        try database.check(options)
        if case .coreDataStore = database {
            throw SluiceError(.usage, "Importer.Database.coreDataStore is written from the Core Data model's file: "
                + "use Importer(database:modelFile:options:)")
        }
        try self.init(name: .value(database), model: model, options: options, modelSHA256: modelSHA256, coreData: nil)
    }

    /// Opens (or prepares to create) `database` for an import through `modelFile`'s model,
    /// recording its digest; `.coreDataStore` needs a Core Data model (`.xcdatamodeld`,
    /// `.xcdatamodel`, `.momd`).
    public convenience init(database: Database, modelFile: ModelFile, options: ImportOptions = ImportOptions())
        throws(SluiceError)
    {
        try database.check(options)
        try self.init(name: .value(database), modelFile: modelFile, options: options)
    }

    /// A zero-config import into `table` of `database` (`init(databasePath:table:options:)`);
    /// Sluice's layout only: `.coreDataStore` is a usage error.
    public convenience init(database: Database, table: String, options: ImportOptions = ImportOptions())
        throws(SluiceError)
    {
        try database.check(options)
        if case .coreDataStore = database {
            throw SluiceError(.usage, "Importer.Database.coreDataStore needs a Core Data model: "
                + "a zero-config import writes Sluice's layout")
        }
        try self.init(name: .value(database), table: table, options: options)
    }
}

/// The database as the importer was given it: an `Importer.Database`, or the command line's
/// `--db` string (a file's path or a PostgreSQL URI, with `options.schema` and
/// `options.layout`), resolved when the database is opened so that its errors come where they
/// always came.
enum DatabaseName: Sendable {
    case commandLine(String)
    case value(Importer.Database)

    /// The path or URI, as errors name the database.
    var text: String {
        switch self {
        case .commandLine(let text): text
        case .value(.sqlite(let path)), .value(.coreDataStore(let path)): path
        case .value(.postgreSQL(let uri, _)): uri
        }
    }

    /// The file outputs must not overwrite; nil for PostgreSQL.
    var filePath: String? {
        switch self {
        case .commandLine(let text): ImportStores.isPostgreSQL(text) ? nil : text
        case .value(let database): database.path
        }
    }

    /// How the store keeps values in Sluice's layout: PostgreSQL keeps dates to the
    /// microsecond. (A Core Data store's are its layout's, `CoreDataImportLayout.values`.)
    var storeValues: StoreValues { filePath == nil ? .postgreSQL : .sluice }

    /// Whether the import writes Core Data's store.
    func isCoreDataStore(_ options: ImportOptions) -> Bool {
        switch self {
        case .commandLine: options.layout == .coreData
        case .value(let database): if case .coreDataStore = database { true } else { false }
        }
    }

    /// Why `table` cannot be a zero-config import's table here (`ImportStores.refusal`).
    func refusal(ofTable table: String) -> SluiceError? {
        ImportStores.refusal(ofTable: table, in: text)
    }

    /// Opens the store and begins the import's transaction.
    func begin(options: ImportOptions, file: LayoutFile?) throws(SluiceError) -> any ImportStore {
        switch self {
        case .commandLine(let text): try ImportStores.begin(text, schema: options.schema, file: file, vacuum: options.vacuum)
        case .value(let database): try ImportStores.begin(database, file: file, vacuum: options.vacuum)
        }
    }
}
