/// `--delete-missing` (`docs/import-semantics.md`): remembers which rows of the root entities with identity this
/// import mentioned — in a temporary table, not in memory — and at the end deletes the
/// others, as each relationship's deletion rule says (`Model.DeleteRule`). The same statements serve both stores, through their
/// `SQLRunning` and its `dialect`.
///
/// The rows mentioned are kept as runs of consecutive keys (`KeyRuns`): an import mentions an
/// existing table's rows mostly in the order their keys were issued, so a batch's thousands of
/// keys are a run or a few (one more per row the input no longer has, or per row it added).
/// W3's weekly update at scale 0.2 wrote 620,000 keys a row each before, 3.4 G instructions of
/// the writer thread's 8.8 G, and sought every key of each table in them at the end (2.6 G).
/// The rows to delete are those in the gaps between the runs, each gap one range of the key's
/// index: the work follows the rows deleted and the runs, not the rows kept.
final class TouchedRows: TouchedRowStore {
    private let sql: any SQLRunning
    /// Entity indexes whose rows are kept only if mentioned.
    private let entities: Set<Int>
    /// For a family's table whose rows are not all candidates: the entities (names in its
    /// `"entity"` column) whose rows are (`candidates(plan:model:)`).
    var onlyMembers: [Int: [String]] = [:]
    /// The `INSERT` of a list of runs, by the list's length (`SQLParameters.listSize`).
    private var inserts: [Int: String] = [:]

    init(sql: any SQLRunning, entities: Set<Int>) throws(SluiceError) {
        self.sql = sql
        self.entities = entities
        try sql.execute("""
            CREATE TEMP TABLE IF NOT EXISTS "sluice_touched_runs" ("entity" INTEGER, "first" \(sql.dialect.integer), \
            "last" \(sql.dialect.integer), PRIMARY KEY ("entity", "first", "last"))\(sql.dialect.keyOnlyTable);
            DELETE FROM "sluice_touched_runs";
            """)
    }

    func remembers(_ entity: Int) -> Bool { entities.contains(entity) }

    func record(_ pks: [Int64], of entity: Int) throws(SluiceError) {
        guard entities.contains(entity) else { return }
        let runs = KeyRuns(pks).runs
        // Up to `runsPerInsert` runs a statement (a round trip each on a server), the list
        // padded to a power of two with its last run, which the insert then ignores.
        var start = 0
        while start < runs.count {
            let end = min(start + Self.runsPerInsert, runs.count)
            let size = SQLParameters.listSize(for: end - start, limit: Self.runsPerInsert)
            var arguments: [ColumnValue] = []
            arguments.reserveCapacity(size * 3)
            for index in 0..<size {
                let run = runs[min(start + index, end - 1)]
                arguments += [.integer(Int64(entity)), .integer(run.first), .integer(run.last)]
            }
            try sql.run(insert(size), arguments)
            start = end
        }
    }

    private static let runsPerInsert = SQLParameters.maxPerStatement / 4

    private func insert(_ size: Int) -> String {
        if let statement = inserts[size] { return statement }
        let statement = sql.dialect.insertIgnoringDuplicates(
            into: "\"sluice_touched_runs\"", columns: "\"entity\", \"first\", \"last\"",
            values: Array(repeating: "?, ?, ?", count: size).joined(separator: "), ("))
        inserts[size] = statement
        return statement
    }

    /// The `SELECT` of the keys of `entity`'s rows in `table` that no run holds, each row as
    /// (entity, key): those below the first run, those above the last, those in the gaps
    /// between runs (the largest key of the runs before a run, up to the run's first key),
    /// and every row when there is no run. `filter` narrows the rows (`AND …`), its
    /// arguments once per branch.
    private func untouched(_ entity: Int, table: String, filter: String) -> String {
        let key = sql.keys.quoted(table)
        let (rows, runs) = ("\(quoteIdentifier(table)) AS \"t\"", "\"sluice_touched_runs\" WHERE \"entity\" = \(entity)")
        return """
            SELECT \(entity), "t".\(key) FROM \(rows) WHERE "t".\(key) < (SELECT min("first") FROM \(runs))\(filter)
            UNION ALL SELECT \(entity), "t".\(key) FROM \(rows) WHERE "t".\(key) > (SELECT max("last") FROM \(runs))\(filter)
            UNION ALL SELECT \(entity), "t".\(key) FROM (
                SELECT "after", "before" FROM (
                    SELECT max("last") OVER (ORDER BY "first", "last" ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS "after",
                    "first" AS "before" FROM \(runs)) AS "r"
                WHERE "before" > "after") AS "g"
            CROSS JOIN \(rows) WHERE "t".\(key) > "g"."after" AND "t".\(key) < "g"."before"\(filter)
            UNION ALL SELECT \(entity), "t".\(key) FROM \(rows) WHERE NOT EXISTS (SELECT 1 FROM \(runs))\(filter)
            """
    }

    /// Deletes the rows not mentioned, and what each relationship's deletion rule adds to them
    /// (`TouchedRows+DeleteRules.swift`), and unlinks what pointed at them; returns the number
    /// deleted per entity. `willDelete` is told each entity first.
    func deleteUntouched(plans: [[LinkPlan]], tables: [String], willDelete: (Int) -> Void = { _ in })
        throws(SluiceError) -> [Int: Int]
    {
        try sql.execute("""
            CREATE TEMP TABLE IF NOT EXISTS "sluice_gone" ("entity" INTEGER, "pk" \(sql.dialect.integer), \
            PRIMARY KEY ("entity", "pk"))\(sql.dialect.keyOnlyTable)
            """)
        try sql.run("DELETE FROM \"sluice_gone\"", [])
        // Each root entity is told as its rows are sought (the long scan), whether or not any
        // go; an entity only a cascade reaches, as its rows are deleted.
        var told = Set<Int>()
        for entity in entities.sorted() {
            willDelete(entity)
            told.insert(entity)
            // The family's column naming each row's entity, as the layout names it (`TableKeys`).
            let members = (onlyMembers[entity] ?? []).map { sql.keys.entityColumn(of: tables[entity], entity: $0) }
            let ofMembers = members.first.map { member in
                " AND \"t\".\(quoteIdentifier(member.column)) IN (\(SQLParameters.placeholders(members.count)))"
            } ?? ""
            try sql.run("INSERT INTO \"sluice_gone\" " + untouched(entity, table: tables[entity], filter: ofMembers + sql.keys.inFeed("\"t\"")),
                        Array(repeating: members.map(\.value), count: 4).joined())
        }
        let rules = DeleteRules(sql: sql, plans: Array(plans.joined()), tables: tables)
        try rules.cascade()
        try rules.refuseDenied()
        var deleted: [Int: Int] = [:]
        for entity in try rules.entitiesWithRowsGone() {
            if told.insert(entity).inserted { willDelete(entity) }
            try rules.unlink(entity)
            deleted[entity] = try sql.run("DELETE FROM \(quoteIdentifier(tables[entity])) WHERE \(sql.keys.quoted(tables[entity])) IN "
                                          + DeleteRules.gone(entity), [])
        }
        return deleted
    }
}
