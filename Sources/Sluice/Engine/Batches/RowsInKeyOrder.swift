/// Where an entity's next batch is expected among its table's rows: a re-import of the same
/// input meets the rows in the order their keys were issued, so a batch's records are most
/// likely the rows that follow the last batch's. `EntityWriter` reads those rows first (one
/// sequential read of the table, `EntityRowStore.findFollowing`), matches them to its records
/// by identity in memory (`IdentityMatcher`), and looks up only the records left over the
/// general way (`EntityRowStore.find`: an index search per record, several times the cost).
///
/// A row is matched only when every part of its identity holds exactly the record's value, and
/// the identity is unique in the table, so a matched row is the one the general lookup finds;
/// whatever is not matched takes the general lookup. The guess changes which lookup finds a
/// row, never what is found. `ImportOptions.fastPaths` false (`SLUICE_GENERAL_PATHS=1`) turns
/// it off.
///
/// A read that matched fewer than half of the rows it read (an input in another order, rows
/// of another entity or feed in between), or that read none (a new table's rows, all
/// inserted by this import: nothing follows the last batch's), makes the next `backoff`
/// batches skip it, doubling up to `maxBackoff` while the guess keeps failing: a wrong guess
/// costs at most one wasted read now and then, a sequential read being several times cheaper
/// than the lookups.
struct RowsInKeyOrder {
    /// Whether the store can read rows in key order (false once it said it cannot).
    private(set) var enabled: Bool
    /// The next read starts after this key; nil: at the table's first row.
    private(set) var after: Int64?
    private var skipping = 0
    private var backoff = 0
    static let maxBackoff = 32

    init(enabled: Bool) {
        self.enabled = enabled
    }

    /// Whether this batch reads the rows in key order first.
    mutating func tries() -> Bool {
        guard enabled else { return false }
        if skipping > 0 {
            skipping -= 1
            return false
        }
        return true
    }

    /// The read found `matched` of the `read` rows it read; nil: the store cannot read so.
    mutating func read(_ read: Int?, matched: Int) {
        guard let read else {
            enabled = false
            return
        }
        if read == 0 || matched * 2 < read {
            backoff = min(max(1, backoff * 2), Self.maxBackoff)
            skipping = backoff
        } else {
            backoff = 0
        }
    }

    /// The batch was written: the next one follows the largest key of the rows it found, or,
    /// when it found none, of the rows it inserted (a new table's rows are all new: its next
    /// read starts past them and reads nothing). Nil: it found and inserted nothing.
    mutating func written(largestFound: Int64?, largestInserted: Int64?) {
        if let next = largestFound ?? largestInserted { after = next }
    }
}

/// Matches rows read from the table to a batch's records by identity, in memory. A row is
/// first compared with the record after the one the last row matched (rows and records in
/// the same order: no hashing); failing that, its identity is hashed as `IdentityTable`
/// hashes a record's and looked up in the batch's table of identities (`EntityWriter`'s,
/// built when its records were merged), then compared part by part. Only the records
/// `wanted` (looked up, not found yet) are matched, each once.
struct IdentityMatcher {
    /// Indexes into the columns of the identity.
    private let identity: [Int]
    /// The same, as a set: a matched row holds the record's values there.
    let identityColumns: ColumnSet
    private let table: IdentityTable
    /// The records looked up, in batch order, and the index among them of the next one
    /// expected.
    private let records: [Int]
    private var next = 0
    private var wanted: [Bool]
    /// The identity of the row being matched, its bytes in `scratch`.
    private var parts: [Cell] = []
    private var scratch: [UInt8] = []
    /// How many rows were matched to a record.
    private(set) var matched = 0

    /// `records`: those to match, among `count` records of `width` columns; `table`: the
    /// batch's identities.
    init(identity: [Int], table: IdentityTable, records: [Int], count: Int, width: Int) {
        self.identity = identity
        var columns = ColumnSet(width: width)
        for column in identity { columns.insert(column) }
        identityColumns = columns
        self.table = table
        self.records = records
        var wanted = Array(repeating: false, count: count)
        for record in records { wanted[record] = true }
        self.wanted = wanted
        parts.reserveCapacity(identity.count)
    }

    /// The record whose identity `found` holds, if one is wanted; it is not wanted again.
    mutating func record(matching found: some FoundRow, in rows: CellRows) -> Int? {
        if next < records.count, wanted[records[next]], holdsIdentity(of: records[next], found, rows) {
            let record = records[next]
            wanted[record] = false
            matched += 1
            next += 1
            return record
        }
        parts.removeAll(keepingCapacity: true)
        scratch.removeAll(keepingCapacity: true)
        for column in identity { parts.append(found.cell(column, into: &scratch)) }
        let record: Int? = scratch.withUnsafeBytes { stored in
            // A NULL part matches no record: such records are inserted, never looked up.
            guard let hash = IdentityTable.hash(parts, in: stored) else { return nil }
            return table.first(hash: hash) { record in
                guard wanted[record] else { return false }
                for (part, column) in zip(parts, identity)
                where !rows[record, column].equals(part, in: rows.arena, otherArena: stored) {
                    return false
                }
                return true
            }
        }
        if let record {
            wanted[record] = false
            matched += 1
            // The rows after it are expected to be the records after it.
            next = Self.index(after: record, in: records)
        }
        return record
    }

    private func holdsIdentity(of record: Int, _ found: some FoundRow, _ rows: CellRows) -> Bool {
        for column in identity where !found.column(column, holds: rows[record, column], in: rows.arena) {
            return false
        }
        return true
    }

    /// The index in `records` (ascending) of the first record after `record`.
    private static func index(after record: Int, in records: [Int]) -> Int {
        var low = 0
        var high = records.count
        while low < high {
            let middle = (low + high) / 2
            if records[middle] <= record { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
