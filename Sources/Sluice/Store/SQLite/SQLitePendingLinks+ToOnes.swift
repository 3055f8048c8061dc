/// The to-ones of one entity that wait for the second pass, together: one row per record in
/// a temporary table keyed by the record's pk, holding the id of each to-one that waits
/// (NULL for one that does not) and where the record is in its input.
///
/// One row per record rather than per link halves what a record with two forward references
/// writes while the import runs, and lets the second pass set every to-one column of a row in
/// one `UPDATE`, so each row is rewritten once (`docs/architecture.md`, the second pass). New
/// rows' pks come in ascending order, so their waiting rows are appended to the table's b-tree.
/// Where the source's rows hold the ids themselves (`ToOneRows.keysInRows`), the waiting row
/// keeps only a flag per to-one, and that `UPDATE` reads the ids from the rows.
///
/// A row found again by its identity later in the import (`existingRow`) may already have a
/// waiting row: the later record wins, link by link — an id it names replaces the waiting
/// one, a link it makes or clears itself removes it, and a link it does not mention keeps it.
extension SQLitePendingLinks {
    struct ToOneRows {
        /// The entity's to-ones that link by id, in relationship order: column `k<slot>`.
        let plans: [LinkPlan]
        /// `"sluice_pending_row_<entity>"`, quoted.
        let table: String
        // Touched per record, a value inside the pending links' own (dynamic exclusivity
        // checks were a tenth of what a waiting record cost the writer on W2).
        /// Rows waiting (in the table or `buffered`).
        var count = 0
        /// Per slot, the rows whose id for it waits.
        var keys: [Int]
        /// Rows not yet inserted, `width` values each.
        var buffered: [ColumnValue] = []
        var width: Int { plans.count + 4 }
        let rowsPerInsert: Int
        let insertMany: String
        let insertOne: String
        /// The ids wait in the source's own rows, not here (`LinkPlan.keyColumn`): a column
        /// `k<slot>` holds 1 where the link waits. True while every to-one has such a column
        /// and every row that waited is one this import inserted (`EntityWriter.isNewRow`):
        /// then a row of the source table from the first waiting one up whose link is empty
        /// while its id column is not is one whose link waits, and the second pass finds
        /// them without joining this table. The first other row copies the ids in here.
        var keysInRows: Bool

        init(plans: [LinkPlan], entity: Int, newRow: Bool) {
            self.plans = plans
            keysInRows = newRow && plans.allSatisfy { $0.keyColumn != nil }
            table = "\"sluice_pending_row_\(entity)\""
            keys = Array(repeating: 0, count: plans.count)
            let width = plans.count + 4
            rowsPerInsert = max(1, min(128, SQLParameters.maxPerStatement / width))
            let row = "(" + SQLParameters.placeholders(width) + ")"
            insertOne = "INSERT OR REPLACE INTO \(table) VALUES \(row)"
            insertMany = "INSERT INTO \(table) VALUES " + Array(repeating: row, count: rowsPerInsert).joined(separator: ", ")
        }

        func slot(_ plan: LinkPlan) -> Int? { plans.firstIndex { $0.id == plan.id } }

        func waiting(_ plan: LinkPlan) -> Int { slot(plan).map { keys[$0] } ?? 0 }

        static func keyColumn(_ slot: Int) -> String { "\"k\(slot)\"" }

        /// Buffers the waiting row of the record `source` (`keys` by slot), and inserts the
        /// buffered rows once they fill a statement.
        mutating func append(_ source: Int64, keys: [ColumnValue?], input: Int, position: InputPosition,
                             sql: SQLiteRunner) throws(SluiceError) {
            buffered.append(.integer(source))
            for slot in plans.indices {
                let key = slot < keys.count ? keys[slot] : nil
                buffered.append(key.map { keysInRows ? .integer(1) : $0 } ?? .null)
                if key != nil { self.keys[slot] += 1 }
            }
            buffered.append(.integer(Int64(input)))
            buffered.append(.integer(Int64(position.line)))
            buffered.append(.integer(Int64(position.column)))
            count += 1
            if buffered.count == width * rowsPerInsert { try insertBuffered(sql) }
        }

        /// Inserts the buffered rows: a full group with one statement, the rest one by one.
        mutating func insertBuffered(_ sql: SQLiteRunner) throws(SluiceError) {
            guard !buffered.isEmpty else { return }
            if buffered.count == width * rowsPerInsert {
                try sql.run(insertMany, buffered)
            } else {
                var start = 0
                while start < buffered.count {
                    try sql.run(insertOne, buffered[start..<start + width])
                    start += width
                }
            }
            buffered.removeAll(keepingCapacity: true)
        }
    }

    /// Where the waiting rows of `entity` are in `toOneRows`, once one has waited.
    func toOneSlot(of entity: Int) -> Int? {
        entity < toOneSlots.count && toOneSlots[entity] >= 0 ? toOneSlots[entity] : nil
    }

