/// A to-many's links, made together for the whole batch (a few statements per relationship on
/// PostgreSQL, however many records and links: `LinkStore`).
///
/// * A list replaces the links under `merge: replace`: the links it does not name are
///   unlinked first, then its targets known now are linked; `null` unlinks them all.
/// * Targets not known yet wait for the second pass (`PendingLinkStore.add`).
///
/// Ordered to-manys (`docs/model.md`, ordered relationships) also give each link its place in
/// the list, in the position column beside it (`LinkPlan.positionColumn`: the target's table
/// for a to-many stored by its inverse, the join table otherwise).
///
/// * A place is the element's index among the array's non-null elements, from 0. A target
///   listed twice keeps its first place.
/// * `merge: replace`: every listed link takes its index; a link already at its index is not
///   written, so a re-import writes nothing and a reordered list rewrites the places that moved.
/// * `merge: add`: new links go after the source's largest place (its base, plus their
///   index); links already there keep theirs (as adding to an `NSOrderedSet`). A link without
///   a place (made before the relationship was ordered, or from its to-one side) gets one.
/// * A link whose target waits for the second pass carries its place there.
extension LinkWriter {
    /// Makes the batch's links of `plan`, a to-many (stored by its inverse or a join table);
    /// returns the links made or unmade.
    mutating func writeToMany(_ plan: LinkPlan, of writer: borrowing EntityWriter, writers: [EntityWriter]) throws(SluiceError) -> Int {
        let ordered = plan.positionColumn != nil
        try forgetDecided(plan, of: writer)
        let bases = ordered && plan.merge == .add ? try largestPlaces(plan, writer: writer) : [:]
        var unlinking: [Int64] = []
        var placed: [PlacedLink] = []
        var linked = Set<Int64>()
        var waiting = Set<ColumnValue>()
        for record in 0..<writer.count where writer.isRepresentative(record) {
            guard let link = writer.link(record, plan.relationship) else { continue }
            let source = writer.pk(of: record)
            guard case .many(let targets) = link else {
                unlinking.append(source)
                continue
            }
            if plan.merge == .replace || writer.clearsOthersFirst(record, plan.relationship) { unlinking.append(source) }
            // A row inserted by this batch has no links yet, so its list starts at 0.
            let base = bases[source].map { $0 + 1 } ?? 0
            linked.removeAll(keepingCapacity: true)
            waiting.removeAll(keepingCapacity: true)
            for (index, target) in targets.enumerated() {
                guard let pk = try resolve(target, plan: plan, writers: writers) else {
                    if !ordered {
                        try deferLink(target, of: record, in: writer, plan: plan)
                    } else if case .key(let key) = target, waiting.insert(key).inserted {
                        try deferLink(target, of: record, in: writer, plan: plan, order: base + Int64(index))
                    }
                    continue
                }
                if ordered {
                    guard linked.insert(pk).inserted else { continue }
                    // A nested record inserted by this batch was linked with its own row (and
                    // counted there); taking its place is part of that link.
                    let nestedNew = if case .record(let handle) = target { writers[handle.entity].wasInserted(handle.index) } else { false }
                    placed.append(PlacedLink(source: source, target: pk, place: base + Int64(index), countsMove: !nestedNew))
                }
                pairs.append(LinkPair(source: source, target: pk))
            }
        }
        var made = 0
        if !unlinking.isEmpty {
            try ensureIndex(plan)
            made += try links.unlinkOthers(plan, sources: unlinking, keeping: pairs)
        }
        if ordered {
            if !placed.isEmpty { made += try links.linkInPlace(plan, distinctPlaces(plan, placed)) }
        } else if !pairs.isEmpty {
            made += try links.link(plan, distinctPairs(plan))
        }
        return made
    }

    /// A list that replaces the links (`merge: replace`, or `null`) replaces those that still
    /// wait from an earlier record of the same row, in an earlier batch, too: the later record
    /// decides, as it does in one batch (`EntityBatch.merge`) and for to-ones. Only a row that
    /// was there before this batch can have any.
    private mutating func forgetDecided(_ plan: LinkPlan, of writer: borrowing EntityWriter) throws(SluiceError) {
        guard pending.waiting(plan) > 0 else { return }
        var sources: [Int64] = []
        for record in 0..<writer.count where writer.isRepresentative(record) && !writer.wasInserted(record) {
            guard let link = writer.link(record, plan.relationship) else { continue }
            if case .many = link, plan.merge != .replace, !writer.clearsOthersFirst(record, plan.relationship) { continue }
            sources.append(writer.pk(of: record))
        }
        try pending.forget(plan, sources: sources)
    }

    /// `merge: add`: the largest place of each source that was in the database before the
    /// batch (a row the batch inserted has no links yet).
    private mutating func largestPlaces(_ plan: LinkPlan, writer: borrowing EntityWriter) throws(SluiceError) -> [Int64: Int64] {
        var sources: [Int64] = []
        for record in 0..<writer.count where writer.isRepresentative(record) && !writer.wasInserted(record) {
            if case .many? = writer.link(record, plan.relationship), !writer.clearsOthersFirst(record, plan.relationship) {
                sources.append(writer.pk(of: record))
            }
        }
        guard !sources.isEmpty else { return [:] }
        try ensureIndex(plan)
        // Links still waiting (forward references of an earlier batch) took their places too.
        return try links.largestPlaces(plan, of: sources)
            .merging(pending.largestWaitingPlaces(plan, of: sources), uniquingKeysWith: max)
    }

    /// Unlinking and the largest places find an inverse's rows by its column: its index is
    /// built before them, and only then (a new table's indexes wait for the end of the load;
    /// links are made by pk).
    private func ensureIndex(_ plan: LinkPlan) throws(SluiceError) {
        if case .inverseColumn(_, let column) = plan.storage { try indexes?.ensure(table: plan.targetTable, columns: [column]) }
    }

    /// The queued pairs with each row named once, as one statement per pair would have left
    /// the rows: an inverse column's row keeps the last source that claimed it (two records of
    /// a batch listing one target: the later wins), a join table holds a pair once.
    private func distinctPairs(_ plan: LinkPlan) -> [LinkPair] {
        if case .inverseColumn = plan.storage {
            var seen = Set<Int64>()
            return pairs.reversed().filter { seen.insert($0.target).inserted }.reversed()
        }
        var seen = Set<LinkPair>()
        return pairs.filter { seen.insert($0).inserted }
    }

    /// The places with each row named once, as one statement per link would have left the
    /// rows: a target stored by its inverse keeps the last source that claimed it.
    private func distinctPlaces(_ plan: LinkPlan, _ placed: [PlacedLink]) -> [PlacedLink] {
        guard case .inverseColumn = plan.storage else { return placed }  // each source's targets are distinct
        var seen = Set<Int64>()
        return placed.reversed().filter { seen.insert($0.target).inserted }.reversed()
    }
}
