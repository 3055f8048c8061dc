/// Forward references on PostgreSQL (`PendingLinkStore`): as `PendingLinks` does for SQLite,
/// they wait in one temporary table per relationship — on the server, not in memory — and
/// are linked after the last batch with one set-based statement per relationship. Rows go in
/// with `COPY`, a megabyte at a time; the `key` column has the type of the column it is
/// matched with, so the join uses the target's index.
final class PostgresPendingLinks: PendingLinkStore {
    private let connection: PostgresConnection
    /// The PostgreSQL type of a relationship's `relatedBy` column.
    private let keyType: (LinkPlan) -> String
    /// Per plan id: links waiting (its table exists once it has one) and rows not yet sent.
    @exclusivity(unchecked) private var counts: [Int] = []
    @exclusivity(unchecked) private var buffers: [CopyText] = []
    private static let bufferBytes = 1 << 20

    init(connection: PostgresConnection, keyType: @escaping (LinkPlan) -> String) {
        self.connection = connection
        self.keyType = keyType
    }

    var isEmpty: Bool { !counts.contains { $0 > 0 } }

    private static func table(_ plan: Int) -> String { "\"sluice_pending_\(plan)\"" }

    func add(plan: LinkPlan, source: Int64, key: ColumnValue, input: Int, position: InputPosition,
             order: Int64?) throws(SluiceError) {
        let ordered = plan.ordered
        if plan.id >= counts.count {
            counts += repeatElement(0, count: plan.id + 1 - counts.count)
            buffers += repeatElement(CopyText(), count: plan.id + 1 - buffers.count)
        }
        if counts[plan.id] == 0 {
            try connection.execute("""
                CREATE TEMP TABLE IF NOT EXISTS \(Self.table(plan.id)) ("n" bigint, "source_pk" bigint NOT NULL, \
                "key" \(keyType(plan)), "input" integer, "line" bigint, "column" bigint\(ordered ? ", \"position\" bigint" : ""));
                TRUNCATE \(Self.table(plan.id));
                """)
        }
        buffers[plan.id].append(Int64(counts[plan.id]))
        buffers[plan.id].append(source)
        buffers[plan.id].append(key)
        buffers[plan.id].append(Int64(input))
        buffers[plan.id].append(Int64(position.line))
        buffers[plan.id].append(Int64(position.column))
        if ordered { buffers[plan.id].append(order.map(ColumnValue.integer) ?? .null) }
        buffers[plan.id].endRow()
        counts[plan.id] += 1
        if buffers[plan.id].bytes.count >= Self.bufferBytes { try send(plan.id) }
    }

    private func send(_ plan: Int) throws(SluiceError) {
        guard plan < buffers.count, !buffers[plan].isEmpty else { return }
        try connection.copy("COPY \(Self.table(plan)) FROM STDIN", buffers[plan].bytes)
        buffers[plan] = CopyText()
    }

    func waiting(_ plan: LinkPlan) -> Int { plan.id < counts.count ? counts[plan.id] : 0 }

    /// `linked` hears once, when the one set-based statement is done.
    func resolve(_ plan: LinkPlan, policy: Model.UnresolvedPolicy, sources: [String],
                 linked: (Int) -> Void) throws(SluiceError) -> PendingLinks.Outcome {
        var outcome = PendingLinks.Outcome()
        guard plan.id < counts.count, counts[plan.id] > 0, let column = plan.relatedByColumn else { return outcome }
        try send(plan.id)
        let target = quoteIdentifier(plan.targetTable)
        let relatedBy = quoteIdentifier(column)
        let pending = Self.table(plan.id)
        try connection.execute("ANALYZE \(pending)")
        outcome.linked = try link(plan, pending: pending, target: target, relatedBy: relatedBy)
        linked(counts[plan.id])
        if outcome.linked == counts[plan.id] { return outcome }

        let missing = "FROM \(pending) AS p WHERE NOT EXISTS (SELECT 1 FROM \(target) AS t WHERE t.\(relatedBy) = p.\"key\")"
        let count = Int(try connection.execute("SELECT count(*) \(missing)").text(0, 0)) ?? 0
        guard count > 0 else { return outcome }
        switch policy {
        case .stub:
            outcome.stubs = try connection.execute("INSERT INTO \(target) (\(relatedBy)) SELECT DISTINCT p.\"key\" \(missing)").changes
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
        case .column(_, let name):
            let source = quoteIdentifier(plan.sourceTable)
            let column = quoteIdentifier(name)
            return try connection.execute("""
                UPDATE \(source) AS s SET \(column) = t."pk"
                FROM \(pending) AS p JOIN \(target) AS t ON t.\(relatedBy) = p."key"
                WHERE s."pk" = p."source_pk" AND s.\(column) IS DISTINCT FROM t."pk"
                """).changes
        case .inverse(let name):
            let column = quoteIdentifier(name)
            if let position = plan.positionColumn {
                let place = quoteIdentifier(position)
                return try connection.execute("""
                    UPDATE \(target) AS t SET \(column) = p."source_pk", \(place) = p."position"
                    FROM \(pending) AS p
                    WHERE t.\(relatedBy) = p."key" AND (t.\(column) IS DISTINCT FROM p."source_pk" OR \(
                        plan.merge == .replace ? "t.\(place) IS DISTINCT FROM p.\"position\"" : "t.\(place) IS NULL"))
                    """).changes
            }
            return try connection.execute("""
                UPDATE \(target) AS t SET \(column) = p."source_pk"
                FROM \(pending) AS p
                WHERE t.\(relatedBy) = p."key" AND t.\(column) IS DISTINCT FROM p."source_pk"
                """).changes
        case .join(let table, let sourceColumn, let targetColumn):
            if let position = plan.positionColumn {
                // As SQLite's `PendingLinks`: new links with their places, then the places of
                // links already there.
                let join = quoteIdentifier(table)
                let sourceName = quoteIdentifier(sourceColumn)
                let targetName = quoteIdentifier(targetColumn)
                let place = quoteIdentifier(position)
                let condition = plan.merge == .replace ? "j.\(place) IS DISTINCT FROM p.\"position\"" : "j.\(place) IS NULL"
                let inserted = try connection.execute("""
                    INSERT INTO \(join) (\(sourceName), \(targetName), \(place))
                    SELECT p."source_pk", t."pk", p."position" FROM \(pending) AS p JOIN \(target) AS t ON t.\(relatedBy) = p."key"
                    ON CONFLICT DO NOTHING
                    """).changes
                return try inserted + connection.execute("""
                    UPDATE \(join) AS j SET \(place) = p."position"
                    FROM \(pending) AS p JOIN \(target) AS t ON t.\(relatedBy) = p."key"
                    WHERE j.\(sourceName) = p."source_pk" AND j.\(targetName) = t."pk" AND \(condition)
                    """).changes
            }
            return try connection.execute("""
                INSERT INTO \(quoteIdentifier(table)) (\(quoteIdentifier(sourceColumn)), \(quoteIdentifier(targetColumn)))
                SELECT p."source_pk", t."pk" FROM \(pending) AS p JOIN \(target) AS t ON t.\(relatedBy) = p."key"
                ON CONFLICT DO NOTHING
                """).changes
        }
    }
}
