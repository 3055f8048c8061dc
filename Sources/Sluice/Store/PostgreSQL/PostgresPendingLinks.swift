/// Forward references on PostgreSQL (`PendingLinkStore`): as `SQLitePendingLinks` does for SQLite,
/// they wait in one temporary table per relationship — on the server, not in memory — and
/// are linked after the last batch with set-based statements: the to-ones of one entity
/// together, one `UPDATE` writing each row once whatever the number of its columns
/// (`linkToOnes`); any other relationship one statement each. Rows go in with `COPY`, a
/// megabyte at a time; the `key` column has the type of the column it is matched with, so the
/// join uses the target's index.
///
/// Where several records of one row name a to-one, the last record's link wins, as on SQLite:
/// a record that made or cleared the link itself (`addToOnes`' `decided`) leaves a row with no
/// key, and only each source row's last waiting row counts (`latest`).
///
/// A value, owned with the link writer by the thread that writes the batches, as SQLite's is:
/// what it counts and buffers per waiting link is reached without dynamic exclusivity checks.
struct PostgresPendingLinks: PendingLinkStore {
    private let connection: PostgresConnection
    /// The PostgreSQL type of a relationship's `relatedBy` column.
    private let keyType: (LinkPlan) -> String
    /// Per plan id: rows in its table (its table exists once it has one), the links among them
    /// (rows with a key), rows not yet sent, and whether a source row may have several rows.
    private var rows: [Int] = []
    private var links: [Int] = []
    private var buffers: [CopyText] = []
    private var repeats: [Bool] = []
    /// Entities whose to-ones wait (`hasWaitingToOnes`).
    private var entitiesWaiting = Set<Int>()
    /// Plans whose table has an index on its sources (`forget`).
    private var indexedForForgetting = Set<Int>()
    private static let bufferBytes = 1 << 20

    /// The tables' key columns (`TableKeys`).
    private let keys: TableKeys

    init(connection: PostgresConnection, keys: TableKeys, keyType: @escaping (LinkPlan) -> String) {
        self.connection = connection
        self.keys = keys
        self.keyType = keyType
    }

    var isEmpty: Bool { !links.contains { $0 > 0 } }

    private static func table(_ plan: Int) -> String { "\"sluice_pending_\(plan)\"" }

    mutating func addToOnes(_ plans: [LinkPlan], source: Int64, keys: [ColumnValue?], decided: [Bool], existingRow: Bool,
                            newRow: Bool, input: Int, position: InputPosition) throws(SluiceError) {
        for (index, plan) in plans.enumerated() {
            if let key = keys[index] {
                try add(plan: plan, source: source, key: key, input: input, position: position, order: nil)
                // Once per relationship, not per record.
                if waiting(plan) == 1 { entitiesWaiting.insert(plan.source) }
            } else if existingRow, decided[index], waiting(plan) > 0 {
                // Made or cleared by this record: an earlier record's waiting link no longer counts.
                try add(plan: plan, source: source, key: .null, input: input, position: position, order: nil)
            } else {
                continue
            }
            // A row that was there before its batch may have rows of earlier records.
            if existingRow { repeats[plan.id] = true }
        }
    }

    func hasWaitingToOnes(of entity: Int) -> Bool { entitiesWaiting.contains(entity) }

    /// A waiting link, or with key `.null` a to-one a later record decided (`addToOnes`).
    mutating func add(plan: LinkPlan, source: Int64, key: ColumnValue, input: Int, position: InputPosition,
                      order: Int64?) throws(SluiceError) {
        let ordered = plan.ordered
        if plan.id >= rows.count {
            let more = plan.id + 1 - rows.count
            rows += repeatElement(0, count: more)
            links += repeatElement(0, count: more)
            buffers += repeatElement(CopyText(), count: more)
            repeats += repeatElement(false, count: more)
        }
        if rows[plan.id] == 0 {
            try connection.execute("""
                CREATE TEMP TABLE IF NOT EXISTS \(Self.table(plan.id)) ("n" bigint, "source_pk" bigint NOT NULL, \
                "key" \(keyType(plan)), "input" integer, "line" bigint, "column" bigint\(ordered ? ", \"position\" bigint" : ""));
                TRUNCATE \(Self.table(plan.id));
                """)
        }
        buffers[plan.id].append(Int64(rows[plan.id]))
        buffers[plan.id].append(source)
        buffers[plan.id].append(key)
        buffers[plan.id].append(Int64(input))
        buffers[plan.id].append(Int64(position.line))
        buffers[plan.id].append(Int64(position.column))
        if ordered { buffers[plan.id].append(order.map(ColumnValue.integer) ?? .null) }
        buffers[plan.id].endRow()
        rows[plan.id] += 1
        if key != .null { links[plan.id] += 1 }
        if buffers[plan.id].bytes.count >= Self.bufferBytes { try send(plan.id) }
    }