    func hasWaitingToOnes(of entity: Int) -> Bool { toOneSlot(of: entity).map { toOneRows[$0].count > 0 } ?? false }

    mutating func addToOnes(_ plans: [LinkPlan], source: Int64, keys: [ColumnValue?], decided: [Bool], existingRow: Bool,
                            newRow: Bool, input: Int, position: InputPosition) throws(SluiceError) {
        guard let entity = plans.first?.source else { return }
        if let slot = toOneSlot(of: entity) {
            if toOneRows[slot].keysInRows, !newRow { try Self.copyKeysIn(&toOneRows[slot], sql: sql) }
            if existingRow, toOneRows[slot].count > 0 {
                try Self.replace(source, in: &toOneRows[slot], keys: keys, decided: decided, input: input, position: position,
                                 sql: sql)
                return
            }
        }
        guard keys.contains(where: { $0 != nil }) else { return }
        let slot: Int
        if let existing = toOneSlot(of: entity) { slot = existing } else { slot = try makeToOneRows(plans, entity: entity, newRow: newRow) }
        try toOneRows[slot].append(source, keys: keys, input: input, position: position, sql: sql)
    }

    /// Makes the waiting rows of `entity`, their table created (and emptied), at its first
    /// record whose links wait; returns their slot.
    private mutating func makeToOneRows(_ plans: [LinkPlan], entity: Int, newRow: Bool) throws(SluiceError) -> Int {
        let rows = ToOneRows(plans: plans, entity: entity, newRow: newRow)
        let keys = plans.indices.map { ToOneRows.keyColumn($0) + ", " }.joined()
        try sql.execute("""
            CREATE TEMP TABLE IF NOT EXISTS \(rows.table) (
              "source_pk" INTEGER PRIMARY KEY, \(keys)"input" INTEGER, "line" INTEGER, "column" INTEGER);
            DELETE FROM \(rows.table);
            """)
        if entity >= toOneSlots.count { toOneSlots += repeatElement(-1, count: entity + 1 - toOneSlots.count) }
        toOneSlots[entity] = toOneRows.count
        toOneRows.append(rows)
        return toOneRows.count - 1
    }

    /// Leaves `keysInRows`: copies each waiting id from the source's row into its column here.
    private static func copyKeysIn(_ rows: inout ToOneRows, sql: SQLiteRunner) throws(SluiceError) {
        try rows.insertBuffered(sql)
        rows.keysInRows = false
        let source = quoteIdentifier(rows.plans[0].sourceTable)
        for (slot, plan) in rows.plans.enumerated() {
            guard let column = plan.keyColumn else { continue }
            let key = ToOneRows.keyColumn(slot)
            try sql.run("UPDATE \(rows.table) AS p SET \(key) = (SELECT s.\(quoteIdentifier(column)) FROM \(source) AS s "
                + "WHERE s.\(sql.keys.quoted(plan.sourceTable)) = p.\"source_pk\") WHERE p.\(key) IS NOT NULL", [])
        }
    }

    /// A later record of a row that may have a waiting row: merges the two, link by link.
    private static func replace(_ source: Int64, in rows: inout ToOneRows, keys: [ColumnValue?], decided: [Bool],
                                input: Int, position: InputPosition, sql: SQLiteRunner) throws(SluiceError) {
        try rows.insertBuffered(sql)
        let columns = rows.plans.indices.map { ToOneRows.keyColumn($0) }.joined(separator: ", ")
        let old = try sql.rows("SELECT \(columns), \"input\", \"line\", \"column\" FROM \(rows.table) WHERE \"source_pk\" = ?", [.integer(source)]).first
        var merged: [ColumnValue] = [.integer(source)]
        var any = false
        var fresh = false
        for slot in rows.plans.indices {
            let previous = old.map { $0[slot] } ?? .null
            let key: ColumnValue
            if slot < keys.count, let new = keys[slot] {
                key = new
                fresh = true
            } else {
                key = slot < decided.count && decided[slot] ? .null : previous
            }
            if previous != .null { rows.keys[slot] -= 1 }
            if key != .null {
                rows.keys[slot] += 1
                any = true
            }
            merged.append(key)
        }
        if old != nil { rows.count -= 1 }
        guard any else {
            if old != nil { try sql.run("DELETE FROM \(rows.table) WHERE \"source_pk\" = ?", [.integer(source)]) }
            return
        }
        // Where the record is that names a waiting id: the later one when it named any.
        if fresh || old == nil {
            merged += [.integer(Int64(input)), .integer(Int64(position.line)), .integer(Int64(position.column))]
        } else if let old {
            merged += old.suffix(3)
        }
        try sql.run(rows.insertOne, merged)
        rows.count += 1
    }

