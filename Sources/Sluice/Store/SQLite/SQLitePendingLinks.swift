/// SQLite's second pass (`PendingLinkStore`): links whose target was not known when their
/// batch was written, because the target comes later in the input, or never. They wait in temporary tables of the import's connection — on disk,
/// not in memory — and are linked after the last batch with set-based statements over the
/// id-to-pk mapping that the target's table and its identity index already are.
///
/// * The to-ones of an entity wait together, one row per record keyed by the record's pk
///   with one id column per to-one (`SQLitePendingLinks+ToOnes.swift`), and are linked in one
///   `UPDATE` per slice that sets all of them (joined to the waiting rows, or reading the ids
///   from the rows themselves where they hold them): each row is rewritten once, however
///   many of its links waited.
/// * A to-many's links wait in a table of their own, one row per link, and are linked with
///   one statement per slice (`UPDATE … FROM` of the inverse column, `INSERT … SELECT` into
///   the join table).
///
/// What is still missing then follows the relationship's `unresolved` policy: `null` leaves
/// the link empty and reports it, `stub` creates target rows holding only the id, `fail`
/// stops the import (which then rolls back).
///
/// A value, owned with the link writer by the thread that writes the batches (`BatchWriting`)
/// and handed back for the second pass: what it counts and buffers per waiting link is
/// reached without dynamic exclusivity checks.
struct SQLitePendingLinks: PendingLinkStore {
    let sql: SQLiteRunner
    /// Indexed by plan id (numbered from 0): how many links each has waiting (its table
    /// exists once it has one), and the rows not yet inserted, `columns` values each. They go
    /// in `rowsPerInsert` at a time, since a statement's own overhead (bind, step, reset)
    /// costs more than a row. Arrays, not dictionaries: a link can wait per record.
    private var counts: [Int] = []
    private var buffered: [[ColumnValue]] = []
    /// The to-ones' waiting rows of each source entity one has waited for, and per entity
    /// where they are in it (-1: none): found per record by an index, not an optional.
    var toOneRows: [ToOneRows] = []
    var toOneSlots: [Int] = []
    /// Plans whose table has an index on its sources (`forget`).
    private var indexedForForgetting = Set<Int>()
    private static let columns = 5
    private static let rowsPerInsert = 128
    private static let row = "(" + Array(repeating: "?", count: columns).joined(separator: ", ") + ")"
    private static let rows = Array(repeating: row, count: rowsPerInsert).joined(separator: ", ")
    private static let orderedRow = "(" + Array(repeating: "?", count: columns + 1).joined(separator: ", ") + ")"
    private static let orderedRows = Array(repeating: orderedRow, count: rowsPerInsert).joined(separator: ", ")

    init(sql: SQLiteRunner) {
        self.sql = sql
    }

    var isEmpty: Bool { !counts.contains { $0 > 0 } && !toOneRows.contains { $0.count > 0 } }

    private func waiting(_ plan: Int) -> Int { plan < counts.count ? counts[plan] : 0 }

    /// How many links of `plan` wait for the second pass.
    func waiting(_ plan: LinkPlan) -> Int {
        if plan.mayWaitAsToOne { return toOneSlot(of: plan.source).map { toOneRows[$0].waiting(plan) } ?? 0 }
        return waiting(plan.id)
    }

    /// The temporary table of a relationship's waiting links.
    private static func table(_ plan: Int) -> String { "\"sluice_pending_\(plan)\"" }

    /// `order`: an ordered to-many's place for the link, in a sixth column of its table.
    mutating func add(plan: LinkPlan, source: Int64, key: ColumnValue, input: Int, position: InputPosition,
             order: Int64? = nil) throws(SluiceError) {
        if plan.id >= counts.count {
            counts += repeatElement(0, count: plan.id + 1 - counts.count)
            buffered += repeatElement([], count: plan.id + 1 - buffered.count)
        }
        let ordered = plan.ordered
        if counts[plan.id] == 0 {
            try sql.execute("""
                CREATE TEMP TABLE IF NOT EXISTS \(Self.table(plan.id)) (
                  "source_pk" INTEGER NOT NULL, "key", "input" INTEGER, "line" INTEGER, "column" INTEGER\(ordered ? ", \"position\" INTEGER" : ""));
                DELETE FROM \(Self.table(plan.id));
                """)
        }
        buffered[plan.id].append(.integer(source))
        buffered[plan.id].append(key)
        buffered[plan.id].append(.integer(Int64(input)))
        buffered[plan.id].append(.integer(Int64(position.line)))
        buffered[plan.id].append(.integer(Int64(position.column)))
        if ordered { buffered[plan.id].append(order.map(ColumnValue.integer) ?? .null) }
        counts[plan.id] += 1
        if buffered[plan.id].count == Self.columns(ordered) * Self.rowsPerInsert { try insertBuffered(plan.id, ordered: ordered) }
    }

    private static func columns(_ ordered: Bool) -> Int { ordered ? columns + 1 : columns }

