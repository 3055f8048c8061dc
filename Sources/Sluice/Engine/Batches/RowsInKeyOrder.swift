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
