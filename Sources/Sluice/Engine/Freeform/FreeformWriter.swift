/// Writes the records of a zero-config import into one table: the sink at the end of a
/// `FreeformStream`.
///
/// Append-only: there is no identity, so nothing is looked up and every record is a new row.
/// That is why it does not batch like `BatchWriter`: a batch exists for the one `IN` query
/// per entity, and here it would only delay the same inserts and copy every value once more.
/// Each record is inserted as it arrives (unless new columns wait, below), inside the import's
/// one transaction.
///
/// Columns: an existing table's columns are read first; every distinct key has a column of
/// its own, so a second import appends and adds only what is new (`FreeformColumns` says which
/// column a key goes to, and renames keys whose names the store would confuse with another's:
/// `name` beside `Name` on SQLite, `pk`). New columns wait: a record that brings a new key is
/// held back, with the records after it, until `maxHeldRecords` records or `maxHeldBytes` of
/// values wait (or the input ends); then every waiting column is added in one schema change
/// (`FreeformTableStore.addColumns`) and the held records are inserted in order (one the store
/// then refuses as its own is rejected with its place, its `--rejects` text gone). One
/// `ALTER TABLE … ADD COLUMN` per key parses the whole schema again each time: k keys cost
/// O(k²), minutes for 2,000 long keys.
///
/// A table holds at most `columnLimit` columns (SQLite: 2000, PostgreSQL: 1600). A key past that gets no
/// column: a record with a non-null value for it is a record error (`FreeformAssembler.tooManyColumns`,
/// placed and rejected by `FreeformStream`), and records without one still import.
///
/// Each record is inserted with the columns it has (`SQLiteFreeformTable.insert`), so a column it
/// lacks gets the column's default. The store may keep rows back and write them together
/// (PostgreSQL's `COPY`); `finish()` writes what waits.
final class FreeformWriter: FreeformSink {
    private(set) var counts: ImportReport.EntityCounts
    var table: String { freeformTable.name }
    /// Whether the table's columns are text, which holds a number as written.
    var storesNumbersAsText: Bool { freeformTable.storesNumbersAsText }
    private let onError: ImportOptions.ErrorPolicy
    private let rejects: RejectsFile?

    /// Where the rows go, and which column each key goes to.
    private let freeformTable: any FreeformTableStore
    private var columns: FreeformColumns
    /// Columns planned by `columns` and not yet added to the table.
    private var waitingColumns: [String] = []
    /// Records held back until the waiting columns are added: each one's values by table
    /// column, and its input and place.
    private var held: [(values: [(column: Int, value: ColumnValue)], source: String, position: InputPosition)] = []
    private var heldBytes = 0
    static let maxHeldRecords = 1_000
    static let maxHeldBytes = 4 << 20
    /// Whether some key found the table full (records are then checked for its values).
    private var hasKeysWithoutColumn = false
    /// The row each record becomes, reused (`FreeformRow`). Reached through this class from the
    /// parser's callbacks, per record and value: its dynamic exclusivity checks cost 1.0% of a
    /// zero-config import's instructions (callgrind), so it is not checked.
    @exclusivity(unchecked) private var row: FreeformRow
    /// The input being read, for errors found when waiting rows are written.
    var source = ""

    /// Opens `table`, creating it when missing, and reads its columns.
    convenience init(table: String, store: any ImportStore, onError: ImportOptions.ErrorPolicy, rejects: RejectsFile? = nil)
        throws(SluiceError)
    {
        self.init(try store.freeformTable(named: table), onError: onError, rejects: rejects)
    }

    init(_ table: any FreeformTableStore, onError: ImportOptions.ErrorPolicy, rejects: RejectsFile?) {
        self.onError = onError
        self.rejects = rejects
        counts = ImportReport.EntityCounts(entity: table.name)
        freeformTable = table
        columns = FreeformColumns(columns: table.columns, renamed: table.renamedKeys, foldsCase: table.foldsCase,
                                  legalName: table.columnName(forKey:))
        row = FreeformRow(tableColumns: table.columns.count)
    }

    /// The most columns a record may name: every key has its own column, and `"pk"` is one.
    var maxKeysPerTable: Int { freeformTable.columnLimit - 1 }
    var columnLimitOwner: String { freeformTable.columnLimitOwner }

