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
/// One thread at a time uses a writer (the batch writer's while an import runs), and its
/// steps never re-enter one another: the per-record state is marked
/// `@exclusivity(unchecked)`, whose dynamic checks cost more than the work on re-imports.
final class EntityWriter {
    let plan: MappingPlan.EntityPlan
    /// The entity's index in the mapping plan.
    let entity: Int
    var counts: ImportReport.EntityCounts
    /// Per relationship: its column among the row's columns when it is a to-one.
    let toOneColumns: [Int?]
    private let connection: Connection
    private let databaseName: String
    /// Columns per row: attributes, then to-one relationship columns.
    let width: Int
    private let attributeCount: Int
    private let relationshipCount: Int
    private let columnNames: [String]
    /// The most parameters one lookup binds (SQLite allows 32,766): a statement with a
    /// `VALUES` list of thousands of values takes megabytes to prepare and hold, so a batch's
    /// identities are looked up 1,024 values at a time (with each record's number: 512
    /// identities, 10 queries for 5,000).
    static let maxParameters = 1_024

    /// Rows per multi-row `INSERT`: run one row at a time, SQLite spends most of an insert
    /// starting and ending the statement (16 rows per statement took 40% less time than 1 in
    /// a C loop, 64 rows 48%). At most `maxParameters` parameters per statement.
    let rowsPerInsert: Int
    /// `INSERT` of one row, and of `rowsPerInsert` rows. Both name the pk: rows are numbered
    /// here (`nextPK`), so the pk of each row of a multi-row insert is known without reading
    /// it back. The second is prepared when first needed: with up to 1,024 parameters it
    /// takes about 80 KB (64 rows of 13), for every entity of a large model that may never
    /// fill one.
    private let insertOne: Statement
    private var insertMany: Statement?
    private let insertManySQL: String
    /// The pk of the next row inserted: unread until the first insert, then the largest pk
    /// in the table plus one, as SQLite would choose it. The import's transaction is the only
    /// writer and its rows are inserted only here until the second pass.
    private var nextPK = NextPK.unread
    private enum NextPK {
        case unread
        case next(Int64)
        /// The largest pk is `Int64.max`: SQLite picks unused pks at random, a row at a time.
        case exhausted
    }
    /// Records numbered and waiting for `insertMany` (fewer than `rowsPerInsert`).
    @exclusivity(unchecked) private var queued: [Int] = []
    /// `UPDATE` statements by the set of columns they write.
    private var updates: [ColumnSet: Statement] = [:]
    /// Lookup statements by how many identities their `VALUES` list holds.
    private var lookups: [Int: Statement] = [:]

    /// The batch being written: swapped in by `BatchWriter` for the steps below, swapped out
    /// (emptied, capacity kept) once they ran.
    @exclusivity(unchecked) var batch: EntityBatch

    // Filled by `prepare()` and `write()`.
    /// The record each record was merged into (itself unless an earlier one shares its identity).
    @exclusivity(unchecked) private(set) var representative: [Int] = []
    @exclusivity(unchecked) private var fates: [Fate] = []
    /// Per row found by identity: the attribute columns whose stored value differs from the
    /// record's (compared as the row is read, nothing copied), and the stored values of its
    /// to-one columns, `width - attributeCount` per row with their bytes in `storedBytes`
    /// (those columns are filled after the lookup, by `LinkWriter`). `storedRow` gives each
    /// record's row among them (-1: none).
    @exclusivity(unchecked) private var changedAttributes: [ColumnSet] = []
    @exclusivity(unchecked) private var stored: [Cell] = []
    @exclusivity(unchecked) private var storedRow: [Int32] = []
    @exclusivity(unchecked) private var storedBytes: [UInt8] = []
    @exclusivity(unchecked) private var identities = IdentityTable()
    @exclusivity(unchecked) private var pks: [Int64] = []
    /// Indexes into the columns of the identity, in model order; empty for append-only.
    /// `plan.identity` kept beside the plan: read per record, and a stored array of the
    /// class is read without going through the plan struct.
    private let identity: [Int]

