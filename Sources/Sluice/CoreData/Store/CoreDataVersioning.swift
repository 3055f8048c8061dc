/// `Z_OPT`, the version Core Data's optimistic locking compares when it saves a row a context
/// read before: 1 in a new row, and one more after each save that changed the row. An import
/// is one save. So a row of an existing store grows by one when the import changes any of its
/// columns, and also when it changes one of its to-manys, whose links live in other rows (the
/// inverse to-one's column, a to-many's column in the destination's table) or in a join table:
/// Core Data counts the row at the to-many's end as changed too. A row the import creates keeps
/// 1, whatever the import does to it afterwards (later records, the second pass).
///
/// The statements are plain SQL: TEMP triggers record, in a TEMP table, each row of the store
/// (a key no larger than the table's last key before the import) that an `UPDATE`, `INSERT` or
/// `DELETE` changes, whichever statement of the engine runs it; before the commit each recorded
/// row's `Z_OPT` is raised once. A new store has no rows before the import: only the table is
/// made, so that the raise finds nothing, and no trigger slows its load.
struct CoreDataVersioning: Sendable {
    /// An entity table: its name and the columns whose change is the row's (all but `Z_PK`
    /// and `Z_OPT`).
    struct Table: Sendable {
        var name: String
        var columns: [String]
    }

    /// A column holding the key of another table's row whose to-many it stores: an inverse
    /// to-one's (`ZROUTE` of `ZSTOP` for `Route.stops`), a to-many's without inverse in the
    /// destination's table (`Z2MODIFIERS`), or one side of a join table.
    struct Link: Sendable {
        var table: String
        var column: String
        var target: String
    }

    let tables: [Table]
    let links: [Link]
    /// The join tables, whose rows are links only.
    let joinTables: Set<String>

    static let changedTable = "sluice_changed_rows"

    /// The statements run as the import begins: the TEMP table, and, for an existing store
    /// (`lastKeys`: each table's largest key before the import), the triggers.
    func setup(lastKeys: [String: Int64]?) -> [String] {
        var statements = ["CREATE TEMP TABLE IF NOT EXISTS \(Self.changedTable) (tbl TEXT, pk INTEGER, PRIMARY KEY (tbl, pk)) WITHOUT ROWID"]
        guard let lastKeys else { return statements }
        // Unqualified: a trigger's statements may not name a database (the TEMP table is
        // found first).
        func record(_ table: String, _ key: String, when condition: String) -> String {
            guard let last = lastKeys[table] else { return "" }
            return "INSERT OR IGNORE INTO \(Self.changedTable) SELECT \(quoteText(table)), \(key) "
                + "WHERE \(key) <= \(last)\(condition.isEmpty ? "" : " AND " + condition); "
        }
        let changedTables = Set(tables.map(\.name)).union(joinTables)
        for table in changedTables.sorted() {
            let own = tables.first { $0.name == table }
            let linksOut = links.filter { $0.table == table }
            var onUpdate = ""
            if let own, !own.columns.isEmpty {
                let changed = own.columns.map { "old.\(quoteIdentifier($0)) IS NOT new.\(quoteIdentifier($0))" }
                onUpdate += record(table, "old.Z_PK", when: "(" + changed.joined(separator: " OR ") + ")")
            }
            var onInsert = "", onDelete = ""
            for link in linksOut {
                let column = quoteIdentifier(link.column)
                onUpdate += record(link.target, "old.\(column)", when: "old.\(column) IS NOT new.\(column)")
                onUpdate += record(link.target, "new.\(column)", when: "old.\(column) IS NOT new.\(column)")
                onInsert += record(link.target, "new.\(column)", when: "")
                onDelete += record(link.target, "old.\(column)", when: "")
            }
            for (event, body) in [("UPDATE", onUpdate), ("INSERT", onInsert), ("DELETE", onDelete)] where !body.isEmpty {
                statements.append("CREATE TEMP TRIGGER \(quoteIdentifier("sluice_\(event.lowercased())_\(table)")) AFTER \(event) "
                    + "ON main.\(quoteIdentifier(table)) BEGIN \(body)END")
            }
        }
        return statements
    }

    /// Before the commit: each recorded row's version raised once.
    var raise: [String] {
        tables.map { table in
            "UPDATE main.\(quoteIdentifier(table.name)) SET Z_OPT = ifnull(Z_OPT, 0) + 1 "
                + "WHERE Z_PK IN (SELECT pk FROM temp.\(Self.changedTable) WHERE tbl = \(quoteText(table.name)))"
        }
    }
}
