/// Writes the records of one entity a batch at a time, the way Core Data's guidance and
/// FastEasyMapping do it: one `IN` query finds which identities exist, new records are
/// inserted, existing rows are updated in the columns whose value changed, and a record
/// that changes nothing writes nothing.
///
/// A batch lives in flat arrays reused from batch to batch, so memory is bounded by the
/// batch size whatever the input.
final class EntityWriter {
    let plan: MappingPlan.EntityPlan
    private(set) var counts: ImportReport.EntityCounts
    private let connection: Connection
    private let databaseName: String
    private let width: Int
    /// SQLite's limit on bound parameters (SQLITE_MAX_VARIABLE_NUMBER, 32766 since 3.32).
    private static let maxParameters = 32_766

    private let insert: Statement
    /// `UPDATE` statements by the set of columns they write.
    private var updates: [ColumnSet: Statement] = [:]
    /// Lookup statements by how many identities their `IN` list holds.
    private var lookups: [Int: Statement] = [:]

    /// The batch: `width` values per record, in input order.
    private var values: [DatabaseValue?] = []
    private var count = 0

    init(plan: MappingPlan.EntityPlan, connection: Connection, databaseName: String) throws(SluiceError) {
        self.plan = plan
        self.connection = connection
        self.databaseName = databaseName
        width = plan.attributes.count
        counts = ImportReport.EntityCounts(entity: plan.name)
        let columns = plan.attributes.map { quoteIdentifier($0.column) }
        let sql = "INSERT INTO \(quoteIdentifier(plan.table)) (\(columns.joined(separator: ", "))) VALUES (\(Self.placeholders(width)))"
        insert = try Self.prepare(sql, connection, databaseName)
    }

    var isEmpty: Bool { count == 0 }

    func append(_ record: Record) {
        values.append(contentsOf: record.values)
        count += 1
    }

    func countRejected() {
        counts.rejected += 1
    }

    /// Writes the batch and empties it.
    func flush() throws(SluiceError) {
        guard count > 0 else { return }
        defer {
            values.removeAll(keepingCapacity: true)
            count = 0
        }
        if plan.identity.isEmpty {
            for record in 0..<count { try insertRow(record) }
            counts.inserted += count
            return
        }

        // Merge records that share an identity into the first of them, in input order.
        var first: [IdentityKey: Int] = [:]
        var fates: [Fate] = []
        fates.reserveCapacity(count)
        for record in 0..<count {
            guard let key = IdentityKey(values[row(record)], identity: plan.identity) else {
                fates.append(.append)
                continue
            }
            if let target = first[key] {
                if merge(record, into: target) { counts.updated += 1 } else { counts.unchanged += 1 }
                fates.append(.merged)
            } else {
                first[key] = record
                fates.append(.write(key))
            }
        }

        let existing = try lookUp(Array(first.keys))
        for record in 0..<count {
            switch fates[record] {
            case .merged:
                continue
            case .append:
                try insertRow(record)
                counts.inserted += 1
            case .write(let key):
                if let found = existing[key] {
                    try updateRow(record, pk: found.pk, current: found.values)
                } else {
                    try insertRow(record)
                    counts.inserted += 1
                }
            }
        }
    }

    /// What becomes of each record of a batch with identity.
    private enum Fate {
        /// No complete identity: inserted as a new row.
        case append
        /// The first record with this identity: found and updated, or inserted.
        case write(IdentityKey)
        /// Merged into an earlier record of the batch with the same identity.
        case merged
    }

    // MARK: Rows

    private func row(_ record: Int) -> Range<Int> {
        record * width..<(record + 1) * width
    }

    /// Copies the values `record` mentions onto `target`; tells whether any differed.
    private func merge(_ record: Int, into target: Int) -> Bool {
        var changed = false
        for attribute in 0..<width {
            guard let value = values[record * width + attribute] else { continue }
            if values[target * width + attribute] != value {
                values[target * width + attribute] = value
                changed = true
            }
        }
        return changed
    }

    private func insertRow(_ record: Int) throws(SluiceError) {
        for attribute in 0..<width {
            let value = values[record * width + attribute] ?? plan.attributes[attribute].defaultValue ?? .null
            try bind(insert, value, at: Int32(attribute + 1))
        }
        try run(insert)
    }

    private func updateRow(_ record: Int, pk: Int64, current: [DatabaseValue]) throws(SluiceError) {
        var changed = ColumnSet(width: width)
        for attribute in 0..<width {
            if let value = values[record * width + attribute], value != current[attribute] {
                changed.insert(attribute)
            }
        }
        guard !changed.isEmpty else {
            counts.unchanged += 1
            return
        }
        let statement = try updateStatement(for: changed)
        var index: Int32 = 1
        for attribute in changed.members {
            try bind(statement, values[record * width + attribute] ?? .null, at: index)
            index += 1
        }
        try bind(statement, .integer(pk), at: index)
        try run(statement)
        counts.updated += 1
    }

