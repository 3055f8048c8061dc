/// Writes the rows of one entity a batch at a time, the way Core Data's guidance and
/// FastEasyMapping do it: a query per 512 identities of a batch finds which exist, new
/// records are inserted, existing rows are updated in the columns whose value changed, and a
/// record that changes nothing writes nothing.
///
/// A row's columns are the entity's attributes, then its to-one relationships' columns, so
/// a link known when the row is written costs no second write and an unchanged link none.
/// The batch lives in flat arrays reused from batch to batch, so memory is bounded by the
/// batch size whatever the input. A batch is written in steps that `BatchWriter` runs for
/// all entities together: `prepare()` (merge, find), `write()` (rows), then links, `reset()`.
///
/// What it decides is here; the SQL is the store's (`EntityRowStore`, one call per batch).
///
/// A value, owned by the thread that writes the batch (`BatchWriting`, moved to the
/// writer thread and back): its per-record state is reached without the dynamic exclusivity
/// checks a class's stored properties would need (they were a tenth of a re-import).
struct EntityWriter {
    let plan: MappingPlan.EntityPlan
    /// The entity's index in the mapping plan.
    let entity: Int
    var counts: ImportReport.EntityCounts
    /// Per relationship: its column among the row's columns when it is a to-one.
    let toOneColumns: [Int?]
    /// Columns per row: attributes, then to-one relationship columns.
    let width: Int
    private let attributeCount: Int
    private let relationshipCount: Int
    /// Finds, inserts and updates the rows, a batch at a time (`Store/`).
    private let rows: any EntityRowStore

    /// The batch being written: swapped in by `BatchWriter` for the steps below, swapped out
    /// (emptied, capacity kept) once they ran.
    var batch: EntityBatch

    // Filled by `prepare()` and `write()`.
    /// The record each record was merged into (itself unless an earlier one shares its identity).
    private(set) var representative: [Int] = []
    private var fates: [Fate] = []
    /// The rows `lookUp` found (passed `inout` to the store).
    private var existing: ExistingRows
    private var identities = IdentityTable()
    private var pks: [Int64] = []
    /// Filled by `write()`: the records inserted, those of them with a whole identity, and
    /// the changes of existing rows.
    private var newRows: [Int] = []
    private var written: [Int] = []
    private var changes: [RowChange] = []
    /// Indexes into the columns of the identity: its attributes, then its to-ones' columns;
    /// empty for append-only. Kept beside the plan: read per record, without going through
    /// the plan struct.
    private let identity: [Int]
    private var firstNewPK = FirstNewPK.unread
    /// Set by `setGeneration` for the few records it concerns; emptied by `reset()`.
    private var generations: [Int: (generation: Int, column: Int)] = [:]
    /// Where the next batch's rows are expected in the table (a re-import's fast path).
    private var inKeyOrder: RowsInKeyOrder
    /// The largest pk `lookUp` found in the batch, nil for none.
    private var largestFound: Int64?
    /// Above it, a record is new without a lookup (a table that started empty).
    private var ceiling: IdentityCeiling
    /// Where the identity index may be left for after the load (a table no relationship looks
    /// into by id, `SecondaryIndexes.deferIdentity`): nil once it may not, or was.
    private var identityMayWait: SecondaryIndexes?
    /// The identity index left for after the load while no lookup needs it; built before the first.
    private var deferredIdentity: (indexes: SecondaryIndexes, columns: [String])?
    /// The early indexes over the to-ones' columns kept while new rows fill them in order.
    private var earlyIndexOrder: EarlyIndexOrder
    /// Filled by `write()` while `earlyIndexOrder` watches: the records whose row existed.
    private var existedRows: [Int] = []
    private enum FirstNewPK {
        case unread
        case read(Int64?)
    }

