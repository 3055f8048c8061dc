/// The rows of one entity's table in SQLite, a batch at a time: `IdentityLookup` finds,
/// `RowInserter` numbers and inserts, `RowUpdater` writes changed columns. The engine calls
/// in once per batch; the loops over rows run here, statically dispatched. A value the
/// database refuses names its record (`SluiceError.refusal(of:at:)`).
final class SQLiteEntityRows: EntityRowStore {
    /// The entity whose rows these are, for messages.
    private let entity: String
    private let lookup: IdentityLookup
    /// Reached once per batch (`insert`), so the rows' loop runs on a value the writing
    /// thread holds, without a dynamic exclusivity check per row. Readable by the tests:
    /// which statements the inserts take.
    private(set) var inserter: RowInserter
    private let updater: RowUpdater
    let startedEmpty: Bool

    /// `key`: the table's key column, `filled` the columns the store fills itself (`TableKeys`);
    /// `startedEmpty`: the import created the table; `journaled`: the file keeps a journal
    /// (`RowInserter`).
    init(entity: String, table: String, key: String, columns: [String], filled: [(column: String, fill: TableDefinition.Fill)],
         issued: Int64, defaults: [ColumnValue?], identity: [Int], startedEmpty: Bool, journaled: Bool, connection: Connection)
        throws(SluiceError)
    {
        self.entity = entity
        self.startedEmpty = startedEmpty
        inserter = try RowInserter(table: table, key: key, columns: columns, filled: filled, issued: issued, defaults: defaults,
                                   rowPerStatement: journaled && !startedEmpty, connection: connection)
        updater = RowUpdater(table: table, key: key, columns: columns, connection: connection)
        lookup = IdentityLookup(table: table, key: key, columns: columns, identity: identity, connection: connection)
    }

    var firstNewPK: Int64? { inserter.firstNewPK }

    func find(_ records: [Int], of rows: CellRows, into existing: inout ExistingRows) throws(SluiceError) {
        var start = 0
        while start < records.count {
            let end = min(start + lookup.rowsPerQuery, records.count)
            let found = try lookup.find(records[start..<end], of: rows)
            while try found.next() {
                existing.add(found, for: found.row, pk: found.pk, of: rows)
            }
            start = end
        }
    }

    func findFollowing(_ key: Int64?, limit: Int, reading: ColumnSet, of rows: CellRows,
                       matching matcher: inout IdentityMatcher, into existing: inout ExistingRows) throws(SluiceError) -> Int? {
        let found = try lookup.following(key, limit: limit, reading: reading)
        var read = 0
        while try found.next() {
            read += 1
            if let record = matcher.record(matching: found, in: rows) {
                existing.add(found, for: record, pk: found.pk, of: rows, same: matcher.identityColumns)
            }
        }
        return read
    }

    func insert(_ records: [Int], of rows: CellRows, pks: inout [Int64]) throws(SluiceError) {
        do {
            try Self.insert(records, of: rows, pks: &pks, with: &inserter)
        } catch {
            throw refused(error, row: inserter.refusedRow, of: rows)
        }
    }

    private static func insert(_ records: [Int], of rows: CellRows, pks: inout [Int64],
                               with inserter: inout RowInserter) throws(SluiceError) {
        for record in records {
            pks[record] = try inserter.insert(record, of: rows)
        }
        try inserter.flush(rows)
    }

    func update(_ changes: [RowChange], of rows: CellRows) throws(SluiceError) {
        for change in changes {
            do {
                try updater.update(change.row, of: rows, changed: change.columns, pk: change.pk)
            } catch {
                throw refused(error, row: change.row, of: rows)
            }
        }
    }

    /// `error`, when it is the database's refusal of a value, as the refusal of `row`'s record.
    private func refused(_ error: SluiceError, row: Int?, of rows: CellRows) -> SluiceError {
        guard error.kind == .data, let row, let place = rows.place(of: row) else { return error }
        return error.refusal(of: entity, at: place)
    }
}
