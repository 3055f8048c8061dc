import Foundation
@testable import Sluice

/// What two SQLite files hold, compared table by table; each function returns the first
/// difference as one line (table, row, column, both values), or nil.
enum StoreComparison {
    /// Every table of the file, every row and every byte of it (`Z_OPT`, `Z_MAX`, the
    /// metadata and model cache included), and the schema.
    struct Snapshot {
        var schema: [[ColumnValue]]
        var tables: [String: (columns: [String], rows: [[ColumnValue]])] = [:]

        init(_ path: String) throws {
            let connection = try Connection(path: path, mode: .readOnly)
            defer { connection.close() }
            schema = try connection.rows("SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name")
            for name in try connection.rows("SELECT name FROM sqlite_master WHERE type = 'table'").compactMap(\.first?.text) {
                let columns = try connection.rows("SELECT name FROM pragma_table_info(?) ORDER BY cid", [.text(name)]).compactMap(\.first?.text)
                let order = (1...max(columns.count, 1)).map(String.init).joined(separator: ", ")
                let rows = try connection.rows("SELECT * FROM \"\(name)\" ORDER BY \(order)")
                tables[name] = (columns, name == "Z_METADATA" ? rows.map { $0.map(Self.withoutImportLog) } : rows)
            }
        }

        /// A metadata property list without Sluice's import log (`CoreDataImportLog`), which
        /// records every import, one that changes no object too; written again by Sluice's
        /// writer either way, so that what is compared is the values, not Core Data's encoding
        /// of them (the log's import writes the whole list again).
        private static func withoutImportLog(_ value: ColumnValue) -> ColumnValue {
            guard case .blob(let bytes) = value, case .dictionary(let members)? = try? BinaryPropertyList.read(bytes) else { return value }
            return .blob(BinaryPropertyList.write(.dictionary(members.filter { $0.key != CoreDataImportLog.key })))
        }

        /// The first difference from `other`, taken after this one.
        func difference(after other: Snapshot) -> String? {
            if schema != other.schema { return "the schema changed" }
            for name in tables.keys.sorted() {
                let (columns, before) = tables[name]!
                let after = other.tables[name]?.rows ?? []
                for (index, row) in before.enumerated() {
                    guard index < after.count else { return "\(name): row \(index + 1) of \(before.count) is gone" }
                    if let column = zip(row, after[index]).enumerated().first(where: { $0.element.0 != $0.element.1 })?.offset {
                        return "\(name) row \(rowName(row, columns)) \(columns[column]): \(describe(row[column])) -> "
                            + describe(after[index][column])
                    }
                }
                if after.count > before.count { return "\(name): \(after.count - before.count) rows added" }
            }
            return nil
        }
    }

    /// The objects of two stores of one model, with keys renumbered: each table's rows keyed by
    /// entity and identity, every to-one as its target's identity, an order key as its place
    /// among the owner's other links, a join table's rows as pairs of identities. `Z_PK`,
    /// `Z_OPT` and `Z_MAX` are left out; what the model does not hold (`Z_METADATA`,
    /// `Z_MODELCACHE`, history tables) is not compared.
    static func objects(_ expected: StoreExport, _ actual: StoreExport, expectedPath: String, actualPath: String) throws -> String? {
        let left = try Connection(path: expectedPath, mode: .readOnly)
        let right = try Connection(path: actualPath, mode: .readOnly)
        defer { left.close(); right.close() }
        let layout = expected.layout
        for table in layout.tables {
            let rows = try [(left, expected), (right, actual)].map { connection, export in
                try logicalRows(table, connection: connection, export: export)
            }
            if let difference = compare(table.name, columns: table.columns.map(\.name), rows[0], rows[1]) { return difference }
        }
        for join in layout.joinTables {
            let rows = try [(left, expected), (right, actual)].map { connection, export -> [String: [ColumnValue]] in
                var pairs: [String: [ColumnValue]] = [:]
                let orders = [join.first.orderColumn, join.second.orderColumn].compactMap { $0 }
                let sql = "SELECT \(([join.first.column, join.second.column] + orders).joined(separator: ", ")) FROM \(join.name)"
                // The order column's owner is the row of the side whose relationship is ordered.
                let firstIsOrdered = export.model.entities.first { $0.name == join.first.entity }?
                    .relationships.first { $0.name == join.first.relationship }?.ordered != nil
                let raw = ranked(try connection.rows(sql), owner: firstIsOrdered ? 0 : 1, order: orders.isEmpty ? nil : 2)
                for row in raw {
                    let first = export.identity(of: row[0], in: layout.entity(named: join.first.entity)!.table) ?? "\(row[0])"
                    let second = export.identity(of: row[1], in: layout.entity(named: join.second.entity)!.table) ?? "\(row[1])"
                    pairs[first + " " + second] = [.text(first), .text(second)] + row.dropFirst(2)
                }
                return pairs
            }
            if let difference = compare(join.name, columns: ["first", "second", "order"], rows[0], rows[1]) { return difference }
        }
        return nil
    }

