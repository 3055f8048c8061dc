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