    /// `sharesTable`: another entity's writer writes to the same table (Core Data's sub-entities);
    /// `lookedInto`: a relationship links to the table's rows by id, looking them up while the
    /// import runs; `indexes`: where the identity index may be deferred.
    init(plan: MappingPlan.EntityPlan, entity: Int, toOneColumns toOnes: [(relationship: Int, column: String)],
         replacesLists: [Bool] = [], sharesTable: Bool = false, lookedInto: Bool = true, indexes: SecondaryIndexes? = nil,
         store: any ImportStore, fastPaths: Bool = FastPaths.enabledByDefault) throws(SluiceError) {
        self.plan = plan
        self.entity = entity
        attributeCount = plan.attributes.count
        relationshipCount = plan.relationships.count
        var columns = Array(repeating: Int?.none, count: plan.relationships.count)
        for (offset, toOne) in toOnes.enumerated() { columns[toOne.relationship] = attributeCount + offset }
        toOneColumns = columns
        // An identity's to-ones are columns too, filled before the lookup (`ParentIdentity`).
        identity = plan.identity + plan.identityRelationships.compactMap { columns[$0] }
        width = attributeCount + toOnes.count
        counts = ImportReport.EntityCounts(entity: plan.name, hasRelationships: !plan.relationships.isEmpty)
        let columnNames = plan.attributes.map(\.column) + toOnes.map(\.column)
        let defaults = plan.attributes.map(\.defaultValue) + toOnes.map { _ in nil }
        rows = try store.entityRows(entity: plan.name, table: plan.table, columns: columnNames, defaults: defaults, identity: identity)
        existing = ExistingRows(width: width, attributeCount: attributeCount)
        self.replacesLists = replacesLists.isEmpty ? Array(repeating: false, count: relationshipCount) : replacesLists
        batch = EntityBatch(width: width, attributeCount: attributeCount, relationshipCount: relationshipCount)
        inKeyOrder = RowsInKeyOrder(enabled: fastPaths && !identity.isEmpty)
        let attributes = plan.attributes
        ceiling = IdentityCeiling(identity: identity, types: identity.map { $0 < attributes.count ? attributes[$0].type : nil },
                                  hasDefault: identity.map { $0 < attributes.count && attributes[$0].defaultValue != nil },
                                  startedEmpty: !sharesTable && rows.startedEmpty, fastPaths: fastPaths)
        if ceiling.enabled, !lookedInto { identityMayWait = indexes }
        let firstToOne = plan.attributes.count
        let columnsOfToOnes = toOnes.enumerated().map { (relationship: $1.relationship, column: firstToOne + $0, name: $1.column) }
        earlyIndexOrder = EarlyIndexOrder(table: plan.table, toOnes: columnsOfToOnes, indexes: indexes,
                                          enabled: fastPaths && !sharesTable && rows.startedEmpty)
    }

    /// An empty batch of this entity's shape.
    func makeBatch() -> EntityBatch {
        EntityBatch(width: width, attributeCount: attributeCount, relationshipCount: relationshipCount)
    }

    /// Per relationship: a to-many under `merge: replace`, whose later list for a row replaces
    /// an earlier one in the same batch (as it would in the next batch).
    private let replacesLists: [Bool]

    var isEmpty: Bool { batch.isEmpty }
    var count: Int { batch.count }
    /// Where a record starts in its input, and which input (for messages).
    func position(of record: Int) -> InputPosition { batch.positions[record] }
    func source(of record: Int) -> Int { batch.sources[record] }

    // MARK: Reading the batch

    /// What the record itself said of the relationship, before a later record of its row
    /// in the batch was merged into it (`link` is what the row's records said together).
    func ownLink(_ record: Int, _ relationship: Int) -> Link? {
        let index = record * relationshipCount + relationship
        if !batch.ownLinks.isEmpty, let own = batch.ownLinks[index] { return own }
        return batch[link: index]
    }

    /// Whether `prepare()` merged records of one row.
    var mergedRecords: Bool { fates.contains { if case .merged = $0 { true } else { false } } }

    /// The columns of the identity (attributes, then to-ones).
    var identityColumns: [Int] { identity }