    mutating func forget(_ plan: LinkPlan, sources: [Int64]) throws(SluiceError) {
        guard waiting(plan.id) > 0, !sources.isEmpty else { return }
        try indexSources(plan)
        let list = "[" + sources.map(String.init).joined(separator: ",") + "]"
        counts[plan.id] -= try sql.run("DELETE FROM \(Self.table(plan.id)) WHERE \"source_pk\" IN (SELECT \"value\" FROM json_each(?))",
                                       [.text(list)])
    }

    mutating func largestWaitingPlaces(_ plan: LinkPlan, of sources: [Int64]) throws(SluiceError) -> [Int64: Int64] {
        guard plan.ordered, waiting(plan.id) > 0, !sources.isEmpty else { return [:] }
        try indexSources(plan)
        let list = "[" + sources.map(String.init).joined(separator: ",") + "]"
        var found: [Int64: Int64] = [:]
        for row in try sql.rows("SELECT \"source_pk\", max(\"position\") FROM \(Self.table(plan.id)) "
                                + "WHERE \"source_pk\" IN (SELECT \"value\" FROM json_each(?)) GROUP BY \"source_pk\"", [.text(list)]) {
            if case .integer(let source) = row[0], case .integer(let largest) = row[1] { found[source] = largest }
        }
        return found
    }

    /// Flushes the plan's buffered rows and indexes its table by source, when first needed: a
    /// row's second record in a later batch is rare, and the index would slow every waiting
    /// link's insert.
    private mutating func indexSources(_ plan: LinkPlan) throws(SluiceError) {
        try insertBuffered(plan.id, ordered: plan.ordered)
        if indexedForForgetting.insert(plan.id).inserted {
            try sql.execute("CREATE INDEX IF NOT EXISTS \"sluice_pending_\(plan.id)_source\" ON \(Self.table(plan.id)) (\"source_pk\")")
        }
    }

    /// Inserts a plan's buffered rows: full groups with one statement, the rest one by one.
    private mutating func insertBuffered(_ plan: Int, ordered: Bool) throws(SluiceError) {
        guard plan < buffered.count, !buffered[plan].isEmpty else { return }
        let rows = buffered[plan]
        let insert = "INSERT INTO \(Self.table(plan)) VALUES "
        let columns = Self.columns(ordered)
        if rows.count == columns * Self.rowsPerInsert {
            try sql.run(insert + (ordered ? Self.orderedRows : Self.rows), rows)
        } else {
            let row = ordered ? Self.orderedRow : Self.row
            var start = 0
            while start < rows.count {
                try sql.run(insert + row, rows[start..<start + columns])
                start += columns
            }
        }
        buffered[plan].removeAll(keepingCapacity: true)
    }

    /// Links what can be linked now, then applies `policy` to the rest. `sources` names the
    /// inputs by index, for positions; `linked` is told how many waiting links are done after
    /// each slice of them (for progress). Throws for `fail` when something is still missing.
    mutating func resolve(_ plan: LinkPlan, policy: Model.UnresolvedPolicy, sources: [String],
                          linked: (Int) -> Void = { _ in }) throws(SluiceError) -> LinkOutcome
    {
        var outcome = LinkOutcome()
        guard waiting(plan.id) > 0, let column = plan.relatedByColumn else { return outcome }
        try insertBuffered(plan.id, ordered: plan.ordered)
        let target = quoteIdentifier(plan.targetTable)
        let relatedBy = quoteIdentifier(column)
        let pending = Self.table(plan.id)
        outcome.linked = try link(plan, pending: pending, target: target, relatedBy: relatedBy, done: linked)
        // Each waiting link changes at most one row: when all of them did, none is missing.
        if outcome.linked == waiting(plan.id) { return outcome }

        let missing = "FROM \(pending) AS p WHERE NOT EXISTS "
            + "(SELECT 1 FROM \(target) AS t WHERE t.\(relatedBy) = p.\"key\"\(sql.keys.inFeed("t")))"
        guard case .integer(let count)? = try sql.rows("SELECT count(*) \(missing)").first?.first, count > 0 else {
            return outcome
        }
        switch policy {
        case .stub:
            outcome.stubs = try sql.run(StubRows.insert(into: plan.targetTable, idColumn: column, id: "p.\"key\"",
                                                        entity: plan.stubEntity, keys: sql.keys, missing: missing))
            outcome.linked += try link(plan, pending: pending, target: target, relatedBy: relatedBy, done: linked)
        case .null, .fail:
            let rows = try sql.rows("SELECT p.\"key\", p.\"input\", p.\"line\", p.\"column\" \(missing) ORDER BY p.rowid LIMIT 3")
            try outcome.leaveUnresolved(Int(count), examples: rows, plan: plan, policy: policy, sources: sources)
        }
        return outcome
    }

    /// Waiting links per statement of the second pass. A relationship's links are linked in
    /// slices of the pending table's rowids, so that progress can say how far it is; a slice
    /// this big costs no more per link than one statement for all of them. The rowids run
    /// from 1 up, in input order: the table is emptied when its first link comes, and only
    /// appended to afterwards, but `forget` may leave gaps, so they can run past the count.
    static let linksPerSlice = 65_536

