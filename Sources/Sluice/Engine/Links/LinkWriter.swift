/// Makes the links of a batch (`docs/import-semantics.md`, relationships): what a record names by id is looked
/// up with one `IN` query per relationship; nested records are linked by the rows they got;
/// what cannot be found yet waits in the store (`PendingLinkStore`) and is linked after the last batch.
///
/// Links are written only where they change something: a to-one goes in with its row when
/// its target is known by then; the other links of a batch that are known are made together
/// per relationship (`LinkStore.link`), so a re-import makes no write.
///
/// A value, owned with the entity writers by the thread that writes the batch
/// (`BatchWriting`): the writers are passed in, changed in place, and its state is read per
/// link without dynamic exclusivity checks.
struct LinkWriter {
    let plans: [[LinkPlan]]
    let links: any LinkStore
    /// A value, owned with this writer on the thread that writes (`PendingLinkStore`).
    var pending: any PendingLinkStore
    /// Indexes of this import's new tables, built before a statement looks rows up by them.
    let indexes: SecondaryIndexes?
    /// Per plan id: ids found in the database before this batch's rows were written
    /// (`KnownIDs`), in an array by plan id: read per link.
    ///
    /// Kept from batch to batch when the id is the target's identity (`keepsKnownIDs`): rows
    /// are only added while an import reads, and a row's identity never changes, so an id found
    /// once names the same row until the import ends. A re-import's stop times name the same
    /// few thousand stops in every batch: each is then looked up once, not once per batch.
    /// Holds at most `knownIDsLimit` ids, or one batch's ids when they are more: a batch whose
    /// new ids would take it over the limit empties it first (`lookUpKnownIDs`), so that memory
    /// stays bounded whatever the input. Emptied only at the start of the next batch, it would
    /// pass the limit by a batch's ids first and double its arrays: W3's trip ids would hold
    /// 4.7 MB instead of 3.0 at the Core Data update's peak (massif, scale 1).
    private var known: [KnownIDs]
    private let keepsKnownIDs: [Bool]
    static let knownIDsLimit = 32_768
    /// Per plan id of a to-one: per record of the batch, the row its id names as
    /// `lookUpKnownIDs` found it (nil: none), so that `fillToOneColumns` does not look the id
    /// up again; empty when the ids were not looked up this batch.
    private var foundPKs: [[Int64?]]
    /// Per plan id: ids of the batch's own records in the target, built when first needed.
    private var batchIDs: [KnownIDs?]
    /// Per plan id: where the next batch's ids are expected among the target's rows
    /// (`LinkWriter+TargetsInKeyOrder.swift`).
    var targetOrder: [RowsInKeyOrder]
    /// Per target table: whether it held no row when the import began (asked once).
    private var emptyAtStart: [String: Bool] = [:]
    /// The links of the plan being written that are known now, made together
    /// (`LinkStore.link`) once the batch's records are through.
    var pairs: [LinkPair] = []

    /// Per entity: its to-ones that link by id, whose links may wait for the second pass
    /// together (`writeToOnes`).
    let waitingToOnes: [[LinkPlan]]
    /// Per slot of `waitingToOnes`: one record's waiting ids, and whether it decided each link
    /// itself (reused from record to record).
    private var toOneKeys: [ColumnValue?]
    private var toOneDecided: [Bool]
    /// Per slot: the rows whose target is known now (`LinkPair`s, made after the batch's records).
    private var toOnePairs: [[LinkPair]]
    /// Per slot: rows written before this batch whose link now waits for an id, so the link
    /// they hold is no longer the record's (emptied now; the second pass may set it again).
    private var toOneCleared: [[Int64]]
    private let toOneSlots: [[ToOneSlot]]