    /// Makes the record a row of a later generation under its parent (`ParentIdentity`): it
    /// matches only records of the same generation, no row found in the database, and is
    /// written with the parent's `column` empty, for the parent's list to link it once the
    /// rows it replaces are unlinked. Call before `prepare()`.
    mutating func setGeneration(_ record: Int, _ generation: Int, parentColumn column: Int) {
        generations[record] = (generation, column)
    }

    func value(_ record: Int, _ column: Int) -> ColumnValue? {
        batch.bytes.withUnsafeBytes { batch.values[record * width + column].columnValue(in: $0) }
    }

    func link(_ record: Int, _ relationship: Int) -> Link? {
        batch[link: record * relationshipCount + relationship]
    }

    /// Whether a record of the batch links something through `relationship` (a `null` links nothing).
    func holdsLink(_ relationship: Int) -> Bool {
        (0..<count).contains { batch.linksSomething($0 * relationshipCount + relationship) }
    }

    /// Whether the `merge: add` list of `link` comes after a `null` of the same row in this
    /// batch, so the row's other links go first (`EntityBatch.clearedBeforeList`).
    func clearsOthersFirst(_ record: Int, _ relationship: Int) -> Bool {
        !batch.clearedBeforeList.isEmpty && batch.clearedBeforeList.contains(record * relationshipCount + relationship)
    }

    /// For a to-one column that has its value now (nil: not yet), whether the value changes
    /// the row (a link made or unmade); compared as cells, with no `ColumnValue` made.
    func changesToOne(_ record: Int, _ column: Int) -> Bool? {
        let cell = batch.values[record * width + column]
        guard !cell.isMissing else { return nil }
        return batch.bytes.withUnsafeBytes { existing.differs(record, column, from: cell, in: $0) }
    }

    /// Whether the record gives a link (or `null`) for `relationship`: a test of one number.
    func mentions(_ record: Int, _ relationship: Int) -> Bool {
        batch.linkSlots[record * relationshipCount + relationship] >= 0
    }

    /// The stored value of a to-one column before this batch, for a row that existed.
    func storedValue(_ record: Int, _ column: Int) -> ColumnValue? {
        existing.storedValue(record, column)
    }

    /// The row of a record, once `write()` ran.
    func pk(of record: Int) -> Int64 {
        pks[representative[record]]
    }

    func isRepresentative(_ record: Int) -> Bool {
        representative[record] == record
    }

    /// Whether `write()` inserted the record's row (rather than finding it, or merging the
    /// record into an earlier one).
    func wasInserted(_ record: Int) -> Bool {
        switch fates[record] {
        case .append, .write: return true
        case .update, .merged: return false
        }
    }

    /// Whether the record's row is one this import inserted into a table where every row from
    /// the import's first new pk up is new (`EntityRowStore.firstNewPK`).
    func isNewRow(_ record: Int) -> Bool {
        guard wasInserted(record), case .read(let first?) = firstNewPK else { return false }
        return pk(of: record) >= first
    }

    /// Sets a to-one column before `write()`: the link goes in with the row.
    mutating func setToOne(_ record: Int, column: Int, _ value: ColumnValue) {
        let cell = Cell(value, in: &batch.bytes)
        batch.set(record, column: column, cell)
    }

    /// The same, for the row `pk`.
    mutating func setToOne(_ record: Int, column: Int, pk: Int64) {
        batch.set(record, column: column, .integer(pk))
    }

    // MARK: Steps

