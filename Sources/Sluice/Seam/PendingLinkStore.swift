/// Forward references waiting for the second pass (`SQLitePendingLinks`, `PostgresPendingLinks`).
///
/// The second pass links the to-ones of one entity together, in one pass (`passes`, the same
/// for every store), so that each of its rows is rewritten once, not once per relationship
/// (`docs/architecture.md`, the second pass); any other relationship is a pass of its own.
///
/// Each store's is a value: the link writer owns it with the writers, on the thread that
/// writes (`BatchWriting`), and the second pass takes it back from there.
protocol PendingLinkStore {
    var isEmpty: Bool { get }
    /// `order`: an ordered to-many's place for the link (nil for any other relationship).
    mutating func add(plan: LinkPlan, source: Int64, key: ColumnValue, input: Int, position: InputPosition,
                      order: Int64?) throws(SluiceError)
    /// The to-ones of one record (`plans`, an entity's to-ones that link by id): `keys[i]` is
    /// the id of `plans[i]` when its link waits, nil otherwise; `decided[i]` says the record
    /// made or cleared that link itself. `existingRow`: the row was there before its batch, so
    /// links of an earlier record of the same row may be waiting, and this record's win.
    /// `newRow`: this import inserted the row (`EntityWriter.isNewRow`).
    mutating func addToOnes(_ plans: [LinkPlan], source: Int64, keys: [ColumnValue?], decided: [Bool], existingRow: Bool,
                            newRow: Bool, input: Int, position: InputPosition) throws(SluiceError)
    /// Whether to-ones of `entity` wait in `addToOnes`'s rows, which a later record of the
    /// same row must then update (false for a store that keeps no such rows).
    func hasWaitingToOnes(of entity: Int) -> Bool
    /// How many links of `plan` wait.
    func waiting(_ plan: LinkPlan) -> Int
    /// Drops the waiting links of `plan`, a to-many, from the rows `sources`: a later record of
    /// the same row decided the list (`merge: replace`, or `null`), so the ids of an earlier
    /// record's list that still wait are no longer its links.
    mutating func forget(_ plan: LinkPlan, sources: [Int64]) throws(SluiceError)
    /// The largest place of the links of `plan`, an ordered to-many, that wait from each of
    /// `sources` (absent: none waits): a later `merge: add` list goes after them too.
    mutating func largestWaitingPlaces(_ plan: LinkPlan, of sources: [Int64]) throws(SluiceError) -> [Int64: Int64]
    /// What a pass's progress counts: its waiting links, or for several to-ones linked
    /// together, the records whose links wait.
    func waiting(pass: [LinkPlan]) -> Int
    /// Links what can be linked now, then applies `policy` to the rest; `linked` is told how
    /// many of `waiting(pass:)` are done as they are (for progress). One outcome per plan.
    mutating func resolve(_ pass: [LinkPlan], policy: (LinkPlan) -> Model.UnresolvedPolicy, sources: [String],
                          linked: (Int) -> Void) throws(SluiceError) -> [LinkOutcome]
    /// Links what can be linked now of one relationship, then applies `policy` to the rest.
    mutating func resolve(_ plan: LinkPlan, policy: Model.UnresolvedPolicy, sources: [String],
                          linked: (Int) -> Void) throws(SluiceError) -> LinkOutcome
}

extension PendingLinkStore {
    mutating func addToOnes(_ plans: [LinkPlan], source: Int64, keys: [ColumnValue?], decided: [Bool], existingRow: Bool,
                            newRow: Bool, input: Int, position: InputPosition) throws(SluiceError) {
        for (plan, key) in zip(plans, keys) {
            if let key { try add(plan: plan, source: source, key: key, input: input, position: position, order: nil) }
        }
    }

    func hasWaitingToOnes(of entity: Int) -> Bool { false }

    /// The relationships with links waiting, in the order and groups the second pass links
    /// them (`plans` in model order): the waiting to-ones of an entity that link by id form one
    /// pass, where the first of them is; any other relationship is a pass of its own.
    func passes(_ plans: [LinkPlan]) -> [[LinkPlan]] {
        var passes: [[LinkPlan]] = []
        var grouped = Set<Int>()
        for plan in plans where waiting(plan) > 0 {
            guard plan.mayWaitAsToOne else {
                passes.append([plan])
                continue
            }
            guard grouped.insert(plan.source).inserted else { continue }
            passes.append(plans.filter { $0.source == plan.source && $0.mayWaitAsToOne && waiting($0) > 0 })
        }
        return passes
    }

    func waiting(pass: [LinkPlan]) -> Int {
        pass.reduce(0) { $0 + waiting($1) }
    }

    mutating func resolve(_ pass: [LinkPlan], policy: (LinkPlan) -> Model.UnresolvedPolicy, sources: [String],
                          linked: (Int) -> Void) throws(SluiceError) -> [LinkOutcome] {
        var outcomes: [LinkOutcome] = []
        var before = 0
        for plan in pass {
            outcomes.append(try resolve(plan, policy: policy(plan), sources: sources) { linked(before + $0) })
            before += waiting(plan)
        }
        return outcomes
    }
}
