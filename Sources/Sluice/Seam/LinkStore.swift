/// The links of a batch as the engine asks for them (`LinkWriter`, `ParentIdentity`): ids
/// looked up, links made and unmade, an ordered to-many's places. Each store writes them its
/// own way — SQLite a prepared statement per pair (`Store/SQLite/SQLiteRunner+Links.swift`), in
/// process, in microseconds; PostgreSQL one set-based statement per relationship and batch
/// (`Store/PostgreSQL/PostgresRunner+ToMany.swift`), since each statement is a round trip.
///
/// Every call covers a whole batch of one relationship, never one link: the existential costs
/// nothing measurable here.
protocol LinkStore: AnyObject {
    /// The pks of the rows of `table` whose `column` holds one of `keys` (a few queries for any
    /// number of keys, never one per key). Ids of links and of parents in an identity are
    /// looked up this way once per batch. Texts are matched by their bytes, as the database
    /// compares them (`KnownIDs`).
    func pks(of keys: [ColumnValue], in table: String, column: String) throws(SluiceError) -> KnownIDs
    /// The ids in `column` and the pks of the rows of `table` after the row `after` (nil: from
    /// the first), in pk order, at most `limit` of them: one sequential read, where looking
    /// the same ids up (`pks(of:in:column:)`) searches an index per id (`TargetsInKeyOrder`).
    func ids(after: Int64?, limit: Int, in table: String, column: String) throws(SluiceError) -> [(id: ColumnValue, pk: Int64)]
    /// Whether `table` holds any row.
    func hasRows(_ table: String) throws(SluiceError) -> Bool
    /// Makes the links of `plan` that a batch knows now, `pairs` of (source pk, target pk),
    /// each only where it changes something; returns the rows changed. The pairs' order does
    /// not matter: each row or join-table pair is named at most once.
    func link(_ plan: LinkPlan, _ pairs: [LinkPair]) throws(SluiceError) -> Int
    /// Empties the to-one `plan` of the rows `sources` (a later record's link waits for an id:
    /// the link they hold is no longer the record's).
    func clear(_ plan: LinkPlan, sources: [Int64]) throws(SluiceError)
    /// Unlinks, for each of `sources`, the links of `plan` (a to-many) it has now that
    /// `keeping` does not name (`merge: replace` given a list, or `null` for the to-many); an
    /// ordered to-many's place goes with its link. Returns the rows changed.
    func unlinkOthers(_ plan: LinkPlan, sources: [Int64], keeping: [LinkPair]) throws(SluiceError) -> Int
    /// Makes an ordered to-many's links with their places, each link named once: a link that
    /// is not there is made with its place (counted), one that is there takes its place where
    /// `plan.merge` says (`LinkWriter+ToMany.swift`), counted when `countsMove`. Returns the
    /// links counted.
    func linkInPlace(_ plan: LinkPlan, _ links: [PlacedLink]) throws(SluiceError) -> Int
    /// For each of `sources`, the largest place of its links of an ordered to-many (sources
    /// without a placed link are left out).
    func largestPlaces(_ plan: LinkPlan, of sources: [Int64]) throws(SluiceError) -> [Int64: Int64]
}

/// A link a batch makes: the source's pk and the target's.
struct LinkPair: Hashable {
    var source: Int64
    var target: Int64
}

/// A link of an ordered to-many with its place in the list.
struct PlacedLink {
    var source: Int64
    var target: Int64
    var place: Int64
    /// Whether taking its place counts as a link made: not for a nested record this batch
    /// inserted, which was linked (and counted) with its own row.
    var countsMove: Bool
}