    /// For the to-ones of one entity: the records whose links wait.
    func waiting(pass: [LinkPlan]) -> Int {
        if let plan = pass.first, plan.mayWaitAsToOne, let slot = toOneSlot(of: plan.source) { return toOneRows[slot].count }
        return pass.reduce(0) { $0 + waiting($1) }
    }

    mutating func resolve(_ pass: [LinkPlan], policy: (LinkPlan) -> Model.UnresolvedPolicy, sources: [String],
                          linked: (Int) -> Void) throws(SluiceError) -> [LinkOutcome] {
        guard let first = pass.first, first.mayWaitAsToOne, let slot = toOneSlot(of: first.source) else {
            var outcomes: [LinkOutcome] = []
            for plan in pass { outcomes.append(try resolve(plan, policy: policy(plan), sources: sources, linked: linked)) }
            return outcomes
        }
        try toOneRows[slot].insertBuffered(sql)
        return try resolveToOnes(pass, rows: toOneRows[slot], policy: policy, sources: sources, linked: linked)
    }

    /// Links the waiting to-ones `pass` of one entity: one `UPDATE` per slice of its waiting
    /// rows sets every column whose target exists, counting the links it changes
    /// (`LinkChangeCounter`); then each relationship's policy takes what is still missing.
    private func resolveToOnes(_ pass: [LinkPlan], rows: ToOneRows, policy: (LinkPlan) -> Model.UnresolvedPolicy,
                               sources: [String], linked: (Int) -> Void) throws(SluiceError) -> [LinkOutcome] {
        let counter: LinkChangeCounter
        do {
            counter = try LinkChangeCounter(connection: sql.connection, slots: rows.plans.count)
        } catch {
            throw error.sluiceError(database: sql.databaseName)
        }
        defer { counter.remove() }
        let slots = pass.map { rows.slot($0)! }
        let update = rows.keysInRows ? Self.updateFromRowsSQL(pass, slots: slots, keys: sql.keys)
            : Self.updateSQL(pass, slots: slots, rows: rows, keys: sql.keys)
        try linkSlices(rows, update: update, done: linked)
        var outcomes = slots.map { LinkOutcome(linked: counter.changed[$0]) }
        // A link is changed at most once: when every waiting one was, none is missing.
        if zip(slots, outcomes).allSatisfy({ rows.keys[$0] == $1.linked }) { return outcomes }

        var stubbed = false
        for (index, plan) in pass.enumerated() where outcomes[index].linked < rows.keys[slots[index]] {
            guard let column = plan.relatedByColumn else { continue }
            let waits = "p." + ToOneRows.keyColumn(slots[index])
            // The ids: here, or in the source's rows (`keysInRows`).
            var key = waits
            var from = "FROM \(rows.table) AS p "
            if rows.keysInRows, let keyColumn = plan.keyColumn {
                key = "s." + quoteIdentifier(keyColumn)
                from += "JOIN \(quoteIdentifier(plan.sourceTable)) AS s ON s.\(sql.keys.quoted(plan.sourceTable)) = p.\"source_pk\" "
            }
            let missing = from + "WHERE \(waits) IS NOT NULL AND NOT EXISTS "
                + "(SELECT 1 FROM \(quoteIdentifier(plan.targetTable)) AS t WHERE t.\(quoteIdentifier(column)) = \(key)\(sql.keys.inFeed("t")))"
            guard case .integer(let count)? = try sql.rows("SELECT count(*) \(missing)").first?.first, count > 0 else { continue }
            switch policy(plan) {
            case .stub:
                outcomes[index].stubs = try sql.run(StubRows.insert(into: plan.targetTable, idColumn: column, id: key,
                                                                    entity: plan.stubEntity, keys: sql.keys, missing: missing))
                stubbed = true
            case .null, .fail:
                let examples = try sql.rows("SELECT \(key), p.\"input\", p.\"line\", p.\"column\" \(missing) "
                    + "ORDER BY p.\"input\", p.\"line\", p.\"column\" LIMIT 3")
                try outcomes[index].leaveUnresolved(Int(count), examples: examples, plan: plan, policy: policy(plan), sources: sources)
            }
        }
        if stubbed {
            counter.reset()
            try linkSlices(rows, update: update, done: linked)
            for (index, slot) in slots.enumerated() { outcomes[index].linked += counter.changed[slot] }
        }
        return outcomes
    }