    // MARK: Find

    /// The rows whose identity is among `keys`: their pk and current attribute values.
    private func lookUp(_ keys: [IdentityKey]) throws(SluiceError) -> [IdentityKey: (pk: Int64, values: [DatabaseValue])] {
        var found: [IdentityKey: (pk: Int64, values: [DatabaseValue])] = [:]
        let perQuery = max(1, Self.maxParameters / plan.identity.count)
        var start = 0
        while start < keys.count {
            let end = min(start + perQuery, keys.count)
            let statement = try lookupStatement(count: end - start)
            var index: Int32 = 1
            for key in keys[start..<end] {
                for part in key.parts {
                    try bind(statement, part, at: index)
                    index += 1
                }
            }
            do {
                while try statement.step() {
                    var row: [DatabaseValue] = []
                    row.reserveCapacity(width)
                    for attribute in 0..<width { row.append(statement.value(at: Int32(attribute + 1))) }
                    if let key = IdentityKey(row.map(Optional.some)[...], identity: plan.identity) {
                        found[key] = (statement.int64(at: 0), row)
                    }
                }
                statement.reset()
            } catch {
                statement.reset()
                throw error.sluiceError(database: databaseName)
            }
            start = end
        }
        return found
    }

    private func lookupStatement(count: Int) throws(SluiceError) -> Statement {
        if let statement = lookups[count] { return statement }
        let columns = (["pk"] + plan.attributes.map(\.column)).map(quoteIdentifier).joined(separator: ", ")
        let identity = plan.identity.map { quoteIdentifier(plan.attributes[$0].column) }
        let condition: String
        if identity.count == 1 {
            condition = "\(identity[0]) IN (\(Self.placeholders(count)))"
        } else {
            let tuple = "(\(Self.placeholders(identity.count)))"
            condition = "(\(identity.joined(separator: ", "))) IN (VALUES \(Array(repeating: tuple, count: count).joined(separator: ", ")))"
        }
        let statement = try Self.prepare("SELECT \(columns) FROM \(quoteIdentifier(plan.table)) WHERE \(condition)",
                                         connection, databaseName)
        // Keep the statement of a full chunk and of the last size seen; others are one-offs.
        if lookups.count > 8 { lookups.removeAll() }
        lookups[count] = statement
        return statement
    }

    private func updateStatement(for columns: ColumnSet) throws(SluiceError) -> Statement {
        if let statement = updates[columns] { return statement }
        let assignments = columns.members.map { "\(quoteIdentifier(plan.attributes[$0].column)) = ?" }
        let sql = "UPDATE \(quoteIdentifier(plan.table)) SET \(assignments.joined(separator: ", ")) WHERE \"pk\" = ?"
        let statement = try Self.prepare(sql, connection, databaseName)
        updates[columns] = statement
        return statement
    }

    // MARK: SQLite calls

    private func bind(_ statement: Statement, _ value: DatabaseValue, at index: Int32) throws(SluiceError) {
        do {
            try statement.bind(value, at: index)
        } catch {
            throw error.sluiceError(database: databaseName)
        }
    }

    private func run(_ statement: Statement) throws(SluiceError) {
        do {
            _ = try statement.step()
            statement.reset()
        } catch {
            statement.reset()
            throw error.sluiceError(database: databaseName)
        }
    }

    private static func prepare(_ sql: String, _ connection: Connection, _ databaseName: String) throws(SluiceError) -> Statement {
        do {
            return try connection.prepare(sql)
        } catch {
            throw error.sluiceError(database: databaseName)
        }
    }

    private static func placeholders(_ count: Int) -> String {
        Array(repeating: "?", count: count).joined(separator: ", ")
    }
}

/// A set of attribute indexes, as a bit set: the key of a cached `UPDATE` statement.
struct ColumnSet: Hashable {
    private var words: [UInt64]

    init(width: Int) {
        words = Array(repeating: 0, count: (width + 63) / 64)
    }

    mutating func insert(_ index: Int) {
        words[index / 64] |= 1 << UInt64(index % 64)
    }

    var isEmpty: Bool { words.allSatisfy { $0 == 0 } }

    var members: [Int] {
        var result: [Int] = []
        for (wordIndex, word) in words.enumerated() {
            var bits = word
            while bits != 0 {
                result.append(wordIndex * 64 + bits.trailingZeroBitCount)
                bits &= bits - 1
            }
        }
        return result
    }
}