    /// Merges records that share an identity into the first of them, and finds the rows that
    /// exist with a few queries per batch (`lookUp`).
    mutating func prepare() throws(SluiceError) {
        representative = Array(0..<count)
        fates.removeAll(keepingCapacity: true)
        guard !identity.isEmpty else {
            fates.append(contentsOf: repeatElement(.append, count: count))
            return
        }
        existing.reset(count: count, given: batch.givenColumns)
        // Worked on as a local: matching reads the batch while the table changes.
        var table = IdentityTable()
        swap(&table, &identities)
        defer { swap(&table, &identities) }
        table.reset(count: count)
        var firsts: [Int] = []
        var merges: [(record: Int, target: Int)] = []
        // Read per record by the matching, as locals: through `self`, which the loop changes,
        // they were retained per record.
        let (width, identity, generations) = (width, identity, generations)
        batch.values.withUnsafeBufferPointer { values in batch.bytes.withUnsafeBytes { bytes in
            for record in 0..<count {
                guard var hash = IdentityTable.hash(identity.lazy.map { values[record * width + $0] }, in: bytes) else {
                    fates.append(.append)
                    continue
                }
                let generation = generations.isEmpty ? 0 : generations[record]?.generation ?? 0
                hash = hash &+ generation &* 0x9E37_79B9
                let same = { other in
                    Self.sameIdentity(record, other, identity: identity, generations: generations, values: values, width: width, bytes: bytes)
                }
                if let target = table.firstOrInsert(record, hash: hash, same: same) {
                    merges.append((record, target))
                    representative[record] = target
                    fates.append(.merged)
                } else {
                    // A later generation's row is new whatever the database holds.
                    if generation == 0 { firsts.append(record) }
                    fates.append(.write)
                }
            }
        } }
        // In record order, after the matching (which merging does not change: it leaves the
        // identity's cells equal).
        for (record, target) in merges {
            if batch.merge(record, into: target, replacingLists: replacesLists) { counts.updated += 1 } else { counts.unchanged += 1 }
        }
        for (record, mark) in generations where representative[record] == record {
            setToOne(record, column: mark.column, .null)
        }
        // A second reference to the batch's arrays, only read while the lookup changes the
        // writer's other state (released on return, before anything writes the batch).
        let lookedUp = batch
        try lookedUp.withRows { rows throws(SluiceError) in try lookUp(firsts, in: rows) }
    }

    /// Static, given what it reads: called inside `prepare()`, which changes the writer meanwhile.
    private static func sameIdentity(_ record: Int, _ other: Int, identity: [Int], generations: [Int: (generation: Int, column: Int)],
                                     values: UnsafeBufferPointer<Cell>, width: Int, bytes: UnsafeRawBufferPointer) -> Bool {
        if !generations.isEmpty, generations[record]?.generation ?? 0 != generations[other]?.generation ?? 0 { return false }
        for column in identity where !values[record * width + column].equals(values[other * width + column], in: bytes, otherArena: bytes) {
            return false
        }
        return true
    }

    /// Finds the rows of `records` (the first record of each identity in the batch) and
    /// marks them for update with the row's pk, keeping what they hold (`existing`): none of
    /// those above the identities inserted so far into a table that started empty
    /// (`IdentityCeiling`), then among the rows that follow the last batch's
    /// (`RowsInKeyOrder`), then the rest by their identity.
    private mutating func lookUp(_ records: [Int], in cells: CellRows) throws(SluiceError) {
        let records = ceiling.enabled ? records.filter { !ceiling.isAbove($0, in: cells) } : records
        var rest = records
        if !records.isEmpty, inKeyOrder.tries() {
            var matcher = IdentityMatcher(identity: identity, table: identities, records: records, count: count, width: width)
            let read = try rows.findFollowing(inKeyOrder.after, limit: records.count, reading: columnsSet(),
                                              of: cells, matching: &matcher, into: &existing)
            inKeyOrder.read(read, matched: matcher.matched)
            if matcher.matched == records.count {
                rest = []
            } else if matcher.matched > 0 {
                rest = records.filter { existing.pk(of: $0) == nil }
            }
        }
        if !rest.isEmpty {
            // An index a lookup uses is kept up from now on.
            identityMayWait = nil
            if let deferred = deferredIdentity {
                try deferred.indexes.ensure(table: plan.table, columns: deferred.columns)
                deferredIdentity = nil
            }
            try rows.find(rest, of: cells, into: &existing)
        }
        largestFound = nil
        for record in records {
            if let pk = existing.pk(of: record) {
                fates[record] = .update(pk: pk)
                if pk > largestFound ?? .min { largestFound = pk }
            }
        }
    }

