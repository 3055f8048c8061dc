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
        try scoped(Importer(databasePath: databasePath, model: model, options: options, modelSHA256: modelSHA256), body)
    }

    /// A zero-config import into `table` (`init(databasePath:table:options:)`), as
    /// `withImport(databasePath:model:…)`.
    public static func withImport(databasePath: String, table: String, options: ImportOptions = ImportOptions(),
                                  _ body: (Importer) throws -> Void) throws -> ImportReport {
        try scoped(Importer(databasePath: databasePath, table: table, options: options), body)
    }

    /// Opens `database` (as `init(database:model:options:modelSHA256:)`), runs `body` with the
    /// importer, then finishes, as `withImport(databasePath:model:…)`.
    public static func withImport(database: Database, model: Model, options: ImportOptions = ImportOptions(),
                                  modelSHA256: String = "",
                                  _ body: (Importer) throws -> Void) throws -> ImportReport {
        try scoped(Importer(database: database, model: model, options: options, modelSHA256: modelSHA256), body)
    }

    /// The import through `modelFile`'s model (`init(database:modelFile:options:)`; Core Data's
    /// store with `.coreDataStore`), as `withImport(database:model:…)`.
    public static func withImport(database: Database, modelFile: ModelFile, options: ImportOptions = ImportOptions(),
                                  _ body: (Importer) throws -> Void) throws -> ImportReport {
        try scoped(Importer(database: database, modelFile: modelFile, options: options), body)
    }

    /// A zero-config import into `table` (`init(database:table:options:)`), as
    /// `withImport(database:model:…)`.
    public static func withImport(database: Database, table: String, options: ImportOptions = ImportOptions(),
                                  _ body: (Importer) throws -> Void) throws -> ImportReport {
        try scoped(Importer(database: database, table: table, options: options), body)
    }

    private static func scoped(_ importer: Importer, _ body: (Importer) throws -> Void) throws -> ImportReport {
        do {
            try body(importer)
        } catch {
            importer.cancel()
            throw error
        }
        return try importer.finish()
    }
}