    init(plan: MappingPlan.EntityPlan, entity: Int, toOneColumns toOnes: [(relationship: Int, column: String)],
         connection: Connection, databaseName: String) throws(SluiceError) {
        self.plan = plan
        self.entity = entity
        identity = plan.identity
        self.connection = connection
        self.databaseName = databaseName
        attributeCount = plan.attributes.count
        relationshipCount = plan.relationships.count
        width = attributeCount + toOnes.count
        var columns = Array(repeating: Int?.none, count: plan.relationships.count)
        for (offset, toOne) in toOnes.enumerated() { columns[toOne.relationship] = attributeCount + offset }
        toOneColumns = columns
        columnNames = plan.attributes.map(\.column) + toOnes.map(\.column)
        counts = ImportReport.EntityCounts(entity: plan.name, hasRelationships: !plan.relationships.isEmpty)
        let quoted = (["pk"] + columnNames).map(quoteIdentifier).joined(separator: ", ")
        let row = "(\(Self.placeholders(width + 1)))"
        let insert = "INSERT INTO \(quoteIdentifier(plan.table)) (\(quoted)) VALUES "
        rowsPerInsert = Self.rowsPerInsert(width: width)
        insertOne = try Self.prepare(insert + row, connection, databaseName)
        insertManySQL = insert + Array(repeating: row, count: rowsPerInsert).joined(separator: ", ")
        batch = EntityBatch(width: width, attributeCount: attributeCount, relationshipCount: relationshipCount)
    }

    /// An empty batch of this entity's shape.
    func makeBatch() -> EntityBatch {
        EntityBatch(width: width, attributeCount: attributeCount, relationshipCount: relationshipCount)
    }

    var isEmpty: Bool { batch.isEmpty }
    var count: Int { batch.count }
    /// Where a record starts in its input, and which input (for messages).
    func position(of record: Int) -> InputPosition { batch.positions[record] }
    func source(of record: Int) -> Int { batch.sources[record] }

    // MARK: Reading the batch

    func value(_ record: Int, _ column: Int) -> ColumnValue? {
        batch.bytes.withUnsafeBytes { batch.values[record * width + column].columnValue(in: $0) }
    }

    func link(_ record: Int, _ relationship: Int) -> Link? {
        batch.links[record * relationshipCount + relationship]
    }

    /// The stored value of a to-one column before this batch, for a row that existed.
    func storedValue(_ record: Int, _ column: Int) -> ColumnValue? {
        precondition(column >= attributeCount, "only to-one columns are kept")
        guard !storedRow.isEmpty, storedRow[record] >= 0 else { return nil }
        return storedBytes.withUnsafeBytes { stored[storedIndex(record, column)].columnValue(in: $0) }
    }

    private func storedIndex(_ record: Int, _ column: Int) -> Int {
        Int(storedRow[record]) * (width - attributeCount) + column - attributeCount
    }

    /// The row of a record, once `write()` ran.
    func pk(of record: Int) -> Int64 {
        pks[representative[record]]
    }

    func isRepresentative(_ record: Int) -> Bool {
        representative[record] == record
    }

    /// Sets a to-one column before `write()`: the link goes in with the row.
    func setToOne(_ record: Int, column: Int, _ value: ColumnValue) {
        batch.values[record * width + column] = Cell(value, in: &batch.bytes)
    }

    // MARK: Steps

    /// Merges records that share an identity into the first of them, and finds the rows that
    /// exist with a few queries per batch (`lookUp`).
    func prepare() throws(SluiceError) {
        representative = Array(0..<count)
        fates.removeAll(keepingCapacity: true)
        guard !identity.isEmpty else {
            fates.append(contentsOf: repeatElement(.append, count: count))
            return
        }
        changedAttributes.removeAll(keepingCapacity: true)
        stored.removeAll(keepingCapacity: true)
        storedRow = Array(repeating: -1, count: count)
        storedBytes.removeAll(keepingCapacity: true)
        identities.reset(count: count)
        var firsts: [Int] = []
        // Merging copies cells between records but appends no bytes: `bytes` stays valid.
        try batch.bytes.withArena { bytes throws(SluiceError) in
            for record in 0..<count {
                guard let hash = IdentityTable.hash(identity.lazy.map { self.batch.values[record * self.width + $0] },
                                                    in: bytes) else {
                    fates.append(.append)
                    continue
                }
                if let target = identities.firstOrInsert(record, hash: hash, same: { sameIdentity(record, $0, bytes) }) {
                    if merge(record, into: target) { counts.updated += 1 } else { counts.unchanged += 1 }
                    representative[record] = target
                    fates.append(.merged)
                } else {
                    firsts.append(record)
                    fates.append(.write)
                }
            }
            try lookUp(firsts, bytes: bytes)
        }
    }

