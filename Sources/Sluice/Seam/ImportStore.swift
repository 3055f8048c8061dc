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

/// The rows of one entity's table, a batch at a time (`EntityWriter` decides, this writes).
protocol EntityRowStore: AnyObject {
    /// Finds the rows whose identity the rows `records` of `rows` hold (the first record of
    /// each identity in the batch), keeping each found row's pk and stored values in `existing`.
    func find(_ records: [Int], of rows: CellRows, into existing: inout ExistingRows) throws(SluiceError)
    /// Reads, in key order, up to `limit` rows whose key follows `key` (nil: from the first
    /// row; PostgreSQL reads an eighth more, its round trips being the cost), and keeps in
    /// `existing` each row `matcher` pairs with one of the records of
    /// `rows` (`RowsInKeyOrder`). It need read only the columns `reading` holds. Returns how
    /// many rows it read; nil when the store cannot read rows so cheaply (the engine then
    /// always uses `find`).
    func findFollowing(_ key: Int64?, limit: Int, reading: ColumnSet, of rows: CellRows,
                       matching matcher: inout IdentityMatcher, into existing: inout ExistingRows) throws(SluiceError) -> Int?
    /// Inserts the rows `records` of `rows` (a missing cell takes its column's default) and
    /// sets `pks[record]` to each new row's pk.
    func insert(_ records: [Int], of rows: CellRows, pks: inout [Int64]) throws(SluiceError)
    /// Writes the changed columns of existing rows.
    func update(_ changes: [RowChange], of rows: CellRows) throws(SluiceError)
    /// Every row of the table with this pk or a larger one was inserted by this import (and
    /// none before it); nil when the store cannot tell.
    var firstNewPK: Int64? { get }
    /// Whether this import created the table: the rows it holds are then the import's own,
    /// made with the store's own schema (`IdentityCeiling`). False when not known.
    var startedEmpty: Bool { get }
}

extension ImportStore {
    /// PostgreSQL keeps the tables it created (its schema is locked for the import).
    func dropCreatedTablesLeftEmpty() throws(SluiceError) {}

    var notes: [String] { [] }
}

extension EntityRowStore {
    var firstNewPK: Int64? { nil }
    var startedEmpty: Bool { false }

    func findFollowing(_: Int64?, limit _: Int, reading _: ColumnSet, of _: CellRows,
                       matching _: inout IdentityMatcher, into _: inout ExistingRows) throws(SluiceError) -> Int? { nil }
}

/// The columns of an existing row that a record changes.
struct RowChange {
    /// The record's row in the batch's `CellRows`.
    var row: Int
    var columns: ColumnSet
    var pk: Int64
}

/// The one table of a zero-config import (`SQLiteFreeformTable`, `PostgresFreeformTable`), written a record at a
/// time by `FreeformWriter`.
protocol FreeformTableStore: AnyObject {
    var name: String { get }
    /// The table's columns in order (`"pk"` among them), as named in the database.
    var columns: [String] { get }
    /// The most columns the table may have, and whose limit that is ("SQLite's").
    var columnLimit: Int { get }
    var columnLimitOwner: String { get }
    /// Whether its columns are text (PostgreSQL's), so a number goes in as written rather than
    /// as an integer or a double, which would change its spelling (`1.5e3`, `-0`).
    var storesNumbersAsText: Bool { get }
    /// The column a key's values go to when the key itself cannot name one (PostgreSQL: over
    /// 63 bytes, empty, a system column's name); the key itself when it can. The same for the
    /// same key on every import, so that a second import finds the column.
    func columnName(forKey key: String) -> String
    /// Whether its column names ignore ASCII case (SQLite's), so that keys differing only in
    /// case need columns named apart (`FreeformColumns`).
    var foldsCase: Bool { get }
    /// The keys earlier imports put in a column of another name (key → column), as
    /// `recordRenamedKeys` recorded them.
    var renamedKeys: [String: String] { get }
    /// Adds columns for values of any JSON type after the others, in one schema change where
    /// the store can (`docs/database-layout.md`, zero-config tables).
    func addColumns(_ names: [String]) throws(SluiceError)
    /// Records keys that go to a column of another name, for later imports (`sluice_renamed_keys`).
    func recordRenamedKeys(_ renames: [(key: String, column: String)]) throws(SluiceError)
    /// Inserts a row setting the columns numbered in `set` to their `values` (indexed by
    /// column number; nil: NULL); the others get their default. It may wait in a buffer until
    /// `flush()`; `source` and `position` name the record in an error found then. A `.data`
    /// error without a position is the record's own (it is rejected, nothing is written).
    func insert(_ values: [ColumnValue?], setting set: [Int], source: String, at position: InputPosition) throws(SluiceError)
    /// Writes every row still waiting; called after the last record.
    func flush() throws(SluiceError)
}