    /// `fastPaths`: whether ids are first looked for among the target rows that follow the
    /// last batch's (`LinkWriter+TargetsInKeyOrder.swift`).
    init(plans: [[LinkPlan]], links: any LinkStore, pending: any PendingLinkStore, indexes: SecondaryIndexes? = nil,
         fastPaths: Bool = FastPaths.enabledByDefault) {
        self.plans = plans
        let ids = (plans.joined().map(\.id).max() ?? -1) + 1
        known = Array(repeating: KnownIDs(), count: ids)
        var keeps = Array(repeating: false, count: ids)
        for plan in plans.joined() { keeps[plan.id] = plan.relatedByIsIdentity }
        keepsKnownIDs = keeps
        targetOrder = keeps.map { RowsInKeyOrder(enabled: fastPaths && $0) }
        batchIDs = Array(repeating: nil, count: ids)
        foundPKs = Array(repeating: [], count: ids)
        waitingToOnes = plans.map { $0.filter(\.mayWaitAsToOne) }
        toOneSlots = waitingToOnes.map { toOnes in
            toOnes.compactMap { plan in
                guard let column = plan.toOneIndex else { return nil }
                return ToOneSlot(relationship: plan.relationship, column: column, target: IDLookup(plan))
            }
        }
        let slots = waitingToOnes.map(\.count).max() ?? 0
        toOneKeys = Array(repeating: nil, count: slots)
        toOneDecided = Array(repeating: false, count: slots)
        toOnePairs = Array(repeating: [], count: slots)
        toOneCleared = Array(repeating: [], count: slots)
        self.links = links
        self.pending = pending
        self.indexes = indexes
    }

    // MARK: Before the rows

    /// Forgets the ids looked up for the last batch that may not name the same rows now.
    mutating func beginBatch() {
        for id in known.indices where !known[id].isEmpty && !keepsKnownIDs[id] {
            known[id].removeAll()
        }
        for id in batchIDs.indices { batchIDs[id] = nil }
        for id in foundPKs.indices where !foundPKs[id].isEmpty { foundPKs[id].removeAll(keepingCapacity: true) }
    }

    /// Before any of the batch's rows: tells the indexes which columns its links are about
    /// to fill, the first time a batch holds a link of a relationship whose column has an
    /// index made early. A to-one's column whose index its entity's writer keeps in order is
    /// that writer's to watch (`EarlyIndexOrder`); a to-many filling it through its inverse
    /// drops it.
    func noteFilledColumns(_ writers: [EntityWriter]) throws(SluiceError) {
        guard let indexes, !indexes.early.isEmpty || !indexes.keptInOrder.isEmpty else { return }
        for entity in writers.indices where !writers[entity].isEmpty {
            for plan in plans[entity] {
                guard let (table, column) = plan.filledColumn, indexes.isEarly(table: table, column: column),
                      plan.toOneIndex == nil || !indexes.isKeptInOrder(table: table, column: column),
                      writers[entity].holdsLink(plan.relationship) else { continue }
                try indexes.willFill(table: table, column: column)
            }
        }
    }

    /// Looks up, per relationship of `entities`, the ids the batch's records name.
    mutating func lookUpKnownIDs(_ writers: [EntityWriter], of entities: [Int]) throws(SluiceError) {
        for entity in entities where !writers[entity].isEmpty {
            for plan in plans[entity] {
                guard let column = plan.relatedByColumn, try mayHoldRows(plan, writers: writers) else { continue }
                var keys = idsToLookUp(plan, of: writers[entity])
                guard !keys.isEmpty else { continue }
                if !known[plan.id].isEmpty, known[plan.id].count + keys.count > Self.knownIDsLimit {
                    // Full: forget the earlier batches' ids, and look up all of this batch's.
                    known[plan.id].removeAll()
                    keys = idsToLookUp(plan, of: writers[entity])
                }
                let found = try pks(of: keys, plan, column: column)
                if plan.toOneIndex != nil { addFoundPKs(found, plan, of: writers[entity]) }
                known[plan.id].merge(found)
            }
        }
    }

