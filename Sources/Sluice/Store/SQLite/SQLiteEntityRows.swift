/// The rows of one entity's table in SQLite, a batch at a time: `IdentityLookup` finds,
/// `RowInserter` numbers and inserts, `RowUpdater` writes changed columns. The engine calls
/// in once per batch; the loops over rows run here, statically dispatched.
final class SQLiteEntityRows: EntityRowStore {
    private let lookup: IdentityLookup
    private let inserter: RowInserter
    private let updater: RowUpdater

    init(table: String, columns: [String], defaults: [ColumnValue?], identity: [Int], connection: Connection)
        throws(SluiceError)
    {
        inserter = try RowInserter(table: table, columns: columns, defaults: defaults, connection: connection)
        updater = RowUpdater(table: table, columns: columns, connection: connection)
        lookup = IdentityLookup(table: table, columns: columns, identity: identity, connection: connection)
    }

    var firstNewPK: Int64? { inserter.firstNewPK }

    func find(_ records: [Int], of rows: CellRows, into existing: ExistingRows) throws(SluiceError) {
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

    func insert(_ records: [Int], of rows: CellRows, pks: inout [Int64]) throws(SluiceError) {
        for record in records {
            pks[record] = try inserter.insert(record, of: rows)
        }
        try inserter.flush(rows)
    }

    func update(_ changes: [RowChange], of rows: CellRows) throws(SluiceError) {
        for change in changes {
            try updater.update(change.row, of: rows, changed: change.columns, pk: change.pk)
        }
    }
}