    /// What the import should tell: the keys that went to a column of another name.
    var notes: [String] {
        guard !columns.renamesUsed.isEmpty else { return [] }
        let reason = (freeformTable.foldsCase ? "SQLite's column names ignore case, " : "") + "\"pk\" is the row's own key"
        return ["table \(quoteIdentifier(freeformTable.name)): keys whose columns would clash have columns of their own "
            + "(\(reason)), the same in later imports: \(FreeformColumns.describe(columns.renamesUsed))"]
    }

    func accept(_ record: FreeformRecord, columnNames: [String]) throws(SluiceError) {
        while row.tableColumnOf.count < columnNames.count {
            let column = tableColumn(forKey: columnNames[row.tableColumnOf.count]) ?? -1
            row.addRecordColumn(column)
        }
        if hasKeysWithoutColumn { try checkColumns(of: record, columnNames: columnNames) }
        if !waitingColumns.isEmpty || !held.isEmpty {
            try hold(record)
            return
        }
        row.set(record)
        try freeformTable.insert(row.values, setting: row.bound, source: source, at: record.position)
        counts.inserted += 1
    }

    /// Writes the records held back, then the rows the store kept back.
    func finish() throws(SluiceError) {
        try insertHeld()
        try freeformTable.flush()
    }

    // MARK: Held records

    private func hold(_ record: FreeformRecord) throws(SluiceError) {
        var values: [(column: Int, value: ColumnValue)] = []
        for (column, value) in record.values.enumerated() {
            guard let value else { continue }
            let target = row.tableColumnOf[column]
            if target < 0 { continue }
            values.append((target, value))
            heldBytes += 16 + (value.textValue?.utf8.count ?? 8)
        }
        held.append((values, source, record.position))
        if held.count >= Self.maxHeldRecords || heldBytes >= Self.maxHeldBytes { try insertHeld() }
    }

    /// Adds the waiting columns in one schema change, records the renamed keys, and inserts the
    /// held records in order. A held record the store refuses as its own (a `.data` error
    /// without a place) is rejected then, at its place.
    private func insertHeld() throws(SluiceError) {
        if !waitingColumns.isEmpty {
            try freeformTable.addColumns(waitingColumns)
            waitingColumns.removeAll()
            let renames = columns.takeUnrecorded()
            if !renames.isEmpty { try freeformTable.recordRenamedKeys(renames) }
        }
        let records = held
        held.removeAll()
        heldBytes = 0
        for record in records {
            row.begin()
            for (target, value) in record.values { row.set(target, value) }
            do {
                try freeformTable.insert(row.values, setting: row.bound, source: record.source, at: record.position)
                counts.inserted += 1
            } catch where error.kind == .data && error.position == nil {
                try reject(SluiceError(.data, error.message, in: record.source, at: record.position), record: nil)
            }
        }
    }

    /// Writes the record to `--rejects` (also the one that stops an `abort`), then stops or
    /// counts it.
    func reject(_ error: SluiceError, record: [UInt8]?) throws(SluiceError) {
        try rejects?.write(error, entity: freeformTable.name, record: record)
        if onError == .abort { throw error }
        counts.rejected += 1
    }

    // MARK: Columns

    /// The table column a key's values go to (`FreeformColumns`), planned when new and added
    /// with the others waiting (`insertHeld`); nil when the table already has `columnLimit` columns.
    private func tableColumn(forKey key: String) -> Int? {
        guard let (number, isNew) = columns.column(forKey: key, limit: freeformTable.columnLimit) else {
            hasKeysWithoutColumn = true
            return nil
        }
        if isNew {
            waitingColumns.append(columns.names[number])
            row.addTableColumn()
        }
        return number
    }

    /// A record with a value for a key that got no column cannot be imported whole.
    private func checkColumns(of record: FreeformRecord, columnNames: [String]) throws(SluiceError) {
        for (column, value) in record.values.enumerated() where row.tableColumnOf[column] < 0 {
            guard let value, value != .null else { continue }
            throw SluiceError(.data, FreeformAssembler.tooManyColumns(table: freeformTable.name, key: columnNames[column],
                                                                      limit: freeformTable.columnLimit,
                                                                      owner: freeformTable.columnLimitOwner))
        }
    }
}
