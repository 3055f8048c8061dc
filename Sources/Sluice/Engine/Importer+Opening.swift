/// The two kinds of import an importer opens: through a model (`ModelTarget`), or zero-config
/// into one table (`FreeformTarget`).
extension Importer {
    /// Opens (or prepares to create) the database — an SQLite path, or a PostgreSQL URI
    /// (`docs/postgresql.md`) — and brings its schema up to the model.
    /// - Parameters:
    ///   - databasePath: the SQLite database's path (created at the commit when it does not
    ///     exist), or a `postgresql://` or `postgres://` URI.
    ///   - model: the model the records are imported by.
    ///   - options: how the import runs (`ImportOptions`: batch size, error policy, progress…).
    ///   - modelSHA256: recorded in `sluice_imports`; by default the digest of the model
    ///     file's bytes as loaded by `ModelFile`, or empty.
    public convenience init(databasePath: String, model: Model, options: ImportOptions = ImportOptions(),
                            modelSHA256: String = "") throws(SluiceError)
    {
        guard options.layout == .sluice else {
            throw SluiceError(.usage, "the Core Data layout is made from the Core Data model's file: "
                                + "use Importer(databasePath:modelFile:options:)")
        }
        try self.init(name: ImportStores.address(of: databasePath, schema: options.schema), model: model, options: options, modelSHA256: modelSHA256, coreData: nil)
    }

    /// Opens (or prepares to create) the database for an import through the model of
    /// `modelFile`, recording its digest. With `options.layout` `.coreData` the database is the
    /// SQLite store Core Data keeps for that Core Data model (`docs/coredata-store.md#importing`).
    public convenience init(databasePath: String, modelFile: ModelFile, options: ImportOptions = ImportOptions())
        throws(SluiceError)
    {
        try self.init(name: ImportStores.address(of: databasePath, schema: options.schema), modelFile: modelFile, options: options)
    }

    /// The import through `modelFile`'s model into the database `name` names: Core Data's
    /// store when the name says so.
    convenience init(name: StoreAddress, modelFile: ModelFile, options: ImportOptions) throws(SluiceError) {
        // The one place the library knows the model's files: the rejects file must not be one.
        if let rejectsPath = options.rejectsPath {
            try RejectsFile.check(rejectsPath, database: name.filePath, model: modelFile.path)
        }
        let coreData = options.layout == .coreData
            ? try ModelTarget.Blueprint.coreDataLayout(modelFile, existingTables: name.filePath.flatMap(ImportStores.tableNames(of:)))
            : nil
        try self.init(name: name, model: modelFile.model, options: options, modelSHA256: modelFile.sha256,
                      coreData: coreData)
    }

    convenience init(name: StoreAddress, model: Model, options: ImportOptions, modelSHA256: String,
                     coreData: CoreDataImportLayout?) throws(SluiceError)
    {
        let blueprint = try ModelTarget.Blueprint(model: model, options: options, coreData: coreData,
                                                  values: coreData?.values ?? name.storeValues, databaseFile: name.filePath)
        try self.init(name: name, model: blueprint.model, options: options, modelSHA256: modelSHA256,
                      tables: blueprint.layout.tables, file: coreData?.file) { store, rejects, indexes throws(SluiceError) in
            try ModelTarget.open(blueprint, store: store, options: options, rejects: rejects, indexes: indexes,
                                 databaseName: name.text)
        }
    }

    /// Opens (or prepares to create) the database for a zero-config import into `table`
    /// (`docs/cli.md`): one column per key seen, added as new keys appear, nested values as JSON
    /// text, every record appended as a new row. An existing table is appended to.
    ///
    /// `options.path` may name an envelope holding the records; `options.entity` needs a
    /// model and is a usage error here, as is an empty table name, `sluice_imports`, or (in
    /// SQLite) a name beginning with `sqlite_`, which SQLite keeps for itself.
    public convenience init(databasePath: String, table: String, options: ImportOptions = ImportOptions())
        throws(SluiceError)
    {
        try self.init(name: ImportStores.address(of: databasePath, schema: options.schema), table: table, options: options)
    }

    /// The zero-config import into `table` of the database `name` names.
    convenience init(name: StoreAddress, table: String, options: ImportOptions) throws(SluiceError) {
        if let refusal = ImportStores.refusal(ofTable: table, in: name) { throw refusal }
        try options.validate(withModel: false)
        guard options.layout == .sluice else {
            throw SluiceError(.usage, "the Core Data layout needs a Core Data model: a zero-config import writes Sluice's layout")
        }
        try self.init(name: name, model: nil, options: options, modelSHA256: "",
                      tables: [DatabaseLayout.importsTable], file: nil) { store, rejects, _ throws(SluiceError) in
            FreeformTarget(table: table, store: store, options: options, rejects: rejects, refusal: { ImportStores.refusal(ofTable: $0, in: name) })
        }
    }
}
