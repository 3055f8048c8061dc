/// An import whose end follows its scope, as GRDB's `dbQueue.write { db in … }` does: the
/// closure returns and the import is committed; it throws and the import is rolled back. No
/// `finish()` to forget, and no importer left to call after the end.
extension Importer {
    /// Opens the database (as `init(databasePath:model:options:modelSHA256:)`), runs `body`
    /// with the importer, then finishes: the report once committed. When `body` throws, the
    /// import is rolled back (the database as it was) and the error is rethrown as it is; the
    /// importer's own failures are `SluiceError`s. (Not typed throws: a closure's thrown type is
    /// not inferred, so `body` would need its own annotation to throw `SluiceError`.)
    public static func withImport(databasePath: String, model: Model, options: ImportOptions = ImportOptions(),
                                  modelSHA256: String = "",
                                  _ body: (Importer) throws -> Void) throws -> ImportReport {
        try scoped(.pathModel(databasePath, model, modelSHA256: modelSHA256), options, body)
    }

    /// A zero-config import into `table` (`init(databasePath:table:options:)`), as
    /// `withImport(databasePath:model:…)`.
    public static func withImport(databasePath: String, table: String, options: ImportOptions = ImportOptions(),
                                  _ body: (Importer) throws -> Void) throws -> ImportReport {
        try scoped(.pathTable(databasePath, table: table), options, body)
    }

    /// Opens `database` (as `init(database:model:options:modelSHA256:)`), runs `body` with the
    /// importer, then finishes, as `withImport(databasePath:model:…)`.
    public static func withImport(database: Database, model: Model, options: ImportOptions = ImportOptions(),
                                  modelSHA256: String = "",
                                  _ body: (Importer) throws -> Void) throws -> ImportReport {
        try scoped(.databaseModel(database, model, modelSHA256: modelSHA256), options, body)
    }

    /// The import through `modelFile`'s model (`init(database:modelFile:options:)`; Core Data's
    /// store with `.coreDataStore`), as `withImport(database:model:…)`.
    public static func withImport(database: Database, modelFile: ModelFile, options: ImportOptions = ImportOptions(),
                                  _ body: (Importer) throws -> Void) throws -> ImportReport {
        try scoped(.databaseModelFile(database, modelFile), options, body)
    }

    /// A zero-config import into `table` (`init(database:table:options:)`), as
    /// `withImport(database:model:…)`.
    public static func withImport(database: Database, table: String, options: ImportOptions = ImportOptions(),
                                  _ body: (Importer) throws -> Void) throws -> ImportReport {
        try scoped(.databaseTable(database, table: table), options, body)
    }

    /// The import `opening` opens, given to `body`, then finished; rolled back when `body` throws.
    private static func scoped(_ opening: ImporterOpening, _ options: ImportOptions,
                               _ body: (Importer) throws -> Void) throws -> ImportReport {
        let importer = try opening.open(options)
        do {
            try body(importer)
        } catch {
            importer.cancel()
            throw error
        }
        return try importer.finish()
    }
}