    /// The ids the batch's records name through `plan` that are not known yet. For a to-one,
    /// also the row each record's id names among those known (`foundPKs`).
    private mutating func idsToLookUp(_ plan: LinkPlan, of writer: borrowing EntityWriter) -> Set<ColumnValue> {
        var keys = Set<ColumnValue>()
        let ids = known[plan.id]
        let toOne = plan.toOneIndex != nil
        var pks: [Int64?] = []
        if toOne {
            swap(&pks, &foundPKs[plan.id])
            pks.removeAll(keepingCapacity: true)
            pks.append(contentsOf: repeatElement(nil, count: writer.count))
        }
        defer { if toOne { swap(&pks, &foundPKs[plan.id]) } }
        // Records naming the same target come together (a trip's stop times): one key per run
        // of them, not per record; the runs' keys are then looked up together
        // (`KnownIDs.rows(of:)`, which asks memory for many at once).
        var runKeys: [ColumnValue] = []
        var runOfRecord: [Int32] = toOne ? Array(repeating: -1, count: writer.count) : []
        for record in 0..<writer.count where writer.isRepresentative(record) {
            switch writer.link(record, plan.relationship) {
            case .one(.key(let key))?:
                if runKeys.isEmpty || !KnownIDs.same(runKeys[runKeys.count - 1], key) { runKeys.append(key) }
                if toOne { runOfRecord[record] = Int32(runKeys.count - 1) }
            case .many(let targets)?:
                for case .key(let key) in targets where ids.isEmpty || ids[key] == nil { keys.insert(key) }
            default: break
            }
        }
        let runPKs = ids.rows(of: runKeys)
        for run in runKeys.indices where runPKs[run] == nil { keys.insert(runKeys[run]) }
        if toOne {
            for record in runOfRecord.indices where runOfRecord[record] >= 0 { pks[record] = runPKs[Int(runOfRecord[record])] }
        }
        return keys
    }

    /// Whether `key` is the id of the record before (`previous`), as the database compares ids.
    private static func repeats(_ previous: (key: ColumnValue, pk: Int64?)?, _ key: ColumnValue) -> Bool {
        guard let previous else { return false }
        return KnownIDs.same(previous.key, key)
    }

    /// Sets `foundPKs` of the records of a to-one whose ids were just `found`.
    private mutating func addFoundPKs(_ found: KnownIDs, _ plan: LinkPlan, of writer: borrowing EntityWriter) {
        guard !found.isEmpty else { return }
        var previous: (key: ColumnValue, pk: Int64?)?
        for record in 0..<writer.count where writer.isRepresentative(record) && foundPKs[plan.id][record] == nil {
            guard case .one(.key(let key))? = writer.link(record, plan.relationship) else { continue }
            if !Self.repeats(previous, key) { previous = (key, found[key]) }
            foundPKs[plan.id][record] = previous?.pk
        }
    }

    /// Whether the target table of `plan` may hold a row to find: not while it was empty
    /// when the import began and its entity has inserted nothing since (a new database's
    /// forward references: every id is then looked up in the second pass instead, and the
    /// batch's own records by `batchID`).
    private mutating func mayHoldRows(_ plan: LinkPlan, writers: [EntityWriter]) throws(SluiceError) -> Bool {
        if writers[plan.target].counts.inserted > 0 { return true }
        if let empty = emptyAtStart[plan.targetTable] { return !empty }
        let empty = try !links.hasRows(plan.targetTable)
        emptyAtStart[plan.targetTable] = empty
        return !empty
    }

    /// Gives each to-one whose target is known now its column value, so it is written with
    /// the row: ids found in the database, nested records of entities already written, and
    /// `null`. Call just before the entity's `write()`.
    func fillToOneColumns(of entity: Int, written: Set<Int>, writers: inout [EntityWriter]) {
        for plan in plans[entity] {
            guard let column = plan.toOneIndex else { continue }
            let ids = known[plan.id]
            let found = foundPKs[plan.id]
            var previous: (key: ColumnValue, pk: Int64?)?  // as in `lookUpKnownIDs`
            for record in 0..<writers[entity].count where writers[entity].isRepresentative(record) {
                // Looked up already (`idsToLookUp`): the link itself need not be read.
                if !found.isEmpty, let pk = found[record] {
                    writers[entity].setToOne(record, column: column, pk: pk)
                    continue
                }
                switch writers[entity].link(record, plan.relationship) {
                case .clear?:
                    writers[entity].setToOne(record, column: column, .null)
                case .one(.key(let key))?:
                    guard found.isEmpty, !ids.isEmpty else { break }
                    if !Self.repeats(previous, key) { previous = (key, ids[key]) }
                    if let pk = previous?.pk { writers[entity].setToOne(record, column: column, pk: pk) }
                case .one(.record(let handle))?:
                    if written.contains(handle.entity) {
                        let pk = writers[handle.entity].pk(of: handle.index)
                        writers[entity].setToOne(record, column: column, pk: pk)
                    }
                default:
                    break
                }
            }
        }
    }

