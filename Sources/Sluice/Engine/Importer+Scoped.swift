/// An import whose end follows its scope, as GRDB's `dbQueue.write { db in … }` does: the
/// closure returns and the import is committed; it throws and the import is rolled back. No
/// `finish()` to forget, and no importer left to call after the end.
extension Importer {
    /// Opens `destination` (as the initialiser of the same name would), runs `body` with the
    /// importer, then finishes: the report once committed. When `body` throws, the import is
    /// rolled back (the database as it was) and the error is rethrown as it is; the importer's
    /// own failures are `SluiceError`s. (Not typed throws: a closure's thrown type is not
    /// inferred, so `body` would need its own annotation to throw `SluiceError`.)
    public static func withImport(_ destination: Destination, options: ImportOptions = ImportOptions(),
                                  _ body: (Importer) throws -> Void) throws -> ImportReport {
        let importer = try destination.open(options)
        do {
            try body(importer)
        } catch {
            importer.cancel()
            throw error
        }
        return try importer.finish()
    }
}
