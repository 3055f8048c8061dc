/// Ids looked up among the rows that follow the last batch's: records most often name their
/// targets in the order the targets were written (a feed's stop times name trips in the
/// order of `trips.txt`), so the ids a batch names for the first time are most likely those
/// of the rows after the last ones it found. One sequential read of that many rows
/// (`LinkStore.ids(after:limit:in:column:)`) finds them, where the `IN` lookup searches an
/// index per id: about 12,000 instructions an id for W3's trips, 3% of the cold import's
/// writer (callgrind, scale 0.05).
///
/// Only for an id that is its target's identity (`LinkPlan.relatedByIsIdentity`): unique in
/// the table, so the row read is the one the lookup finds. A row is taken only when its id
/// is one wanted, byte for byte (`KnownIDs`); the ids not found so go to the lookup as
/// before, so the guess changes which query finds a row, never what is found. A read that
/// matches fewer than half of its rows backs off (`RowsInKeyOrder`). `ImportOptions.fastPaths`
/// false (`SLUICE_GENERAL_PATHS=1`) turns it off.
extension LinkWriter {
    /// The rows of `keys` in the target of `plan`, whose ids are in `column`.
    mutating func pks(of keys: Set<ColumnValue>, _ plan: LinkPlan, column: String) throws(SluiceError) -> KnownIDs {
        var found = KnownIDs()
        var rest = Array(keys)
        if targetOrder[plan.id].tries() {
            var wanted = KnownIDs()
            for key in rest { wanted.set(key, 0) }
            let rows = try links.ids(after: targetOrder[plan.id].after, limit: rest.count, in: plan.targetTable, column: column)
            for row in rows where wanted[row.id] != nil { found.set(row.id, row.pk) }
            targetOrder[plan.id].read(rows.count, matched: found.count)
            if !found.isEmpty { rest.removeAll { found[$0] != nil } }
        }
        if !rest.isEmpty { found.merge(try links.pks(of: rest, in: plan.targetTable, column: column)) }
        targetOrder[plan.id].written(largestFound: found.largestPK, largestInserted: nil)
        return found
    }
}