/// Forward references waiting for the second pass (`SQLitePendingLinks`, `PostgresPendingLinks`).
///
/// The second pass links the to-ones of one entity together, in one pass (`passes`, the same
/// for every store), so that each of its rows is rewritten once, not once per relationship
/// (`docs/architecture.md`, the second pass); any other relationship is a pass of its own.
protocol PendingLinkStore: AnyObject {
    var isEmpty: Bool { get }
    /// `order`: an ordered to-many's place for the link (nil for any other relationship).
    func add(plan: LinkPlan, source: Int64, key: ColumnValue, input: Int, position: InputPosition,
             order: Int64?) throws(SluiceError)
    /// The to-ones of one record (`plans`, an entity's to-ones that link by id): `keys[i]` is
    /// the id of `plans[i]` when its link waits, nil otherwise; `decided[i]` says the record
    /// made or cleared that link itself. `existingRow`: the row was there before its batch, so
    /// links of an earlier record of the same row may be waiting, and this record's win.
    /// `newRow`: this import inserted the row (`EntityWriter.isNewRow`).
    func addToOnes(_ plans: [LinkPlan], source: Int64, keys: [ColumnValue?], decided: [Bool], existingRow: Bool,
                   newRow: Bool, input: Int, position: InputPosition) throws(SluiceError)
    /// Whether to-ones of `entity` wait in `addToOnes`'s rows, which a later record of the
    /// same row must then update (false for a store that keeps no such rows).
    func hasWaitingToOnes(of entity: Int) -> Bool
    /// How many links of `plan` wait.
    func waiting(_ plan: LinkPlan) -> Int
    /// Drops the waiting links of `plan`, a to-many, from the rows `sources`: a later record of
    /// the same row decided the list (`merge: replace`, or `null`), so the ids of an earlier
    /// record's list that still wait are no longer its links.
    func forget(_ plan: LinkPlan, sources: [Int64]) throws(SluiceError)
    /// The largest place of the links of `plan`, an ordered to-many, that wait from each of
    /// `sources` (absent: none waits): a later `merge: add` list goes after them too.
    func largestWaitingPlaces(_ plan: LinkPlan, of sources: [Int64]) throws(SluiceError) -> [Int64: Int64]
    /// What a pass's progress counts: its waiting links, or for several to-ones linked
    /// together, the records whose links wait.
    func waiting(pass: [LinkPlan]) -> Int
    /// Links what can be linked now, then applies `policy` to the rest; `linked` is told how
    /// many of `waiting(pass:)` are done as they are (for progress). One outcome per plan.
    func resolve(_ pass: [LinkPlan], policy: (LinkPlan) -> Model.UnresolvedPolicy, sources: [String],
                 linked: (Int) -> Void) throws(SluiceError) -> [LinkOutcome]
    /// Links what can be linked now of one relationship, then applies `policy` to the rest.
    func resolve(_ plan: LinkPlan, policy: Model.UnresolvedPolicy, sources: [String],
                 linked: (Int) -> Void) throws(SluiceError) -> LinkOutcome
}

extension PendingLinkStore {
    func addToOnes(_ plans: [LinkPlan], source: Int64, keys: [ColumnValue?], decided: [Bool], existingRow: Bool,
                   newRow: Bool, input: Int, position: InputPosition) throws(SluiceError) {
        for (plan, key) in zip(plans, keys) {
            if let key { try add(plan: plan, source: source, key: key, input: input, position: position, order: nil) }
        }
    }

    func hasWaitingToOnes(of entity: Int) -> Bool { false }

    /// The relationships with links waiting, in the order and groups the second pass links
    /// them (`plans` in model order): the waiting to-ones of an entity that link by id form one
    /// pass, where the first of them is; any other relationship is a pass of its own.
    func passes(_ plans: [LinkPlan]) -> [[LinkPlan]] {
        var passes: [[LinkPlan]] = []
        var grouped = Set<Int>()
        for plan in plans where waiting(plan) > 0 {
            guard plan.mayWaitAsToOne else {
                passes.append([plan])
                continue
            }
            guard grouped.insert(plan.source).inserted else { continue }
            passes.append(plans.filter { $0.source == plan.source && $0.mayWaitAsToOne && waiting($0) > 0 })
        }
        return passes
    }

    func waiting(pass: [LinkPlan]) -> Int {
        pass.reduce(0) { $0 + waiting($1) }
    }

    func resolve(_ pass: [LinkPlan], policy: (LinkPlan) -> Model.UnresolvedPolicy, sources: [String],
                 linked: (Int) -> Void) throws(SluiceError) -> [LinkOutcome] {
        var outcomes: [LinkOutcome] = []
        var before = 0
        for plan in pass {
            outcomes.append(try resolve(plan, policy: policy(plan), sources: sources) { linked(before + $0) })
            before += waiting(plan)
        }
        return outcomes
    }
}

/// The rows an import mentioned, for `--delete-missing` (`Store/TouchedRows.swift`, both stores).
protocol TouchedRowStore: AnyObject {
    /// Per family table: the entities whose rows may be deleted, when not all of them.
    var onlyMembers: [Int: [String]] { get set }
    /// Whether the rows of `entity` are remembered (a root entity with an identity).
    func remembers(_ entity: Int) -> Bool
    /// Remembers that the import mentioned the rows `pks` of `entity`.
    func record(_ pks: [Int64], of entity: Int) throws(SluiceError)
    /// Deletes the rows not mentioned and unlinks what pointed at them; deleted rows per entity.
    /// `willDelete` is told each entity before its rows go (for progress).
    func deleteUntouched(plans: [[LinkPlan]], tables: [String], willDelete: (Int) -> Void) throws(SluiceError) -> [Int: Int]
}
