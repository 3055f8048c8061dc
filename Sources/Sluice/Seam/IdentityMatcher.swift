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