    private mutating func send(_ plan: Int) throws(SluiceError) {
        guard plan < buffers.count, !buffers[plan].isEmpty else { return }
        try connection.copy("COPY \(Self.table(plan)) FROM STDIN", buffers[plan].bytes)
        buffers[plan] = CopyText()
    }

    func waiting(_ plan: LinkPlan) -> Int { plan.id < links.count ? links[plan.id] : 0 }

    mutating func forget(_ plan: LinkPlan, sources: [Int64]) throws(SluiceError) {
        guard waiting(plan) > 0, !sources.isEmpty else { return }
        try indexSources(plan)
        let list = "{" + sources.map(String.init).joined(separator: ",") + "}"
        let deleted = try connection.execute(
            "DELETE FROM \(Self.table(plan.id)) WHERE \"source_pk\" = ANY('\(list)'::bigint[]) AND \"key\" IS NOT NULL")
        links[plan.id] -= deleted.changes
    }

    mutating func largestWaitingPlaces(_ plan: LinkPlan, of sources: [Int64]) throws(SluiceError) -> [Int64: Int64] {
        guard plan.ordered, waiting(plan) > 0, !sources.isEmpty else { return [:] }
        try indexSources(plan)
        let list = "{" + sources.map(String.init).joined(separator: ",") + "}"
        let result = try connection.execute("SELECT \"source_pk\", max(\"position\") FROM \(Self.table(plan.id)) "
            + "WHERE \"source_pk\" = ANY('\(list)'::bigint[]) AND \"key\" IS NOT NULL GROUP BY \"source_pk\"")
        var found: [Int64: Int64] = [:]
        for row in 0..<result.rowCount {
            if let source = Int64(result.text(row, 0)), let largest = Int64(result.text(row, 1)) { found[source] = largest }
        }
        return found
    }

    /// Sends the plan's buffered rows and indexes its table by source, when first needed (as
    /// on SQLite).
    private mutating func indexSources(_ plan: LinkPlan) throws(SluiceError) {
        try send(plan.id)
        if indexedForForgetting.insert(plan.id).inserted {
            _ = try connection.execute("CREATE INDEX ON \(Self.table(plan.id)) (\"source_pk\")")
        }
    }

    mutating func resolve(_ pass: [LinkPlan], policy: (LinkPlan) -> Model.UnresolvedPolicy, sources: [String],
                          linked: (Int) -> Void) throws(SluiceError) -> [LinkOutcome] {
        guard let first = pass.first, first.mayWaitAsToOne else {
            var outcomes: [LinkOutcome] = []
            for plan in pass { outcomes.append(try resolve(plan, policy: policy(plan), sources: sources, linked: linked)) }
            return outcomes
        }
        return try resolveToOnes(pass, policy: policy, sources: sources, linked: linked)
    }

    /// The rows of `plan`'s table that count, as a table expression: all of them, or where a
    /// source row may have several, its last.
    private func latest(_ plan: LinkPlan) -> String {
        let table = Self.table(plan.id)
        guard repeats[plan.id] else { return table }
        return "(SELECT DISTINCT ON (\"source_pk\") * FROM \(table) ORDER BY \"source_pk\", \"n\" DESC)"
    }

    /// Links the waiting to-ones `pass` of one entity together (`linkToOnes`); then each
    /// relationship's policy takes what is still missing, and stubs made are linked.
    private mutating func resolveToOnes(_ pass: [LinkPlan], policy: (LinkPlan) -> Model.UnresolvedPolicy, sources: [String],
                                        linked: (Int) -> Void) throws(SluiceError) -> [LinkOutcome] {
        for plan in pass {
            try send(plan.id)
            try connection.execute("ANALYZE \(Self.table(plan.id))")
        }
        var outcomes = try linkToOnes(pass).map { LinkOutcome(linked: $0) }
        linked(waiting(pass: pass))
        var stubbed = false
        for (index, plan) in pass.enumerated() where outcomes[index].linked < waiting(plan) {
            guard let column = plan.relatedByColumn else { continue }
            let target = quoteIdentifier(plan.targetTable)
            let relatedBy = quoteIdentifier(column)
            let missing = "FROM \(latest(plan)) AS p WHERE p.\"key\" IS NOT NULL AND NOT EXISTS "
                + "(SELECT 1 FROM \(target) AS t WHERE t.\(relatedBy) = p.\"key\"\(keys.inFeed("t")))"
            let count = Int(try connection.execute("SELECT count(*) \(missing)").text(0, 0)) ?? 0
            guard count > 0 else { continue }
            switch policy(plan) {
            case .stub:
                outcomes[index].stubs = try connection.execute(StubRows.insert(
                    into: plan.targetTable, idColumn: column, id: "p.\"key\"", entity: plan.stubEntity, keys: self.keys, missing: missing)).changes
                stubbed = true
            case .null, .fail:
                let examples = try PostgresRunner(connection: connection)
                    .rows("SELECT p.\"key\", p.\"input\", p.\"line\", p.\"column\" \(missing) ORDER BY p.\"n\" LIMIT 3", [])
                try outcomes[index].leaveUnresolved(count, examples: examples, plan: plan, policy: policy(plan), sources: sources)
            }
        }
        if stubbed {
            for (index, more) in try linkToOnes(pass).enumerated() { outcomes[index].linked += more }
        }
        return outcomes
    }

