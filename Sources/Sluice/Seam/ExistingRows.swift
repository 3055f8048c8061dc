/// What the lookup of a batch (`IdentityLookup`) found of the rows that already exist, per
/// record that found one: the attribute columns whose stored value differs from the
/// record's (compared as the row is read, nothing copied), and the stored values of its
/// to-one columns, with their bytes in an arena of their own. Those columns get their values
/// only after the lookup (`LinkWriter`), so they are compared when the row is written.
///
/// Filled by `EntityWriter.prepare()`, read by its `write()` and by `LinkWriter`. A value,
/// passed `inout` to the store's lookup (`EntityRowStore.find`): touched per record of a
/// re-import, its arrays are reached without a dynamic exclusivity check.
struct ExistingRows {
    /// Columns per row: attributes, then to-one relationship columns.
    private let width: Int
    private let attributeCount: Int
    /// Per record of the batch: its row among those found, -1 for none.
    private var rowOf: [Int32] = []
    /// Per row found: the attributes that differ.
    private var changedAttributes: [ColumnSet] = []
    /// Per row found: its pk.
    private var pks: [Int64] = []
    /// Per row found: its to-one columns as stored, `width - attributeCount` each; missing
    /// where the lookup did not read the column (no record of the batch sets that to-one).
    private var stored: [Cell] = []
    /// The bytes of `stored`'s text and blobs.
    private(set) var storedBytes: [UInt8] = []

    init(width: Int, attributeCount: Int) {
        self.width = width
        self.attributeCount = attributeCount
    }

    /// The attribute columns `add` compares: those some record of the batch gives.
    private var compared: [Int] = []

    /// Forgets the rows found for the last batch, for a batch of `count` records, of which
    /// only the columns `given` hold values (nil: any column may).
    mutating func reset(count: Int, given: ColumnSet? = nil) {
        compared.removeAll(keepingCapacity: true)
        for column in 0..<attributeCount where given?.contains(column) ?? true { compared.append(column) }
        changedAttributes.removeAll(keepingCapacity: true)
        pks.removeAll(keepingCapacity: true)
        stored.removeAll(keepingCapacity: true)
        rowOf = Array(repeating: -1, count: count)
        storedBytes.removeAll(keepingCapacity: true)
    }

    /// Keeps what the current row of `found` holds, the row of `record` (its cells in `rows`).
    /// `same`: columns known to hold the record's values (an identity matched exactly), not
    /// compared again. Generic, not an existential: each store's lookup calls it with its own
    /// row type, so the per-column reads below are direct calls.
    mutating func add(_ found: some FoundRow, for record: Int, pk: Int64, of rows: CellRows, same: ColumnSet? = nil) {
        rowOf[record] = Int32(changedAttributes.count)
        pks.append(pk)
        // Attributes are final once records are merged; to-ones get their value later.
        var changed = ColumnSet(width: width)
        // Only the columns some record gives: a wide entity's rows leave most empty.
        for column in compared {
            let cell = rows[record, column]
            if !cell.isMissing, !(same?.contains(column) ?? false), !found.column(column, holds: cell, in: rows.arena) {
                changed.insert(column)
            }
        }
        changedAttributes.append(changed)
        for column in attributeCount..<width {
            stored.append(found.reads(column) ? found.cell(column, into: &storedBytes) : .missing)
        }
    }

    /// The columns of `record`'s row that its cells change: the attributes found to differ,
    /// and the to-ones whose value now differs from the stored one (bytes in `storedArena`,
    /// which is `storedBytes`).
    func changes(of record: Int, in rows: CellRows, storedArena: UnsafeRawBufferPointer) -> ColumnSet {
        var changed = changedAttributes[Int(rowOf[record])]
        for column in attributeCount..<width {
            let cell = rows[record, column]
            guard !cell.isMissing else { continue }
            let was = stored[storedIndex(record, column)]
            assert(!was.isMissing, "a to-one column the lookup did not read")
            if !cell.equals(was, in: rows.arena, otherArena: storedArena) {
                changed.insert(column)
            }
        }
        return changed
    }

    /// The pk of the row found for `record`, nil when none was.
    func pk(of record: Int) -> Int64? {
        rowOf[record] >= 0 ? pks[Int(rowOf[record])] : nil
    }

    /// The stored value of a to-one column before this batch, for a record whose row existed.
    func storedValue(_ record: Int, _ column: Int) -> ColumnValue? {
        precondition(column >= attributeCount, "only to-one columns are kept")
        guard !rowOf.isEmpty, rowOf[record] >= 0 else { return nil }
        let cell = stored[storedIndex(record, column)]
        assert(!cell.isMissing, "a to-one column the lookup did not read")
        return storedBytes.withUnsafeBytes { cell.columnValue(in: $0) }
    }

    /// Whether `cell` (bytes in `arena`), a to-one column's value for `record`, differs from
    /// what the row held before this batch: NULL for a record whose row was not found.
    func differs(_ record: Int, _ column: Int, from cell: Cell, in arena: UnsafeRawBufferPointer) -> Bool {
        guard !rowOf.isEmpty, rowOf[record] >= 0 else { return cell.kind != .null }
        let stored = stored[storedIndex(record, column)]
        assert(!stored.isMissing, "a to-one column the lookup did not read")
        return storedBytes.withUnsafeBytes { !cell.equals(stored, in: arena, otherArena: $0) }
    }

    private func storedIndex(_ record: Int, _ column: Int) -> Int {
        Int(rowOf[record]) * (width - attributeCount) + column - attributeCount
    }
}

/// A row a store's identity lookup found, read in place (`FoundRows` for SQLite).
protocol FoundRow {
    /// Whether the row's column `column` (among the entity's columns, the pk aside) holds
    /// `cell` (bytes in `arena`), compared as `Cell.equals` compares.
    func column(_ column: Int, holds cell: Cell, in arena: UnsafeRawBufferPointer) -> Bool
    /// The row's column `column` as a cell, its bytes appended to `arena`.
    func cell(_ column: Int, into arena: inout [UInt8]) -> Cell
    /// Whether the lookup read column `column` (it may leave out the columns no record of
    /// the batch sets: their stored values are then never asked for).
    func reads(_ column: Int) -> Bool
}

extension FoundRow {
    func reads(_: Int) -> Bool { true }
}