    /// Each row of `table` by `Z_ENT` and identity, without `Z_PK` and `Z_OPT`, links as identities.
    private static func logicalRows(_ table: CoreDataStoreLayout.Table, connection: Connection,
                                    export: StoreExport) throws -> [String: [ColumnValue]] {
        let layout = export.layout
        var rows = try connection.rows("SELECT \(table.columns.map(\.name).joined(separator: ", ")) FROM \(table.name)")
        // An order key becomes its place among the links of the same owner.
        for (index, column) in table.columns.enumerated() {
            guard case .toOneOrder(let entity, let relationship) = column.role,
                  case .toOne(_, let owner, _, _)? = layout.storage(ofRelationship: relationship, in: entity),
                  let ownerIndex = table.columns.firstIndex(where: { $0.name == owner }) else { continue }
            rows = ranked(rows, owner: ownerIndex, order: index)
        }
        var result: [String: [ColumnValue]] = [:]
        for row in rows {
            var logical: [ColumnValue] = []
            var key = ""
            for (index, column) in table.columns.enumerated() {
                switch column.role {
                case .primaryKey:
                    key = export.identity(of: row[index], in: table.name) ?? "?"
                    logical.append(.null)
                case .optimisticLock:
                    logical.append(.null)
                case .toOne(let entity, let relationship):
                    let table = target(of: relationship, in: entity, layout: layout, model: export.model)
                    logical.append(export.identity(of: row[index], in: table).map { .text($0) } ?? row[index])
                case .virtualToOne(let entity, _):
                    logical.append(export.identity(of: row[index], in: layout.entity(named: entity)?.table ?? "").map { .text($0) } ?? row[index])
                default:
                    logical.append(row[index])
                }
            }

            // Rows known by all their attributes may repeat: each is counted.
            let name = "Z_ENT \(describe(row[table.columns.firstIndex { $0.role == .entityNumber } ?? 0])) \(key)"
            var unique = name
            var repeated = 1
            while result[unique] != nil {
                repeated += 1
                unique = name + " #\(repeated)"
            }
            result[unique] = logical
        }
        return result
    }

    private static func target(of relationship: String, in entity: String, layout: CoreDataStoreLayout, model: CoreDataModel) -> String {
        var current: String? = entity
        while let name = current, let found = model.entities.first(where: { $0.name == name }) {
            if let destination = found.relationships.first(where: { $0.name == relationship })?.destinationEntity?.value {
                return layout.entity(named: destination)?.table ?? ""
            }
            current = found.parentEntity?.value
        }
        return ""
    }

    /// `rows` with the value at `order` replaced by its place (0, 1, …) among the rows of the
    /// same value at `owner`; without `order`, unchanged.
    private static func ranked(_ rows: [[ColumnValue]], owner: Int, order: Int?) -> [[ColumnValue]] {
        guard let order else { return rows }
        var places: [Int: Int64] = [:]
        let groups = Dictionary(grouping: rows.indices) { "\(rows[$0][owner])" }
        for indices in groups.values {
            let sorted = indices.sorted { (number(rows[$0][order]), $0) < (number(rows[$1][order]), $1) }
            for (place, index) in sorted.enumerated() where rows[index][order] != .null { places[index] = Int64(place) }
        }
        return rows.indices.map { index in
            var row = rows[index]
            row[order] = places[index].map { .integer($0) } ?? .null
            return row
        }
    }

    private static func number(_ value: ColumnValue) -> Double {
        switch value {
        case .integer(let number): return Double(number)
        case .real(let number): return number
        default: return .infinity
        }
    }

    private static func compare(_ table: String, columns: [String], _ expected: [String: [ColumnValue]],
                                _ actual: [String: [ColumnValue]]) -> String? {
        for key in expected.keys.sorted() {
            guard let row = actual[key] else { return "\(table) row \(key): missing (\(actual.count) rows for \(expected.count))" }
            if let column = zip(expected[key]!, row).enumerated().first(where: { $0.element.0 != $0.element.1 })?.offset {
                return "\(table) row \(key) \(columns[column]): \(describe(expected[key]![column])) in the store, "
                    + "\(describe(row[column])) imported"
            }
        }
        if let extra = actual.keys.sorted().first(where: { expected[$0] == nil }) {
            return "\(table) row \(extra): not in the store (\(actual.count) rows for \(expected.count))"
        }
        return nil
    }

    private static func rowName(_ row: [ColumnValue], _ columns: [String]) -> String {
        columns.firstIndex(of: "Z_PK").map { "Z_PK \(describe(row[$0]))" } ?? describe(row.first ?? .null)
    }

    /// A value for a message: numbers with every digit, text quoted, blobs by size and start.
    static func describe(_ value: ColumnValue) -> String {
        switch value {
        case .null: return "NULL"
        case .integer(let number): return String(number)
        case .real(let number): return number.description + " (REAL)"
        case .text(let text): return "'\(text.prefix(120))'"
        case .blob(let bytes): return "blob of \(bytes.count) bytes " + bytes.prefix(12).map { String(format: "%02x", $0) }.joined()
        }
    }
}
