/// Writes the records of a zero-config import into one table: the sink at the end of a
/// `FreeformStream`.
///
/// Append-only: there is no identity, so nothing is looked up and every record is a new row.
/// That is why it does not batch like `BatchWriter`: a batch exists for the one `IN` query
/// per entity, and here it would only delay the same inserts and copy every value once more.
/// Each record is inserted as it arrives, inside the import's one transaction.
///
/// Columns: an existing table's columns are read first; a key that matches none of them
/// (ASCII case-insensitively, as SQLite matches names) adds a column with no declared type,
/// so a second import appends and adds only what is new. A key named `pk` (any case) would
/// collide with the table's primary key; it is stored in the column `pk_1`. A key holding
/// U+0000 (`"a\u0000b"`) names its column with U+FFFD in its place: SQL text ends at a NUL.
/// A key the store cannot take as a name (PostgreSQL: over 63 bytes, empty, `xmin`…) names
/// the column the store maps it to (`FreeformTableStore.columnName(forKey:)`), the same on
/// every import.
///
/// A table holds at most `columnLimit` columns (SQLite: 2000, PostgreSQL: 1600). A key past that gets no
/// column: a record with a non-null value for it is a record error (`tooManyColumns`, placed
/// and rejected by `FreeformStream`), and records without one still import.
///
/// Each record is inserted with the columns it has (`FreeformTable.insert`), so a column it
/// lacks gets the column's default. The store may keep rows back and write them together
/// (PostgreSQL's `COPY`); `finish()` writes what waits.
final class FreeformWriter: FreeformSink {
    @exclusivity(unchecked) private(set) var counts: ImportReport.EntityCounts
    var table: String { freeformTable.name }
    /// Whether the table's columns are text, which holds a number as written.
    var storesNumbersAsText: Bool { freeformTable.storesNumbersAsText }
    private let onError: ImportOptions.ErrorPolicy
    private let rejects: RejectsFile?

    /// Where the rows go, and its columns by their ASCII-lowercased names.
    private let freeformTable: any FreeformTableStore
    private var tableColumnNumbers: [String: Int]
    /// The table column of each record column (`FreeformAssembler`'s numbering) seen so far;
    /// -1 for a key that found the table full.
    @exclusivity(unchecked) private var tableColumnOf: [Int] = []
    /// Whether some key found the table full (records are then checked for its values).
    @exclusivity(unchecked) private var hasKeysWithoutColumn = false

    // The state below is touched per record and per value by the one thread that parses,
    // never re-entered: no dynamic exclusivity checks (they were a sixth of the import).
    /// Reused per record: a value per table column, and the table columns the record sets, in
    /// the order of its record columns.
    @exclusivity(unchecked) private var row: [ColumnValue?] = []
    @exclusivity(unchecked) private var bound: [Int] = []
    /// Per table column, the number of the last record that set it (to set each once).
    @exclusivity(unchecked) private var setBy: [Int] = []
    @exclusivity(unchecked) private var recordNumber = 0
    /// The input being read, for errors found when waiting rows are written.
    var source = ""

    /// Opens `table`, creating it when missing, and reads its columns.
    convenience init(table: String, store: any ImportStore, onError: ImportOptions.ErrorPolicy, rejects: RejectsFile? = nil)
        throws(SluiceError)
    {
        self.init(try store.freeformTable(named: table), onError: onError, rejects: rejects)
    }

    /// An SQLite connection's table (`FreeformTable`).
    convenience init(table: String, connection: Connection, onError: ImportOptions.ErrorPolicy, rejects: RejectsFile? = nil)
        throws(SluiceError)
    {
        self.init(try FreeformTable(opening: table, in: connection), onError: onError, rejects: rejects)
    }

    init(_ table: any FreeformTableStore, onError: ImportOptions.ErrorPolicy, rejects: RejectsFile?) {
        self.onError = onError
        self.rejects = rejects
        counts = ImportReport.EntityCounts(entity: table.name)
        freeformTable = table
        let columns = freeformTable.columns
        tableColumnNumbers = [:]
        for (number, name) in columns.enumerated() where tableColumnNumbers[SchemaMigration.foldCase(name)] == nil {
            tableColumnNumbers[SchemaMigration.foldCase(name)] = number
        }
        row = Array(repeating: nil, count: columns.count)
        setBy = Array(repeating: -1, count: columns.count)
    }

    func accept(_ record: FreeformRecord, columnNames: [String]) throws(SluiceError) {
        while tableColumnOf.count < columnNames.count {
            tableColumnOf.append(try tableColumn(forKey: columnNames[tableColumnOf.count]) ?? -1)
        }
        if hasKeysWithoutColumn { try checkColumns(of: record, columnNames: columnNames) }
        recordNumber += 1
        bound.removeAll(keepingCapacity: true)
        for (column, value) in record.values.enumerated() {
            guard let value else { continue }
            let target = tableColumnOf[column]
            if target < 0 { continue }  // a null for a key without a column (`checkColumns`)
            row[target] = value  // two keys on one column (`pk` and `pk_1`): the later wins
            if setBy[target] != recordNumber {
                setBy[target] = recordNumber
                bound.append(target)
            }
        }
        try freeformTable.insert(row, setting: bound, source: source, at: record.position)
        counts.inserted += 1
    }

    /// Writes the rows the store kept back.
    func finish() throws(SluiceError) {
        try freeformTable.flush()
    }

    /// Writes the record to `--rejects` (also the one that stops an `abort`), then stops or
    /// counts it.
    func reject(_ error: SluiceError, record: [UInt8]?) throws(SluiceError) {
        try rejects?.write(error, entity: freeformTable.name, record: record)
        if onError == .abort { throw error }
        counts.rejected += 1
    }

    // MARK: Columns

    /// The table column a key's values go to, added when the table has none of that name;
    /// nil when the table already has `columnLimit` columns.
    private func tableColumn(forKey key: String) throws(SluiceError) -> Int? {
        var name = SchemaMigration.foldCase(key) == "pk" ? "pk_1" : key
        if name.utf8.contains(0) { name = name.replacing("\u{0}", with: "\u{FFFD}") }
        name = freeformTable.columnName(forKey: name)
        if let number = tableColumnNumbers[SchemaMigration.foldCase(name)] { return number }
        guard freeformTable.columns.count < freeformTable.columnLimit else {
            hasKeysWithoutColumn = true
            return nil
        }
        let number = try freeformTable.addColumn(name)
        tableColumnNumbers[SchemaMigration.foldCase(name)] = number
        row.append(nil)
        setBy.append(-1)
        return number
    }

    /// A record with a value for a key that got no column cannot be imported whole.
    private func checkColumns(of record: FreeformRecord, columnNames: [String]) throws(SluiceError) {
        for (column, value) in record.values.enumerated() where tableColumnOf[column] < 0 {
            guard let value, value != .null else { continue }
            throw Self.tooManyColumns(table: freeformTable.name, key: columnNames[column], limit: freeformTable.columnLimit,
                                      owner: freeformTable.columnLimitOwner)
        }
    }

    /// Unplaced: the writer does not know the source; `FreeformStream` places and rejects it.
    static func tooManyColumns(table: String, key: String, limit: Int, owner: String) -> SluiceError {
        SluiceError(.data, "table \(quoteIdentifier(table)) already has \(limit) columns, \(owner) limit: no column for the key "
            + "\(quoteIdentifier(key)) (a zero-config import makes one column per distinct key; import such data with a model)")
    }
}