    // MARK: After the rows

    /// Makes every link the batch's rows did not carry, or records it as pending.
    mutating func writeLinks(_ writers: inout [EntityWriter]) throws(SluiceError) {
        for entity in writers.indices where !writers[entity].isEmpty {
            let made = try writeLinks(of: writers[entity], writers: writers)
            writers[entity].counts.links += made
        }
    }

    /// The links of one entity's records; returns how many were made or unmade.
    private mutating func writeLinks(of writer: borrowing EntityWriter, writers: [EntityWriter]) throws(SluiceError) -> Int {
        var made = 0
        let toOnes = waitingToOnes[writer.entity]
        if !toOnes.isEmpty { made += try writeToOnes(toOnes, of: writer, writers: writers) }
        for plan in plans[writer.entity] {
            pairs.removeAll(keepingCapacity: true)
            guard let column = plan.toOneIndex else {
                made += try writeToMany(plan, of: writer, writers: writers)
                continue
            }
            if plan.relatedByColumn != nil { continue }  // `writeToOnes`
            for record in 0..<writer.count where writer.isRepresentative(record) {
                guard let link = writer.link(record, plan.relationship) else { continue }
                made += try writeToOne(link, of: record, in: writer, plan: plan, column: column, writers: writers)
            }
            if !pairs.isEmpty { made += try links.link(plan, pairs) }
        }
        return made
    }

    /// The to-ones of each record that may wait for the second pass (`waitingToOnes`): those
    /// not known yet wait together, one entry per record (`PendingLinkStore.addToOnes`).
    /// Returns the links made.
    private mutating func writeToOnes(_ toOnes: [LinkPlan], of writer: borrowing EntityWriter, writers: [EntityWriter])
        throws(SluiceError) -> Int
    {
        var made = 0
        let slots = toOneSlots[writer.entity]
        let earlierMayWait = pending.hasWaitingToOnes(of: writer.entity)
        for slot in slots.indices {
            toOnePairs[slot].removeAll(keepingCapacity: true)
            toOneCleared[slot].removeAll(keepingCapacity: true)
        }
        // Per record, the slots it decided and those whose id waits, as bits: most records'
        // links are all decided with the row and pass nothing on, so the lists handed to
        // `pending` (`toOneKeys`, `toOneDecided`) are filled only for a record that does.
        var decided = ColumnSet(width: slots.count)
        var waiting = ColumnSet(width: slots.count)
        for record in 0..<writer.count where writer.isRepresentative(record) {
            decided.removeAll()
            waiting.removeAll()
            for (slot, toOne) in slots.enumerated() where writer.mentions(record, toOne.relationship) {
                if let changes = writer.changesToOne(record, toOne.column) {
                    // Written with the row; a change there counts as a link made.
                    if changes { made += 1 }
                    decided.insert(slot)
                    continue
                }
                guard case .one(let target)? = writer.link(record, toOne.relationship) else { continue }
                if let pk = resolve(target, slots[slot].target, writers: writers) {
                    toOnePairs[slot].append(LinkPair(source: writer.pk(of: record), target: pk))
                    decided.insert(slot)
                } else if case .key(let key) = target {
                    // A nested record always has its row by now; only ids can wait.
                    toOneKeys[slot] = key
                    waiting.insert(slot)
                    // The later record wins, whatever the batch: the link it names is not the
                    // one the row holds (as for a row first written in this batch, which has none).
                    if let stored = writer.storedValue(record, slots[slot].column), stored != .null {
                        toOneCleared[slot].append(writer.pk(of: record))
                    }
                }
            }
            // A new row has no links waiting from an earlier record; an existing one may.
            let existing = earlierMayWait && !writer.wasInserted(record)
            guard !waiting.isEmpty || (existing && !decided.isEmpty) else { continue }
            for slot in slots.indices {
                toOneDecided[slot] = decided.contains(slot)
                if !waiting.contains(slot) { toOneKeys[slot] = nil }
            }
            try pending.addToOnes(toOnes, source: writer.pk(of: record), keys: toOneKeys, decided: toOneDecided,
                                  existingRow: existing, newRow: writer.isNewRow(record), input: writer.source(of: record),
                                  position: writer.position(of: record))
        }
        for slot in slots.indices where !toOneCleared[slot].isEmpty {
            // Not counted: the second pass counts the link it makes, the report the one it cannot.
            try links.clear(toOnes[slot], sources: toOneCleared[slot])
        }
        // Targets known now, linked together per relationship (one statement on PostgreSQL).
        for slot in slots.indices where !toOnePairs[slot].isEmpty {
            made += try links.link(toOnes[slot], toOnePairs[slot])
        }
        return made
    }

