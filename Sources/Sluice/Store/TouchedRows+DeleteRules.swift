/// What deleting rows does to the rows their relationships link, by each relationship's
/// deletion rule (`Model.DeleteRule`, `docs/import-semantics.md`), set-based over the rows
/// to delete, which are kept in the temporary table `"sluice_gone"` (entity, key), never in
/// memory:
///
/// * Cascade adds the rows a row to delete links, and theirs, until no rule adds a row.
/// * Deny refuses the import when a row to delete links a row that stays.
/// * Nullify removes the links to a deleted row: the column that names it, or its join rows.
/// * No Action leaves the other side's column naming the deleted row's key.
///
/// A column naming a deleted row for a relationship without inverse is emptied, and a deleted
/// row's join-table rows go with it, whatever the rule.
struct DeleteRules {
    let sql: any SQLRunning
    let plans: [LinkPlan]
    let tables: [String]

    /// The keys of the rows of `entity` to delete, as a subquery.
    static func gone(_ entity: Int) -> String {
        "(SELECT \"pk\" FROM \"sluice_gone\" WHERE \"entity\" = \(entity))"
    }

    func entitiesWithRowsGone() throws(SluiceError) -> [Int] {
        try sql.rows("SELECT DISTINCT \"entity\" FROM \"sluice_gone\" ORDER BY \"entity\"", []).compactMap { row in
            if case .integer(let entity) = row[0] { return Int(entity) }
            return nil
        }
    }

    /// The rows `plan` links from the rows of its source to delete: (source key, target key).
    private func links(_ plan: LinkPlan) -> (select: String, source: String, target: String) {
        let gone = Self.gone(plan.source)
        switch plan.storage {
        case .column(let table, let column):
            let (key, linked) = (sql.keys.quoted(table), quoteIdentifier(column))
            return ("FROM \(quoteIdentifier(table)) WHERE \(key) IN \(gone) AND \(linked) IS NOT NULL", key, linked)
        case .inverseColumn(let table, let column):
            let (key, linked) = (sql.keys.quoted(table), quoteIdentifier(column))
            return ("FROM \(quoteIdentifier(table)) WHERE \(linked) IN \(gone)", linked, key)
        case .joinTable(let table, let sourceColumn, let targetColumn):
            let (source, target) = (quoteIdentifier(sourceColumn), quoteIdentifier(targetColumn))
            return ("FROM \(quoteIdentifier(table)) WHERE \(source) IN \(gone)", source, target)
        }
    }

    /// Adds the rows Cascade reaches, a relationship at a time, until a round adds none: one
    /// statement per cascading relationship and round, however many rows.
    func cascade() throws(SluiceError) {
        let cascading = plans.filter { $0.deleteRule == .cascade }
        guard !cascading.isEmpty else { return }
        var added = 1
        while added > 0 {
            added = 0
            for plan in cascading {
                let links = links(plan)
                added += try sql.run("""
                    INSERT INTO "sluice_gone" SELECT DISTINCT \(plan.target), \(links.target) \(links.select)
                    AND \(links.target) NOT IN \(Self.gone(plan.target))
                    """, [])
            }
        }
    }

    /// Throws when a row to delete links, through a relationship whose rule is Deny, a row
    /// that stays: the first such row, by key.
    func refuseDenied() throws(SluiceError) {
        for plan in plans where plan.deleteRule == .deny {
            let links = links(plan)
            let rows = try sql.rows("""
                SELECT \(links.source), \(links.target) \(links.select) AND \(links.target) NOT IN \(Self.gone(plan.target))
                ORDER BY \(links.source), \(links.target) LIMIT 1
                """, [])
            guard let row = rows.first, case .integer(let source) = row[0], case .integer(let target) = row[1] else { continue }
            let entity = plan.name.prefix { $0 != "." }
            let (table, other) = (tables[plan.source], tables[plan.target])
            throw SluiceError(.data, "--delete-missing: \(plan.name) has the deletion rule Deny, and the \(entity) row "
                + "\(table).\(sql.keys.column(of: table)) = \(source), which this import does not mention, still links "
                + "\(other).\(sql.keys.column(of: other)) = \(target), which stays; nothing was written")
        }
    }

    /// Removes the links to the rows of `entity` to delete that their rules remove. A row that
    /// is itself deleted keeps its column: emptied, it would be written twice for nothing
    /// (W3's weekly update: every stop time of a withdrawn trip, 5,940 rows at scale 0.2).
    func unlink(_ entity: Int) throws(SluiceError) {
        let gone = Self.gone(entity)
        var done: Set<String> = []
        // The entity's to-manys kept in another table's column, by their own rule.
        for plan in plans where plan.source == entity {
            switch plan.storage {
            case .inverseColumn(let table, let column):
                done.insert(table + "." + column)
                guard plan.deleteRule != .noAction else { continue }
                // An ordered to-many's places go with its links.
                let place = plan.positionColumn.map { ", \(quoteIdentifier($0)) = NULL" } ?? ""
                try sql.run("UPDATE \(quoteIdentifier(table)) SET \(quoteIdentifier(column)) = NULL\(place) "
                    + "WHERE \(quoteIdentifier(column)) IN \(gone)" + staying(table, plan.target), [])
            case .joinTable(let table, let sourceColumn, _):
                try sql.run("DELETE FROM \(quoteIdentifier(table)) WHERE \(quoteIdentifier(sourceColumn)) IN \(gone)", [])
            case .column:
                break
            }
        }
        // Columns and join rows of other rows that name a row to delete, by the rule of their
        // inverse (the deleted row's side); without inverse, emptied.
        for plan in plans where plan.target == entity {
            switch plan.storage {
            case .column(let table, let column):
                guard !done.contains(table + "." + column), plan.inverseDeleteRule != .noAction else { continue }
                done.insert(table + "." + column)
                try sql.run("UPDATE \(quoteIdentifier(table)) SET \(quoteIdentifier(column)) = NULL "
                    + "WHERE \(quoteIdentifier(column)) IN \(gone)" + staying(table, plan.source), [])
            case .joinTable(let table, _, let targetColumn):
                try sql.run("DELETE FROM \(quoteIdentifier(table)) WHERE \(quoteIdentifier(targetColumn)) IN \(gone)", [])
            case .inverseColumn:
                break
            }
        }
    }

    /// The condition (`AND …`) that keeps to the rows of `table`, `entity`'s, that stay.
    private func staying(_ table: String, _ entity: Int) -> String {
        " AND \(sql.keys.quoted(table)) NOT IN \(Self.gone(entity))"
    }
}
