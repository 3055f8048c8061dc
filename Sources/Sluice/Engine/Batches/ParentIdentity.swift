/// Identities through a to-one (`docs/model.md#identity-through-the-parent`): the to-one
/// columns an entity's identity lists get their values before the entity's records are
/// looked up, so that nested records without ids of their own (a person's phones, by owner
/// and position) find their rows on a re-import.
///
/// A batch's entities are written in `levels`: an entity whose identity goes through a to-one
/// comes after the entity that to-one points at, whose rows (and so pks) then exist. Before
/// such an entity's records are looked up, each identity column takes
///
/// * the pk of the parent record the record is nested under, through a to-many of the parent
///   stored in that column (the to-one's inverse): the usual case, and it wins;
/// * else the record's own value at the to-one's key: a nested object (its row), an id (looked
///   up among the target's rows, this batch's included, with one `IN` query per batch), or
///   `null`.
///
/// An id that names no row yet (a forward reference to a later batch) leaves the identity
/// incomplete: the record is inserted as new and linked in the second pass, as any record
/// with a missing identity part. A model without such identities has one level, and nothing
/// here runs.
final class ParentIdentity {
    /// The storage entities in the order their rows are found and written: each level after
    /// the levels of the targets of its identities' to-ones.
    let levels: [[Int]]
    /// Per entity: the to-ones of its identity, as its own links.
    private let parts: [[LinkPlan]]
    /// Per entity: the to-manys of other entities stored in one of its identity's columns.
    private let parents: [[(plan: LinkPlan, column: Int)]]
    private let links: any LinkStore

    init(writers: [EntityWriter], plans: [[LinkPlan]], links: any LinkStore) {
        self.links = links
        var parts: [[LinkPlan]] = []
        var parents: [[(plan: LinkPlan, column: Int)]] = []
        for writer in writers {
            let own = writer.plan.identityRelationships.map { plans[writer.entity][$0] }
            parts.append(own)
            var found: [(plan: LinkPlan, column: Int)] = []
            for part in own {
                guard case .column(_, let name) = part.storage, let column = part.toOneIndex else { continue }
                for case let plan in plans.joined() where plan.target == writer.entity {
                    if case .inverseColumn(_, name) = plan.storage { found.append((plan, column)) }
                }
            }
            parents.append(found)
        }
        self.parts = parts
        self.parents = parents
        levels = Self.levels(parts.map { Set($0.map(\.target)) })
    }

    /// Levels of entities, each after the targets it depends on. A cycle (which `sluice check`
    /// refuses) puts what is left in a last level, whose identities then stay incomplete.
    private static func levels(_ dependencies: [Set<Int>]) -> [[Int]] {
        var placed = Set<Int>()
        var levels: [[Int]] = []
        var left = Array(dependencies.indices)
        while !left.isEmpty {
            var level = left.filter { dependencies[$0].isSubset(of: placed) }
            if level.isEmpty { level = left }
            levels.append(level)
            placed.formUnion(level)
            left.removeAll { placed.contains($0) }
        }
        return levels
    }

    /// Whether `entity`'s identity goes through a to-one.
    func hasParts(_ entity: Int) -> Bool { !parts[entity].isEmpty }

