import Foundation
@testable import Sluice

/// What a database holds, in the oracle's terms (`Oracle.snapshot()`): rows as text, links
/// as the linked rows' attribute values.
enum PropertyDatabase {
    static func snapshot(_ path: String, model: PropertyModel) throws -> [String: [String]] {
        let connection = try Connection(path: path, mode: .readOnly)
        let tables = Set(try connection.rows("SELECT name FROM sqlite_master WHERE type = 'table'").compactMap {
            if case .text(let name) = $0[0] { return name } else { return nil }
        })
        var contents: [[Int64: String]] = []
        var rowsByEntity: [[[ColumnValue]]] = []
        for entity in model.entities {
            let toOnes = entity.relationships.filter { !$0.toMany }
            // Columns in `Oracle.content`'s order: a family's `entity` column first.
            let family = entity.children.isEmpty ? [] : ["entity"]
            let columns = ["pk"] + family + entity.storedAttributes.map(\.columnName) + toOnes.map { "\($0.name)_pk" }
                + toOnes.filter { ordered($0, of: model) }.map { "\($0.name)_position" }
            let rows = tables.contains(entity.table)
                ? try connection.rows("SELECT \(columns.map(quoted).joined(separator: ", ")) FROM \(quoted(entity.table))") : []
            var content: [Int64: String] = [:]
            for row in rows {
                let names = family + entity.storedAttributes.map(\.columnName)
                let values = zip(names, row.dropFirst()).map { name, value in
                    if name == "entity", case .text(let text) = value, !family.isEmpty { return "entity=" + text }
                    return "\(name)=\(oracleValue(value).rendered)"
                }
                content[pk(row[0])] = "(" + values.joined(separator: ", ") + ")"
            }
            contents.append(content)
            rowsByEntity.append(rows)
        }
        var snapshot: [String: [String]] = [:]
        for (index, entity) in model.entities.enumerated() {
            let toOnes = entity.relationships.filter { !$0.toMany }
            let first = 1 + (entity.children.isEmpty ? 0 : 1) + entity.storedAttributes.count
            snapshot[entity.table] = rowsByEntity[index].map { row in
                var line = contents[index][pk(row[0])]!
                for (number, relationship) in toOnes.enumerated() {
                    let link = row[first + number]
                    line += " | \(relationship.name) -> " + (link == .null ? "NULL" : contents[relationship.target][pk(link)] ?? "dangling")
                    if ordered(relationship, of: model) {
                        let column = first + toOnes.count
                            + toOnes.prefix(number).filter { ordered($0, of: model) }.count
                        line += " @" + place(row[column])
                    }
                }
                return line
            }.sorted()
            for relationship in entity.relationships where relationship.toMany && relationship.inverse == nil {
                let table = "\(entity.table)_\(relationship.name)"
                let position = relationship.ordered ? ", position" : ""
                let links = tables.contains(table) ? try connection.rows("SELECT source_pk, target_pk\(position) FROM \(quoted(table))") : []
                snapshot[table] = links.map {
                    (contents[index][pk($0[0])] ?? "dangling") + " => " + (contents[relationship.target][pk($0[1])] ?? "dangling")
                        + (relationship.ordered ? " @" + place($0[2]) : "")
                }.sorted()
            }
        }
        return snapshot
    }

    /// Whether `relationship` is the to-one side of an ordered to-many (its place in a column beside it).
    private static func ordered(_ relationship: PropertyModel.Relationship, of model: PropertyModel) -> Bool {
        guard relationship.isInverseSide, let inverse = relationship.inverse else { return false }
        return model.entities[relationship.target].relationship(inverse)?.ordered == true
    }

    private static func place(_ value: ColumnValue) -> String {
        if case .integer(let number) = value { return String(number) }
        return "NULL"
    }

    private static func quoted(_ name: String) -> String { "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }

    private static func pk(_ value: ColumnValue) -> Int64 {
        if case .integer(let number) = value { return number }
        return -1
    }

    private static func oracleValue(_ value: ColumnValue) -> OracleValue {
        switch value {
        case .null: return .null
        case .integer(let number): return .integer(number)
        case .real(let number): return .real(number)
        case .text(let text): return .text(text)
        case .blob(let bytes): return .blob(bytes)
        }
    }

    /// What `PRAGMA integrity_check` says of the file: `["ok"]` when every index holds exactly
    /// the rows it should (a partial index, those its `WHERE` takes) and the b-trees are sound.
    static func integrity(_ path: String) throws -> [String] {
        try Connection(path: path, mode: .readOnly).rows("PRAGMA integrity_check").map { row in
            if case .text(let line) = row[0] { line } else { "\(row[0])" }
        }
    }

    /// The indexes `layout` gives the tables the file holds that it lacks, by name.
    static func missingIndexes(_ path: String, layout: DatabaseLayout) throws -> [String] {
        let connection = try Connection(path: path, mode: .readOnly)
        let names = Set(try connection.rows("SELECT name FROM sqlite_schema WHERE type IN ('table', 'index')").compactMap {
            if case .text(let name) = $0[0] { name } else { nil }
        })
        return layout.tables.filter { names.contains($0.name) }.flatMap(\.indexDefinitions).map(\.name)
            .filter { !names.contains($0) }
    }

    /// The lines the rejects file names, in its order.
    static func rejectedLines(_ path: String) throws -> [Int] {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return [] }
        return try text.split(separator: "\n").map { line in
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            return object?["line"] as? Int ?? -1
        }
    }
}