    /// One statement for the to-ones `pass` of one entity: each waiting link whose target
    /// exists sets its column, every row written once, only where a column changes. Returns the
    /// links changed per plan. (Counted from a snapshot of the rows before the `UPDATE`, which
    /// PostgreSQL 15's `RETURNING` cannot show.)
    private func linkToOnes(_ pass: [LinkPlan]) throws(SluiceError) -> [Int] {
        let source = quoteIdentifier(pass[0].sourceTable)
        let sourceKey = keys.quoted(pass[0].sourceTable)
        var from = ""
        var sourcePK = ""
        var values: [String] = []
        var sets: [String] = []
        for (index, plan) in pass.enumerated() {
            guard case .column(_, let name) = plan.storage, let relatedBy = plan.relatedByColumn else { continue }
            // One target row per link: the identity's unique index makes it so; for another
            // attribute, the first row.
            let one = plan.relatedByIsIdentity ? "" : "DISTINCT ON (p.\"source_pk\") "
            let targetKey = keys.quoted(plan.targetTable)
            let order = plan.relatedByIsIdentity ? "" : " ORDER BY p.\"source_pk\", t.\(targetKey)"
            let found = "(SELECT \(one)p.\"source_pk\", t.\(targetKey) AS \"pk\" FROM \(latest(plan)) AS p JOIN \(quoteIdentifier(plan.targetTable)) AS t "
                + "ON t.\(quoteIdentifier(relatedBy)) = p.\"key\"\(keys.inFeed("t"))\(order)) AS l\(index)"
            let foundPK = "l\(index).\"source_pk\""
            if from.isEmpty {
                from = found
                sourcePK = foundPK
            } else {
                from += " FULL JOIN \(found) ON \(foundPK) = \(sourcePK)"
                sourcePK = "coalesce(\(sourcePK), \(foundPK))"
            }
            let column = quoteIdentifier(name)
            values.append("l\(index).\"pk\" AS v\(index), l\(index).\"pk\" IS NOT NULL AND s.\(column) IS DISTINCT FROM l\(index).\"pk\" AS d\(index)")
            sets.append("\(column) = CASE WHEN d.d\(index) THEN d.v\(index) ELSE s.\(column) END")
        }
        guard !sets.isEmpty else { return pass.map { _ in 0 } }
        let result = try connection.execute("""
            WITH d AS MATERIALIZED (
              SELECT s.\(sourceKey) AS "pk", \(values.joined(separator: ", ")) FROM \(from) JOIN \(source) AS s ON s.\(sourceKey) = \(sourcePK)
            ), u AS (
              UPDATE \(source) AS s SET \(sets.joined(separator: ", ")) FROM d
              WHERE s.\(sourceKey) = d."pk" AND (\(pass.indices.map { "d.d\($0)" }.joined(separator: " OR ")))
            )
            SELECT \(pass.indices.map { "count(*) FILTER (WHERE d\($0))" }.joined(separator: ", ")) FROM d
            """)
        return pass.indices.map { Int(result.text(0, $0)) ?? 0 }
    }