    /// Links every pending id of `plan` whose target row now exists, one set-based statement
    /// per slice; `done` is told the links gone through after each.
    private func link(_ plan: LinkPlan, pending: String, target: String, relatedBy: String,
                      done: (Int) -> Void) throws(SluiceError) -> Int
    {
        let statement: String
        // A subquery: an UPDATE's FROM clause does not show its tables' rowids.
        let slice = "(SELECT * FROM \(pending) WHERE rowid BETWEEN ?1 AND ?2) AS p"
        switch plan.storage {
        case .column(_, let name):
            let source = quoteIdentifier(plan.sourceTable)
            let column = quoteIdentifier(name)
            let sourceKey = sql.keys.quoted(plan.sourceTable)
            let targetKey = sql.keys.quoted(plan.targetTable)
            statement = """
                UPDATE \(source) AS s SET \(column) = t.\(targetKey)
                FROM \(slice) JOIN \(target) AS t ON t.\(relatedBy) = p."key"\(sql.keys.inFeed("t"))
                WHERE s.\(sourceKey) = p."source_pk" AND s.\(column) IS NOT t.\(targetKey)
                """
        case .inverseColumn(_, let name):
            let column = quoteIdentifier(name)
            if let position = plan.positionColumn {
                let place = quoteIdentifier(position)
                statement = """
                    UPDATE \(target) AS t SET \(column) = p."source_pk", \(place) = p."position"
                    FROM \(slice)
                    WHERE t.\(relatedBy) = p."key"\(sql.keys.inFeed("t")) AND (t.\(column) IS NOT p."source_pk" OR \(
                        plan.merge == .replace ? "t.\(place) IS NOT p.\"position\"" : "t.\(place) IS NULL"))
                    """
            } else {
                statement = """
                    UPDATE \(target) AS t SET \(column) = p."source_pk"
                    FROM \(slice)
                    WHERE t.\(relatedBy) = p."key"\(sql.keys.inFeed("t")) AND t.\(column) IS NOT p."source_pk"
                    """
            }
        case .joinTable(let table, let sourceColumn, let targetColumn):
            if let position = plan.positionColumn {
                return try linkInOrder(plan, joinTable: table, sourceColumn: sourceColumn, targetColumn: targetColumn,
                                       position: position, slice: slice, target: target, relatedBy: relatedBy, done: done)
            }
            statement = """
                INSERT OR IGNORE INTO \(quoteIdentifier(table)) (\(quoteIdentifier(sourceColumn)), \(quoteIdentifier(targetColumn)))
                SELECT p."source_pk", t.\(sql.keys.quoted(plan.targetTable)) FROM \(slice) JOIN \(target) AS t ON t.\(relatedBy) = p."key"\(sql.keys.inFeed("t"))
                """
        }
        return try bySlices(plan, [statement], done: done)
    }

    /// Runs `statements` (binding a slice's first and last rowid) over each slice of the
    /// waiting links of `plan`; returns the rows they changed.
    private func bySlices(_ plan: LinkPlan, _ statements: [String], done: (Int) -> Void) throws(SluiceError) -> Int {
        let total = waiting(plan.id)
        guard total > 0, case .integer(let largest)? = try sql.rows("SELECT max(rowid) FROM \(Self.table(plan.id))").first?.first else {
            return 0
        }
        var changed = 0
        var first: Int64 = 1
        while first <= largest {
            let last = min(largest, first + Int64(Self.linksPerSlice) - 1)
            for statement in statements {
                changed += try sql.run(statement, [.integer(first), .integer(last)])
            }
            // Rowids, not links, after a `forget`: progress never counts past the links.
            done(min(total, Int(last)))
            first = last + 1
        }
        return changed
    }

    /// An ordered to-many's join rows: the new links with their places, then the places of
    /// links already there (any other place under `replace`, none yet under `add`). A waiting
    /// link changes one row at most, in one of the two.
    private func linkInOrder(_ plan: LinkPlan, joinTable: String, sourceColumn: String, targetColumn: String,
                             position: String, slice: String, target: String, relatedBy: String,
                             done: (Int) -> Void) throws(SluiceError) -> Int
    {
        let table = quoteIdentifier(joinTable)
        let sourceName = quoteIdentifier(sourceColumn)
        let targetName = quoteIdentifier(targetColumn)
        let place = quoteIdentifier(position)
        let condition = plan.merge == .replace ? "j.\(place) IS NOT p.\"position\"" : "j.\(place) IS NULL"
        return try bySlices(plan, [
            """
            INSERT OR IGNORE INTO \(table) (\(sourceName), \(targetName), \(place))
            SELECT p."source_pk", t.\(sql.keys.quoted(plan.targetTable)), p."position" FROM \(slice) JOIN \(target) AS t ON t.\(relatedBy) = p."key"\(sql.keys.inFeed("t"))
            """,
            """
            UPDATE \(table) AS j SET \(place) = p."position"
            FROM \(slice) JOIN \(target) AS t ON t.\(relatedBy) = p."key"\(sql.keys.inFeed("t"))
            WHERE j.\(sourceName) = p."source_pk" AND j.\(targetName) = t.\(sql.keys.quoted(plan.targetTable)) AND \(condition)
            """,
        ], done: done)
    }
}