    /// What `writeToOnes` reads of a to-one per record, taken from its plan once.
    private struct ToOneSlot {
        var relationship: Int
        /// Among the row's columns.
        var column: Int
        var target: IDLookup
    }

    /// What `resolve` reads of a plan: taken once, since copying a whole plan per link (its
    /// strings retained and released) showed on W2's writer.
    struct IDLookup {
        var plan: Int
        var target: Int
        var attribute: Int?

        init(_ plan: LinkPlan) {
            self.plan = plan.id
            target = plan.target
            attribute = plan.relatedByAttribute
        }
    }

    /// A to-one linked by a nested record (`writeToOnes` takes those linked by id).
    private mutating func writeToOne(_ link: Link, of record: Int, in writer: borrowing EntityWriter, plan: LinkPlan, column: Int,
                            writers: [EntityWriter]) throws(SluiceError) -> Int {
        // Written with the row when known then; a change there counts as a link made.
        if let changes = writer.changesToOne(record, column) { return changes ? 1 : 0 }
        guard case .one(let target) = link else { return 0 }
        guard let pk = try resolve(target, plan: plan, writers: writers) else {
            try deferLink(target, of: record, in: writer, plan: plan)
            return 0
        }
        pairs.append(LinkPair(source: writer.pk(of: record), target: pk))
        return 0
    }

    /// The row a link target names, if it is known now: a nested record's row, an id found
    /// in the database before the batch, or an id of a record of this batch.
    mutating func resolve(_ target: LinkTarget, plan: LinkPlan, writers: [EntityWriter]) throws(SluiceError) -> Int64? {
        resolve(target, IDLookup(plan), writers: writers)
    }

    private mutating func resolve(_ target: LinkTarget, _ lookup: IDLookup, writers: [EntityWriter]) -> Int64? {
        switch target {
        case .record(let handle):
            return writers[handle.entity].pk(of: handle.index)
        case .key(let key):
            // Most lookups of a cold import find nothing to look in: no hashing then.
            if !known[lookup.plan].isEmpty, let pk = known[lookup.plan][key] { return pk }
            return batchID(key, lookup, writers: writers)
        }
    }

    private mutating func batchID(_ key: ColumnValue, _ lookup: IDLookup, writers: [EntityWriter]) -> Int64? {
        guard let attribute = lookup.attribute else { return nil }
        if batchIDs[lookup.plan] == nil {
            let target = lookup.target
            var ids = KnownIDs()
            for record in 0..<writers[target].count where writers[target].isRepresentative(record) {
                if let value = writers[target].value(record, attribute), value != .null { ids.set(value, writers[target].pk(of: record)) }
            }
            batchIDs[lookup.plan] = ids
        }
        guard let ids = batchIDs[lookup.plan], !ids.isEmpty else { return nil }
        return ids[key]
    }

    /// `order`: an ordered to-many's place for the link (`LinkWriter+ToMany.swift`).
    mutating func deferLink(_ target: LinkTarget, of record: Int, in writer: borrowing EntityWriter, plan: LinkPlan,
                   order: Int64? = nil) throws(SluiceError) {
        // A nested record always has its row by now; only ids can be waiting.
        guard case .key(let key) = target else { return }
        try pending.add(plan: plan, source: writer.pk(of: record), key: key,
                        input: writer.source(of: record), position: writer.position(of: record), order: order)
    }
}
