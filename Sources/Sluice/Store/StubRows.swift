/// The statement that makes the rows `--unresolved stub` asks for: one per distinct id that
/// names no row, holding the id, in a family's table the entity the relationship names (a row
/// of a family always names its entity), and the columns the store fills itself (Core Data's
/// `Z_ENT`, `Z_OPT`). The same text on both stores.
enum StubRows {
    /// `missing` is the `FROM … WHERE …` clause that yields the ids as `id`.
    static func insert(into table: String, idColumn: String, id: String, entity: String?, keys: TableKeys,
                       missing: String) -> String {
        var columns = [quoteIdentifier(idColumn)]
        var values = ["DISTINCT \(id)"]
        if let entity {
            let (column, value) = keys.entityColumn(of: table, entity: entity)
            columns.append(quoteIdentifier(column))
            values.append(literal(value))
        }
        if let feed = keys.feed {
            columns.append(quoteIdentifier(Model.feedColumn))
            values.append(quoteText(feed))
        }
        for (column, fill) in keys.filled(of: table) {
            columns.append(quoteIdentifier(column))
            values.append(fill.insertedSQL)
        }
        return "INSERT INTO \(quoteIdentifier(table)) (\(columns.joined(separator: ", "))) "
            + "SELECT \(values.joined(separator: ", ")) \(missing)"
    }

    private static func literal(_ value: ColumnValue) -> String {
        switch value {
        case .integer(let number): return String(number)
        case .text(let text): return quoteText(text)
        default: preconditionFailure("an entity is named by text or a number")
        }
    }
}
