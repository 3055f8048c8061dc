/// `--delete-missing` (`docs/import-semantics.md`): remembers which rows of the root entities with identity this
/// import mentioned — in a temporary table, not in memory — and at the end deletes the
/// others, as each relationship's deletion rule says (`Model.DeleteRule`). The same statements serve both stores, through their
/// `SQLRunning` and its `dialect`.
final class TouchedRows: TouchedRowStore {
    private let sql: any SQLRunning
    /// Entity indexes whose rows are kept only if mentioned.
    private let entities: Set<Int>
    /// For a family's table whose rows are not all candidates: the entities (names in its
    /// `"entity"` column) whose rows are (`candidates(plan:model:)`).
    var onlyMembers: [Int: [String]] = [:]

    init(sql: any SQLRunning, entities: Set<Int>) throws(SluiceError) {
        self.sql = sql
        self.entities = entities
        try sql.execute("""
            CREATE TEMP TABLE IF NOT EXISTS "sluice_touched" ("entity" INTEGER, "pk" \(sql.dialect.integer), \
            PRIMARY KEY ("entity", "pk"))\(sql.dialect.keyOnlyTable);
            DELETE FROM "sluice_touched";
            """)
    }

    func remembers(_ entity: Int) -> Bool { entities.contains(entity) }

    func record(_ pks: [Int64], of entity: Int) throws(SluiceError) {
        guard entities.contains(entity) else { return }
        if let array = sql.dialect.pkArray(pks) {
            try sql.run("INSERT INTO \"sluice_touched\" (\"entity\", \"pk\") SELECT ?::integer, unnest(?::bigint[]) ON CONFLICT DO NOTHING",
                        [.integer(Int64(entity)), array])
            return
        }
        // Up to `rowsPerInsert` rows a statement (a round trip each on a server), the list
        // padded to a power of two with its last row, which the insert then ignores.
        var start = 0
        while start < pks.count {
            let end = min(start + Self.rowsPerInsert, pks.count)
            let size = SQLParameters.listSize(for: end - start, limit: Self.rowsPerInsert)
            var arguments: [ColumnValue] = []
            for index in 0..<size {
                arguments += [.integer(Int64(entity)), .integer(pks[min(start + index, end - 1)])]
            }
            try sql.run(sql.dialect.insertIgnoringDuplicates(into: "\"sluice_touched\"", columns: "\"entity\", \"pk\"",
                                                             values: Array(repeating: "?, ?", count: size).joined(separator: "), (")),
                        arguments)
            start = end
        }
    }

    private static let rowsPerInsert = SQLParameters.maxPerStatement / 2

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
            let table = quoteIdentifier(tables[entity])
            let key = sql.keys.quoted(tables[entity])
            // The family's column naming each row's entity, as the layout names it (`TableKeys`).
            let members = (onlyMembers[entity] ?? []).map { sql.keys.entityColumn(of: tables[entity], entity: $0) }
            let ofMembers = members.first.map { member in
                " AND \(quoteIdentifier(member.column)) IN (\(SQLParameters.placeholders(members.count)))"
            } ?? ""
            try sql.run("""
                INSERT INTO "sluice_gone" SELECT \(entity), \(key) FROM \(table)
                WHERE \(key) NOT IN (SELECT "pk" FROM "sluice_touched" WHERE "entity" = ?)\(ofMembers)\(sql.keys.inFeed())
                """, [.integer(Int64(entity))] + members.map(\.value))
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
