/// Runs the stores' shared statements on PostgreSQL (`SQLRunning`: `TouchedRows`, the lookups
/// of `SQLRunning+Lookups.swift`), written with `?` and `?N` placeholders, which become `$N`
/// here (outside quoted names and string literals), once per distinct statement; and makes a
/// batch's links (`LinkStore`) with one set-based statement each.
final class PostgresRunner: SQLRunning, LinkStore {
    let connection: PostgresConnection
    /// Set by `PostgresStore.migrate(to:)`.
    var keys = TableKeys()
    /// Statements as PostgreSQL spells them, by their SQL. Reached per statement, a round trip
    /// each, never per record: its dynamic exclusivity checks cost nothing measurable. A class
    /// because the store, its touched rows and indexes share it.
    private var translated: [String: String] = [:]

    init(connection: PostgresConnection) {
        self.connection = connection
    }

    var dialect: SQLDialect { .postgres }

    @discardableResult
    func run(_ sql: String, _ arguments: some Collection<ColumnValue>) throws(SluiceError) -> Int {
        try connection.query(postgres(sql), arguments.map(PostgresValues.parameter)).changes
    }

    func rows(_ sql: String, _ arguments: [ColumnValue]) throws(SluiceError) -> [[ColumnValue]] {
        let result = try connection.query(postgres(sql), arguments.map(PostgresValues.parameter))
        return (0..<result.rowCount).map { row in
            (0..<result.columnCount).map { PostgresValues.value(result, row, $0) }
        }
    }

    func execute(_ sql: String) throws(SluiceError) {
        try connection.execute(sql)
    }

    /// One statement for the batch's links of `plan` (`docs/postgresql.md`, how rows are
    /// written): the pairs go as two `bigint[]` parameters, `unnest`ed into rows joined on the
    /// pk (the planner sees how many).
    func link(_ plan: LinkPlan, _ pairs: [LinkPair]) throws(SluiceError) -> Int {
        let links = "unnest($1::bigint[], $2::bigint[]) AS l(\"source_pk\", \"target_pk\")"
        let sql: String
        switch plan.storage {
        case .column(_, let name):
            let column = quoteIdentifier(name)
            sql = "UPDATE \(quoteIdentifier(plan.sourceTable)) AS s SET \(column) = l.\"target_pk\" FROM \(links) "
                + "WHERE s.\(keys.quoted(plan.sourceTable)) = l.\"source_pk\" AND s.\(column) IS DISTINCT FROM l.\"target_pk\""
        case .inverseColumn(_, let name):
            let column = quoteIdentifier(name)
            sql = "UPDATE \(quoteIdentifier(plan.targetTable)) AS t SET \(column) = l.\"source_pk\" FROM \(links) "
                + "WHERE t.\(keys.quoted(plan.targetTable)) = l.\"target_pk\" AND t.\(column) IS DISTINCT FROM l.\"source_pk\""
        case .joinTable(let table, let sourceColumn, let targetColumn):
            sql = "INSERT INTO \(quoteIdentifier(table)) (\(quoteIdentifier(sourceColumn)), \(quoteIdentifier(targetColumn))) "
                + "SELECT DISTINCT l.\"source_pk\", l.\"target_pk\" FROM \(links) ON CONFLICT DO NOTHING"
        }
        return try connection.query(sql, [Self.array(pairs.map(\.source)), Self.array(pairs.map(\.target))]).changes
    }

    private func postgres(_ sql: String) -> String {
        if let done = translated[sql] { return done }
        if translated.count >= 256 { translated.removeAll() }
        let done = Self.numberingPlaceholders(sql)
        translated[sql] = done
        return done
    }

    /// `?` → `$1`, `$2`… in order; `?N` → `$N`.
    static func numberingPlaceholders(_ sql: String) -> String {
        var result: [UInt8] = []
        var next = 1
        var quote: UInt8?
        let bytes = Array(sql.utf8)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            if let open = quote {
                if byte == open { quote = nil }
                result.append(byte)
                continue
            }
            guard byte == UInt8(ascii: "?") else {
                if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") { quote = byte }
                result.append(byte)
                continue
            }
            var digits: [UInt8] = []
            while index < bytes.count, (48...57).contains(bytes[index]) {
                digits.append(bytes[index])
                index += 1
            }
            result.append(UInt8(ascii: "$"))
            if digits.isEmpty {
                result += String(next).utf8
                next += 1
            } else {
                result += digits
            }
        }
        return String(decoding: result, as: UTF8.self)
    }
}