    private func sameIdentity(_ record: Int, _ other: Int, _ bytes: UnsafeRawBufferPointer) -> Bool {
        for column in identity
        where !batch.values[record * width + column].equals(batch.values[other * width + column], in: bytes, otherArena: bytes) {
            return false
        }
        return true
    }

    /// Inserts the new rows and updates the changed columns of existing ones.
    func write() throws(SluiceError) {
        pks = Array(repeating: 0, count: count)
        // Text and blobs are bound in place from the batch's arena, unchanged until `reset()`.
        try batch.bytes.withArena { bytes throws(SluiceError) in try storedBytes.withArena { storedBytes throws(SluiceError) in
            for record in 0..<count {
                switch fates[record] {
                case .merged:
                    continue
                case .append, .write:
                    try insert(record, bytes: bytes)
                    counts.inserted += 1
                case .update(let pk):
                    pks[record] = pk
                    if try updateRow(record, pk: pk, bytes: bytes, storedBytes: storedBytes) {
                        counts.updated += 1
                    } else {
                        counts.unchanged += 1
                    }
                }
            }
            try insertQueued(bytes: bytes)
        } }
    }

    func reset() {
        batch.removeAll()
        fates.removeAll(keepingCapacity: true)
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

    // MARK: Rows

    /// Copies what `record` mentions onto `target`; tells whether any value differed.
    /// To-many lists add up; other links are replaced.
    private func merge(_ record: Int, into target: Int) -> Bool {
        var changed = false
        for attribute in 0..<attributeCount {
            let value = batch.values[record * width + attribute]
            guard !value.isMissing else { continue }
            let same = batch.bytes.withUnsafeBytes { bytes in
                batch.values[target * width + attribute].equals(value, in: bytes, otherArena: bytes)
            }
            // Both cells' bytes are in this batch's arena: the target can point at them.
            if !same {
                batch.values[target * width + attribute] = value
                changed = true
            }
        }
        for relationship in 0..<relationshipCount {
            guard let link = batch.links[record * relationshipCount + relationship] else { continue }
            let index = target * relationshipCount + relationship
            if case .many(let added) = link, case .many(let list)? = batch.links[index] {
                batch.links[index] = .many(list + added)
            } else {
                batch.links[index] = link
            }
        }
        return changed
    }

    /// Inserts the row of `record`, numbered now: queued until `rowsPerInsert` rows are
    /// waiting, then written by one statement.
    private func insert(_ record: Int, bytes: UnsafeRawBufferPointer) throws(SluiceError) {
        guard let pk = try takePK() else {
            // The rows numbered before go in first: SQLite's random pick must see their pks taken.
            try insertQueued(bytes: bytes)
            try bindRow(record, pk: nil, to: insertOne, from: 1, bytes: bytes)
            try run(insertOne)
            pks[record] = connection.lastInsertRowID
            return
        }
        pks[record] = pk
        queued.append(record)
        guard rowsPerInsert > 1, queued.count == rowsPerInsert else { return }
        let insertMany = try manyRowsInsert()
        for (offset, record) in queued.enumerated() {
            try bindRow(record, pk: pks[record], to: insertMany, from: Int32(offset * (width + 1) + 1), bytes: bytes)
        }
        try run(insertMany)
        queued.removeAll(keepingCapacity: true)
    }

    private func manyRowsInsert() throws(SluiceError) -> Statement {
        if let insertMany { return insertMany }
        let statement = try Self.prepare(insertManySQL, connection, databaseName)
        insertMany = statement
        return statement
    }

    /// Inserts the rows still queued at the end of a batch, one statement each.
    private func insertQueued(bytes: UnsafeRawBufferPointer) throws(SluiceError) {
        for record in queued {
            try bindRow(record, pk: pks[record], to: insertOne, from: 1, bytes: bytes)
            try run(insertOne)
        }
        queued.removeAll(keepingCapacity: true)
    }

    /// Binds the pk (nil: SQLite chooses) and every column of a row, from parameter `first`.
    /// A missing value takes the attribute's default.
    private func bindRow(_ record: Int, pk: Int64?, to statement: Statement, from first: Int32,
                         bytes: UnsafeRawBufferPointer) throws(SluiceError) {
        try bind(statement, pk.map(ColumnValue.integer) ?? .null, at: first)
        for column in 0..<width {
            let cell = batch.values[record * width + column]
            let index = first + 1 + Int32(column)
            if cell.isMissing, column < attributeCount, let value = plan.attributes[column].defaultValue {
                try bind(statement, value, at: index)
            } else {
                try bind(statement, cell, bytes, at: index)
            }
        }
    }

    /// The pk for the next row, or nil once the table's largest pk is `Int64.max`.
    private func takePK() throws(SluiceError) -> Int64? {
        if case .unread = nextPK {
            let largest: Int64?
            do {
                let statement = try connection.prepare("SELECT max(\"pk\") FROM \(quoteIdentifier(plan.table))")
                _ = try statement.step()
                largest = statement.isNull(at: 0) ? nil : statement.int64(at: 0)
            } catch {
                throw error.sluiceError(database: databaseName)
            }
            nextPK = largest.map { $0 == .max ? .exhausted : .next($0 + 1) } ?? .next(1)
        }
        guard case .next(let pk) = nextPK else { return nil }
        nextPK = pk == .max ? .exhausted : .next(pk + 1)
        return pk
    }

    /// Writes the columns whose value changed; tells whether there were any.
    private func updateRow(_ record: Int, pk: Int64, bytes: UnsafeRawBufferPointer,
                           storedBytes: UnsafeRawBufferPointer) throws(SluiceError) -> Bool {
        var changed = changedAttributes[Int(storedRow[record])]
        for column in attributeCount..<width {
            let cell = batch.values[record * width + column]
            if !cell.isMissing, !cell.equals(stored[storedIndex(record, column)], in: bytes, otherArena: storedBytes) {
                changed.insert(column)
            }
        }
        guard !changed.isEmpty else { return false }
        let statement = try updateStatement(for: changed)
        var index: Int32 = 1
        for column in changed.members {
            try bind(statement, batch.values[record * width + column], bytes, at: index)
            index += 1
        }
        try bind(statement, .integer(pk), at: index)
        try run(statement)
        return true
    }

    // MARK: Find

    /// Finds the rows of `records` (the first record of each identity in the batch) and
    /// marks them for update with the row's pk, the attributes that differ and the stored
    /// to-one values.
    ///
    /// The query also returns the record each row matched (its index is bound next to the
    /// identity in the `VALUES` list), so a found row needs no key built and hashed; its
    /// attributes are compared where SQLite holds them, with no `String` per text.
    private func lookUp(_ records: [Int], bytes: UnsafeRawBufferPointer) throws(SluiceError) {
        let perTuple = identity.count + 1
        let perQuery = max(1, Self.maxParameters / perTuple)
        let first: Int32 = 2  // the first column value: after the record and the pk
        var start = 0
        while start < records.count {
            let end = min(start + perQuery, records.count)
            let size = Self.listSize(for: end - start, limit: perQuery)
            let statement = try lookupStatement(count: size)
            var index: Int32 = 1
            for record in records[start..<end] {
                for column in identity {
                    try bind(statement, batch.values[record * width + column], bytes, at: index)
                    index += 1
                }
                try bind(statement, .integer(Int64(record)), at: index)
                index += 1
            }
            // The rest of the list is NULL, which matches nothing.
            while index <= Int32(size * perTuple) {
                try bind(statement, .null, at: index)
                index += 1
            }
            do {
                while try statement.step() {
                    let record = Int(statement.int64(at: 0))
                    storedRow[record] = Int32(changedAttributes.count)
                    // Attributes are final once records are merged; to-ones get their value later.
                    var changed = ColumnSet(width: width)
                    for column in 0..<attributeCount {
                        let cell = batch.values[record * width + column]
                        if !cell.isMissing, !statement.column(first + Int32(column), holds: cell, in: bytes) {
                            changed.insert(column)
                        }
                    }
                    changedAttributes.append(changed)
                    for column in attributeCount..<width {
                        stored.append(statement.cell(at: first + Int32(column), into: &storedBytes))
                    }
                    fates[record] = .update(pk: statement.int64(at: first - 1))
                }
                statement.reset()
            } catch {
                statement.reset()
                throw error.sluiceError(database: databaseName)
            }
            start = end
        }
    }

    private func lookupStatement(count: Int) throws(SluiceError) -> Statement {
        if let statement = lookups[count] { return statement }
        let table = quoteIdentifier(plan.table)
        let identity = plan.identity.map { quoteIdentifier(plan.attributes[$0].column) }
        // Joined from a VALUES list (CROSS JOIN keeps that order): one index search per
        // identity (`(a, b) IN (VALUES …)` would scan the whole index). The last value of
        // each tuple is the record's index, returned first.
        let columns = (["pk"] + columnNames).map { "t.\(quoteIdentifier($0))" }.joined(separator: ", ")
        let tuple = "(\(Self.placeholders(identity.count + 1)))"
        let match = identity.enumerated().map { "t.\($1) = k.column\($0 + 1)" }.joined(separator: " AND ")
        let sql = "SELECT k.column\(identity.count + 1), \(columns) FROM (VALUES \(Array(repeating: tuple, count: count).joined(separator: ", "))) AS k "
            + "CROSS JOIN \(table) AS t ON \(match)"
        let statement = try Self.prepare(sql, connection, databaseName)
        lookups[count] = statement
        return statement
    }

    /// The length of a lookup's list for `count` values: a power of two (at least 16, at most
    /// `limit`), padded with NULLs, so a few prepared statements serve every batch. A
    /// statement per distinct count would pile up: one with thousands of parameters takes
    /// hundreds of kilobytes.
    static func listSize(for count: Int, limit: Int) -> Int {
        precondition(count <= limit, "callers cut their keys into chunks of at most `limit`")
        var size = 16
        while size < count { size *= 2 }
        return min(size, limit)
    }

    private func updateStatement(for columns: ColumnSet) throws(SluiceError) -> Statement {
        if let statement = updates[columns] { return statement }
        let assignments = columns.members.map { "\(quoteIdentifier(columnNames[$0])) = ?" }
        let sql = "UPDATE \(quoteIdentifier(plan.table)) SET \(assignments.joined(separator: ", ")) WHERE \"pk\" = ?"
        let statement = try Self.prepare(sql, connection, databaseName)
        updates[columns] = statement
        return statement
    }

    // MARK: SQLite calls

    private func bind(_ statement: Statement, _ cell: Cell, _ bytes: UnsafeRawBufferPointer, at index: Int32) throws(SluiceError) {
        do {
            try statement.bind(cell, in: bytes, at: index)
        } catch {
            throw error.sluiceError(database: databaseName)
        }
    }

    private func bind(_ statement: Statement, _ value: ColumnValue, at index: Int32) throws(SluiceError) {
        do {
            try statement.bind(value, at: index)
        } catch {
            throw error.sluiceError(database: databaseName)
        }
    }

    /// Runs an INSERT or UPDATE whose parameters are all bound again before each run.
    private func run(_ statement: Statement) throws(SluiceError) {
        do {
            _ = try statement.step()
            statement.resetKeepingBindings()
        } catch {
            statement.reset()
            throw error.sluiceError(database: databaseName)
        }
    }

    private static func prepare(_ sql: String, _ connection: Connection, _ databaseName: String) throws(SluiceError) -> Statement {
        do {
            return try connection.prepare(sql)
        } catch {
            throw error.sluiceError(database: databaseName)
        }
    }

    /// Rows per multi-row `INSERT` for rows of `width` columns (and the pk): 64, fewer when
    /// that would bind more than `maxParameters` values.
    static func rowsPerInsert(width: Int) -> Int {
        max(1, min(64, maxParameters / (width + 1)))
    }

    static func placeholders(_ count: Int) -> String {
        Array(repeating: "?", count: count).joined(separator: ", ")
    }
}

/// A set of column indexes, as a bit set: the key of a cached `UPDATE` statement.
struct ColumnSet: Hashable {
    /// Columns 0–63, inline: checking a found row for changes, once per record of a
    /// re-import, then allocates nothing (an array here was a fifth of a re-import's writer).
    private var first: UInt64 = 0
    /// Columns from 64 on, 64 per word; empty (no allocation) for narrower rows.
    private var more: [UInt64]

    init(width: Int) {
        more = width > 64 ? Array(repeating: 0, count: (width - 1) / 64) : []
    }

    mutating func insert(_ index: Int) {
        if index < 64 {
            first |= 1 << UInt64(index)
        } else {
            more[index / 64 - 1] |= 1 << UInt64(index % 64)
        }
    }

    var isEmpty: Bool { first == 0 && more.allSatisfy { $0 == 0 } }

    var members: [Int] {
        var result: [Int] = []
        for (wordIndex, word) in ([first] + more).enumerated() {
            var bits = word
            while bits != 0 {
                result.append(wordIndex * 64 + bits.trailingZeroBitCount)
                bits &= bits - 1
            }
        }
        return result
    }
}
