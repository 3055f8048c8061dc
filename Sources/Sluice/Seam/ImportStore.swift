/// The seam between the engine and the database it writes (`docs/architecture.md`, stores):
/// everything an import asks of a database, inside the one transaction that opening the store
/// began. `SQLiteStore` (`Store/SQLite/`) and `PostgresStore` (`Store/PostgreSQL/`) implement
/// it; the engine above does not know which one it drives.
///
/// The engine calls across it once per import (schema, log, commit), once per batch and entity
/// (find, insert, update: `EntityRowStore`), or once per link statement — never per value — so
/// an existential costs nothing measurable here, and each store's per-row loops stay
/// statically dispatched inside its own types.
protocol ImportStore: AnyObject {
    /// How messages name the database: the path the user gave, or a URI without its password.
    var displayName: String { get }
    /// The thread that may use the store now, handed over with the batches (`BatchWriter`).
    var owner: ThreadOwner { get set }
    /// The links of a batch, and the ids they name looked up (`LinkStore`).
    var links: any LinkStore { get }
    /// `--feed`: the feed the import's lookups by id and deletions stay within (`TableKeys.feed`);
    /// set before `migrate(to:)`.
    var feed: String? { get set }
    /// Makes long statements stop once `shouldStop` returns true (nil: never).
    func setInterruptCheck(_ shouldStop: (() -> Bool)?)
    /// Brings the schema up to `tables` (`docs/database-layout.md`, existing databases); returns
    /// the plain indexes of the tables it created, to be built after the load.
    func migrate(to tables: [TableDefinition]) throws(SluiceError) -> SecondaryIndexes
    /// Finds, inserts and updates the rows of `table`, whose `columns` (the pk aside) a batch's
    /// rows hold in order; `identity` indexes into `columns`, empty for append-only. `entity`
    /// names the rows in messages.
    func entityRows(entity: String, table: String, columns: [String], defaults: [ColumnValue?], identity: [Int])
        throws(SluiceError) -> any EntityRowStore
    /// Where forward references wait for the second pass.
    func pendingLinks() -> any PendingLinkStore
    /// The one table of a zero-config import, created when missing (`docs/cli.md`).
    func freeformTable(named name: String) throws(SluiceError) -> any FreeformTableStore
    /// What `--delete-missing` remembers of the rows of `entities` an import mentions.
    func touchedRows(entities: Set<Int>) throws(SluiceError) -> any TouchedRowStore
    /// In a database that existed before the import, drops the tables `migrate(to:)` created
    /// that are still empty: an import leaves no table it wrote nothing into
    /// (`docs/database-layout.md`, existing databases). Called once the writers are released.
    func dropCreatedTablesLeftEmpty() throws(SluiceError)
    /// Writes the `sluice_imports` row, inside the import's transaction.
    func log(_ record: ImportRecord) throws(SluiceError)
    /// The last committed import as the log recorded it (`--skip-unchanged`); nil when there
    /// was none.
    func lastImport() throws(SluiceError) -> LoggedImport?
    /// `--analyze`: refreshes the query planner's statistics before the commit.
    func analyze() throws(SluiceError)
    /// Makes the import permanent; on failure nothing of it is left and the error is thrown.
    /// `vacuum` runs `VACUUM` after the commit; `willVacuum` is called just before it (progress).
    func commit(vacuum: Bool, willVacuum: () -> Void) throws(SluiceError)
    /// Undoes the import. Harmless after `commit` or a previous `rollback`.
    func rollback()
    /// What `commit` did to files beside the database that the report's notes name (a new
    /// SQLite file's stale journal removed).
    var notes: [String] { get }
}

extension ImportStore {
    /// PostgreSQL keeps the tables it created (its schema is locked for the import).
    func dropCreatedTablesLeftEmpty() throws(SluiceError) {}

    var notes: [String] { [] }
}
