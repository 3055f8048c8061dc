/// What a layout other than Sluice's asks of the SQLite file it is written in, beyond its
/// tables (`TableDefinition`): Core Data's store (`CoreDataImportLayout`). Plain statements and
/// values, so that the store runs them without knowing whose layout it is.
struct LayoutFile: Sendable {
    /// What the layout is called in messages: "a Core Data store".
    var description: String
    /// Pragmas fixing a new file's format, before anything is written (`ImportDatabase`).
    var fileFormat: [String]
    /// A table every file of the layout has: a database with tables but not this one is
    /// another kind of database, refused.
    var markerTable: String
    /// The statements, with their values, that make an empty file a store of the layout.
    var creation: [(sql: String, values: [ColumnValue])]
    /// The indexes of a store the import creates, built once its rows are in, as Sluice's
    /// layout defers its own (`SecondaryIndexes`): a B-tree built from sorted keys once, not
    /// kept up row by row while the rows go in and the second pass sets the links.
    var deferredIndexes: [SecondaryIndexes.Deferred]
    /// The unique identity indexes `creation` makes with the tables, which the engine may
    /// defer too (`SecondaryIndexes.identities`).
    var identityIndexes: [SecondaryIndexes.Deferred] = []
    /// Read from an existing store, its rows handed to `verify`: a store written for another
    /// model is refused before anything is written.
    var verifyQuery: String
    var verify: @Sendable (_ rows: [[ColumnValue]], _ database: String) -> SluiceError?
    /// Rows of (table, largest key issued): keys issued before, beyond the rows (`TableKeys.issuedKeys`).
    var issuedKeysQuery: String
    /// The tables whose largest key before the import `setup` is given.
    var keyedTables: [String]
    /// Run as the import begins, given each of `keyedTables`' largest key before it (nil for
    /// a new store): what the layout records while the engine writes (Core Data's `Z_OPT`,
    /// `CoreDataVersioning`).
    var setup: @Sendable (_ lastKeys: [String: Int64]?) -> [String]
    /// Run before the commit, in order: bookkeeping the layout keeps up to date.
    var finishing: [String]
    /// The journal mode the file is left in.
    var journalMode: String
    /// Where the layout keeps what Sluice's keeps in `sluice_imports`.
    var importLog: ImportLogPlace

    /// A place of the layout's own for the import log (Core Data's: a key of the store's
    /// metadata), read with `query` and rewritten whole.
    struct ImportLogPlace: Sendable {
        var query: String
        /// The last import, as the rows of `query` record it.
        var last: @Sendable (_ rows: [[ColumnValue]]) -> LoggedImport?
        /// The statement that records `record` (the rows of `query` as they were).
        var record: @Sendable (_ rows: [[ColumnValue]], _ record: ImportRecord) -> (sql: String, values: [ColumnValue])?
    }
}