    /// The columns whose stored values the batch needs of the rows it looks up: the identity,
    /// the attributes a record sets, and the to-ones a record links (their columns get values
    /// only after the lookup, `LinkWriter`). Those of the whole batch: reading a column no
    /// record looked up sets only costs its read.
    private func columnsSet() -> ColumnSet {
        var columns = batch.givenColumns
        for column in identity { columns.insert(column) }
        for (relationship, column) in toOneColumns.enumerated() {
            if let column, batch.mentionedRelationships.contains(relationship) { columns.insert(column) }
        }
        return columns
    }

    /// Inserts the new rows and updates the changed columns of existing ones.
    mutating func write() throws(SluiceError) {
        pks = Array(repeating: 0, count: count)
        newRows.removeAll(keepingCapacity: true)
        changes.removeAll(keepingCapacity: true)
        // Read per record while the writer's other state changes: a second reference to its
        // arrays, taken once (read through `self` there, it was copied per record).
        let existing = existing
        written.removeAll(keepingCapacity: true)
        existedRows.removeAll(keepingCapacity: true)
        let watchesOrder = !earlyIndexOrder.isEmpty
        // Text and blobs are bound in place from the batch's arena, unchanged until `reset()`.
        try batch.withRows { cells throws(SluiceError) in
            existing.storedBytes.withUnsafeBytes { stored in
                for record in 0..<count {
                    switch fates[record] {
                    case .merged:
                        continue
                    case .append:
                        newRows.append(record)
                        counts.inserted += 1
                    case .write:
                        newRows.append(record)
                        written.append(record)
                        counts.inserted += 1
                    case .update(let pk):
                        pks[record] = pk
                        if watchesOrder { existedRows.append(record) }
                        let changed = existing.changes(of: record, in: cells, storedArena: stored)
                        if changed.isEmpty {
                            counts.unchanged += 1
                        } else {
                            changes.append(RowChange(row: record, columns: changed, pk: pk))
                            counts.updated += 1
                        }
                    }
                }
            }
            // Raised before the rows go in: a ceiling above the table's rows is never wrong.
            ceiling.raise(to: written, in: cells)
            try deferIdentityIndexOutOfOrder()
            if watchesOrder {
                try earlyIndexOrder.check(newRows: newRows, existed: existedRows, in: batch, width: width,
                                          relationshipCount: relationshipCount)
            }
            try rows.insert(newRows, of: cells, pks: &pks)
            try rows.update(changes, of: cells)
        }
        // Known from the first row inserted on, and then fixed.
        if case .unread = firstNewPK, !newRows.isEmpty { firstNewPK = .read(rows.firstNewPK) }
        if inKeyOrder.enabled {
            inKeyOrder.written(largestFound: largestFound, largestInserted: largestFound == nil ? newRows.map { pks[$0] }.max() : nil)
        }
    }

    /// Leaves the identity index for after the load once the records stop coming in its
    /// order, before their rows go in: each would be an index search (W3's stop times, whose
    /// ids count up shorter first, `T9` before `T10`: 0.8 s of 5.7 at scale 1), where rows in
    /// the index's order go in at its end for less than one sort of them all after the load.
    private mutating func deferIdentityIndexOutOfOrder() throws(SluiceError) {
        guard let indexes = identityMayWait else { return }
        guard ceiling.enabled else {
            identityMayWait = nil
            return
        }
        guard !ceiling.inIndexOrder else { return }
        identityMayWait = nil
        if let columns = try indexes.deferIdentity(of: plan.table) { deferredIdentity = (indexes, columns) }
    }

    mutating func reset() {
        largestFound = nil
        batch.removeAllWritten()
        fates.removeAll(keepingCapacity: true)
        if !generations.isEmpty { generations.removeAll() }
    }

    /// What becomes of each record of a batch.
    private enum Fate {
        /// No complete identity: inserted as a new row.
        case append
        /// The first record with this identity, not in the database: inserted.
        case write
        /// The first record with this identity, found in the database.
        case update(pk: Int64)
        /// Merged into an earlier record of the batch with the same identity.
        case merged
    }
}