    /// Sets the identity columns of `writer`'s records from the targets in `written` (the
    /// entities of the levels done, whether this batch had records of them or not): call
    /// before its `prepare()`. (A target not written yet, in a cycle of a model built in code,
    /// leaves the column missing.)
    func fill(_ entity: Int, writers: inout [EntityWriter], written: Set<Int>) throws(SluiceError) {
        for plan in parts[entity] {
            guard let column = plan.toOneIndex, written.contains(plan.target) else { continue }
            var ids = KnownIDs()
            if let relatedBy = plan.relatedByColumn {
                ids = try links.pks(of: keys(of: plan, in: writers[entity]), in: plan.targetTable, column: relatedBy)
            }
            for record in 0..<writers[entity].count {
                switch writers[entity].link(record, plan.relationship) {
                case .clear?:
                    writers[entity].setToOne(record, column: column, .null)
                case .one(.key(let key))?:
                    if let pk = ids[key] { writers[entity].setToOne(record, column: column, .integer(pk)) }
                case .one(.record(let handle))? where handle.entity >= 0:
                    let pk = writers[handle.entity].pk(of: handle.index)
                    writers[entity].setToOne(record, column: column, .integer(pk))
                default:
                    break
                }
            }
        }
        for (plan, column) in parents[entity] where written.contains(plan.source) {
            let parent = plan.source
            // Every record's own list, not only the row's: under `merge: replace` an earlier
            // record's list is no longer the row's, yet the records nested in it were imported
            // in their turn, under this parent (as they are when each record is a batch of its own).
            for record in 0..<writers[parent].count {
                guard case .many(let targets)? = writers[parent].ownLink(record, plan.relationship) else { continue }
                let pk = ColumnValue.integer(writers[parent].pk(of: record))
                for case .record(let handle) in targets where handle.entity == entity {
                    writers[entity].setToOne(handle.index, column: column, pk)
                }
            }
            if writers[parent].mergedRecords { markGenerations(entity, parent: parent, plan: plan, column: column, writers: &writers) }
        }
    }

    /// A row's records in one batch decide its nested records in turn: a list under `merge:
    /// replace`, or a `null`, unlinks the nested rows it does not name, whose identity went
    /// through this row; a later list naming the same place (or key) then finds no row and
    /// makes a new one, as it does when each record is a batch of its own. Such records are
    /// marked as a later generation (`EntityWriter.setGeneration`). A key first named after
    /// such a change may have had a row in the database, unlinked by it: also a new row.
    private func markGenerations(_ entity: Int, parent: Int, plan: LinkPlan, column: Int, writers: inout [EntityWriter]) {
        var recordsOfRow: [Int64: [Int]] = [:]
        for record in 0..<writers[parent].count where writers[parent].ownLink(record, plan.relationship) != nil {
            recordsOfRow[writers[parent].pk(of: record), default: []].append(record)
        }
        let keyColumns = writers[entity].identityColumns.filter { $0 != column }
        for records in recordsOfRow.values where records.count > 1 {
            var changes = 0
            var keys: [[ColumnValue?]: (linked: Bool, generation: Int)] = [:]
            for record in records {
                var named = Set<[ColumnValue?]>()
                if case .many(let targets)? = writers[parent].ownLink(record, plan.relationship) {
                    for case .record(let handle) in targets where handle.entity == entity {
                        let key = keyColumns.map { writers[entity].value(handle.index, $0) }
                        var state = keys[key] ?? (linked: changes == 0, generation: changes == 0 ? 0 : 1)
                        if state.generation > 0 { writers[entity].setGeneration(handle.index, state.generation, parentColumn: column) }
                        state.linked = true
                        keys[key] = state
                        named.insert(key)
                    }
                    guard plan.merge == .replace else { continue }
                }
                for (key, state) in keys where state.linked && !named.contains(key) {
                    keys[key] = (linked: false, generation: state.generation + 1)
                }
                changes += 1
            }
        }
    }

    /// Counts the links to their parents that `writer`'s new rows were written with, as the
    /// parents' links (found rows matched their parent already: nothing changed there). Call
    /// after its `write()`.
    func countLinks(_ entity: Int, writers: inout [EntityWriter], written: Set<Int>) {
        for (plan, column) in parents[entity] where written.contains(plan.source) {
            var made = 0
            let writer = writers[entity]
            let parent = writers[plan.source]
            for record in 0..<parent.count where parent.isRepresentative(record) {
                guard case .many(let targets)? = parent.link(record, plan.relationship) else { continue }
                for case .record(let handle) in targets
                where handle.entity == entity && writer.isRepresentative(handle.index) && writer.wasInserted(handle.index)
                    && writer.value(handle.index, column) != nil {
                    made += 1
                }
            }
            writers[plan.source].counts.links += made
        }
    }

    /// The ids `writer`'s records give the to-one of `plan`.
    private func keys(of plan: LinkPlan, in writer: borrowing EntityWriter) -> [ColumnValue] {
        var keys = Set<ColumnValue>()
        for record in 0..<writer.count {
            if case .one(.key(let key))? = writer.link(record, plan.relationship) { keys.insert(key) }
        }
        return Array(keys)
    }
}