    /// One relationship that is not a to-one linked by id: `linked` hears once, when the one
    /// set-based statement is done.
    mutating func resolve(_ plan: LinkPlan, policy: Model.UnresolvedPolicy, sources: [String],
                          linked: (Int) -> Void) throws(SluiceError) -> LinkOutcome {
        if plan.mayWaitAsToOne {
            return try resolveToOnes([plan], policy: { _ in policy }, sources: sources, linked: linked)[0]
        }
        var outcome = LinkOutcome()
        guard waiting(plan) > 0, let column = plan.relatedByColumn else { return outcome }
        try send(plan.id)
        let target = quoteIdentifier(plan.targetTable)
        let relatedBy = quoteIdentifier(column)
        let pending = Self.table(plan.id)
        try connection.execute("ANALYZE \(pending)")
        outcome.linked = try link(plan, pending: pending, target: target, relatedBy: relatedBy)
        linked(waiting(plan))
        if outcome.linked == waiting(plan) { return outcome }

        let missing = "FROM \(pending) AS p WHERE NOT EXISTS (SELECT 1 FROM \(target) AS t WHERE t.\(relatedBy) = p.\"key\"\(keys.inFeed("t")))"
        let count = Int(try connection.execute("SELECT count(*) \(missing)").text(0, 0)) ?? 0
        guard count > 0 else { return outcome }
        switch policy {
        case .stub:
            outcome.stubs = try connection.execute(StubRows.insert(
                into: plan.targetTable, idColumn: column, id: "p.\"key\"", entity: plan.stubEntity, keys: self.keys, missing: missing)).changes
            outcome.linked += try link(plan, pending: pending, target: target, relatedBy: relatedBy)
        case .null, .fail:
            let rows = try PostgresRunner(connection: connection)
                .rows("SELECT p.\"key\", p.\"input\", p.\"line\", p.\"column\" \(missing) ORDER BY p.\"n\" LIMIT 3", [])
            try outcome.leaveUnresolved(count, examples: rows, plan: plan, policy: policy, sources: sources)
        }
        return outcome
    }

    /// One statement per relationship links every pending id whose target row now exists.
    private func link(_ plan: LinkPlan, pending: String, target: String, relatedBy: String) throws(SluiceError) -> Int {
        switch plan.storage {
        case .column:
            // A to-one is linked by `linkToOnes`; one not by id never waits.
            return 0
        case .inverseColumn(_, let name):
            let column = quoteIdentifier(name)
            if let position = plan.positionColumn {
                let place = quoteIdentifier(position)
                return try connection.execute("""
                    UPDATE \(target) AS t SET \(column) = p."source_pk", \(place) = p."position"
                    FROM \(pending) AS p
                    WHERE t.\(relatedBy) = p."key"\(keys.inFeed("t")) AND (t.\(column) IS DISTINCT FROM p."source_pk" OR \(
                        plan.merge == .replace ? "t.\(place) IS DISTINCT FROM p.\"position\"" : "t.\(place) IS NULL"))
                    """).changes
            }
            return try connection.execute("""
                UPDATE \(target) AS t SET \(column) = p."source_pk"
                FROM \(pending) AS p
                WHERE t.\(relatedBy) = p."key"\(keys.inFeed("t")) AND t.\(column) IS DISTINCT FROM p."source_pk"
                """).changes
        case .joinTable(let table, let sourceColumn, let targetColumn):
            if let position = plan.positionColumn {
                // As SQLite's `SQLitePendingLinks`: new links with their places, then the places of
                // links already there.
                let join = quoteIdentifier(table)
                let sourceName = quoteIdentifier(sourceColumn)
                let targetName = quoteIdentifier(targetColumn)
                let place = quoteIdentifier(position)
                let condition = plan.merge == .replace ? "j.\(place) IS DISTINCT FROM p.\"position\"" : "j.\(place) IS NULL"
                let inserted = try connection.execute("""
                    INSERT INTO \(join) (\(sourceName), \(targetName), \(place))
                    SELECT p."source_pk", t."pk", p."position" FROM \(pending) AS p JOIN \(target) AS t ON t.\(relatedBy) = p."key"\(keys.inFeed("t"))
                    ON CONFLICT DO NOTHING
                    """).changes
                return try inserted + connection.execute("""
                    UPDATE \(join) AS j SET \(place) = p."position"
                    FROM \(pending) AS p JOIN \(target) AS t ON t.\(relatedBy) = p."key"\(keys.inFeed("t"))
                    WHERE j.\(sourceName) = p."source_pk" AND j.\(targetName) = t."pk" AND \(condition)
                    """).changes
            }
            return try connection.execute("""
                INSERT INTO \(quoteIdentifier(table)) (\(quoteIdentifier(sourceColumn)), \(quoteIdentifier(targetColumn)))
                SELECT p."source_pk", t."pk" FROM \(pending) AS p JOIN \(target) AS t ON t.\(relatedBy) = p."key"\(keys.inFeed("t"))
                ON CONFLICT DO NOTHING
                """).changes
        }
    }
}