    /// The `UPDATE` of one slice of waiting rows (`?1` to `?2`, their pks): each to-one of
    /// `pass` takes its target's pk where the target exists and keeps its value where not; a
    /// row none of whose columns would change is not written.
    private static func updateSQL(_ pass: [LinkPlan], slots: [Int], rows: ToOneRows, keys: TableKeys) -> String {
        let source = quoteIdentifier(pass[0].sourceTable)
        let sourceKey = keys.quoted(pass[0].sourceTable)
        var set: [String] = []
        var joins: [String] = []
        var changes: [String] = []
        for (plan, slot) in zip(pass, slots) {
            guard case .column(_, let name) = plan.storage, let relatedBy = plan.relatedByColumn else { continue }
            let column = "s.\(quoteIdentifier(name))"
            let target = quoteIdentifier(plan.targetTable)
            let alias = quoteIdentifier("t\(slot)")
            let targetKey = keys.quoted(plan.targetTable)
            let key = "p." + ToOneRows.keyColumn(slot)
            set.append("\(quoteIdentifier(name)) = \(LinkChangeCounter.functionName)(\(slot), \(alias).\(targetKey), \(column))")
            // One target row per id, so that each row is changed (and counted) once: the
            // identity's unique index makes it so; for another attribute, the first row.
            joins.append(plan.relatedByIsIdentity
                ? "LEFT JOIN \(target) AS \(alias) ON \(alias).\(quoteIdentifier(relatedBy)) = \(key)\(keys.inFeed(alias))"
                : "LEFT JOIN \(target) AS \(alias) ON \(alias).\(targetKey) = "
                    + "(SELECT u.\(targetKey) FROM \(target) AS u WHERE u.\(quoteIdentifier(relatedBy)) = \(key)\(keys.inFeed("u")) LIMIT 1)")
            changes.append("\(column) IS NOT coalesce(\(alias).\(targetKey), \(column))")
        }
        return """
            UPDATE \(source) AS s SET \(set.joined(separator: ", "))
            FROM \(rows.table) AS p \(joins.joined(separator: " "))
            WHERE p."source_pk" BETWEEN ?1 AND ?2 AND s.\(sourceKey) = p."source_pk"
              AND (\(changes.joined(separator: " OR ")))
            """
    }

    /// The `UPDATE` of one slice (`?1` to `?2`, pks) when the ids are in the source's rows
    /// (`keysInRows`): a to-one whose column is empty while its id column is not waits, and
    /// takes its target's pk where the target exists. The rows are found by pk alone, not
    /// joined to the waiting rows: on W2 that join cost a fifth of the pass.
    private static func updateFromRowsSQL(_ pass: [LinkPlan], slots: [Int], keys: TableKeys) -> String {
        let source = quoteIdentifier(pass[0].sourceTable)
        var set: [String] = []
        var waiting: [String] = []
        for (plan, slot) in zip(pass, slots) {
            guard case .column(_, let name) = plan.storage, let relatedBy = plan.relatedByColumn,
                  let keyColumn = plan.keyColumn else { continue }
            let column = quoteIdentifier(name)
            let key = "s.\(quoteIdentifier(keyColumn))"
            let waits = "s.\(column) IS NULL AND \(key) IS NOT NULL"
            let target = "(SELECT t.\(keys.quoted(plan.targetTable)) FROM \(quoteIdentifier(plan.targetTable)) AS t WHERE t.\(quoteIdentifier(relatedBy)) = \(key)\(keys.inFeed("t"))"
                + (plan.relatedByIsIdentity ? ")" : " LIMIT 1)")
            set.append("\(column) = CASE WHEN \(waits) THEN \(LinkChangeCounter.functionName)(\(slot), \(target), NULL) "
                + "ELSE s.\(column) END")
            waiting.append("(\(waits))")
        }
        return "UPDATE \(source) AS s SET \(set.joined(separator: ", ")) "
            + "WHERE s.\(keys.quoted(pass[0].sourceTable)) BETWEEN ?1 AND ?2 AND (\(waiting.joined(separator: " OR ")))"
    }

    /// Runs `update` over the waiting rows in slices of `linksPerSlice` rows, in pk order;
    /// `done` is told the rows gone through after each.
    private func linkSlices(_ rows: ToOneRows, update: String, done: (Int) -> Void) throws(SluiceError) {
        let boundary = "SELECT \"source_pk\" FROM \(rows.table) WHERE \"source_pk\" >= ?1 ORDER BY \"source_pk\" LIMIT 1 OFFSET ?2"
        // From the first waiting row: with `keysInRows` a slice's rows are all the import's own.
        guard case .integer(var first)? = try sql.rows("SELECT min(\"source_pk\") FROM \(rows.table)").first?.first else { return }
        var through = 0
        while through < rows.count {
            let end: Int64
            if case .integer(let last)? = try sql.rows(boundary, [.integer(first), .integer(Int64(Self.linksPerSlice - 1))]).first?.first {
                end = last
            } else {
                end = .max
            }
            try sql.run(update, [.integer(first), .integer(end)])
            through = min(rows.count, through + Self.linksPerSlice)
            done(through)
            guard end < .max else { break }
            first = end + 1
        }
    }
}
