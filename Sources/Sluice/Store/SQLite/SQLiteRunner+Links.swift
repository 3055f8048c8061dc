/// SQLite's links of a batch (`LinkStore`): a prepared statement per pair, per source or per
/// link, which SQLite, in process, runs in microseconds. Each writes only where it changes
/// something (`IS NOT`, `INSERT OR IGNORE`), so a re-import makes no write. (`pks`,
/// `hasRows` and `largestPlaces` are shared with PostgreSQL: `Store/SQLRunning+Lookups.swift`.)
extension SQLiteRunner: LinkStore {
    func link(_ plan: LinkPlan, _ pairs: [LinkPair]) throws(SluiceError) -> Int {
        let statement: String
        let sourceFirst: Bool
        switch plan.storage {
        case .column(_, let name):
            let quoted = quoteIdentifier(name)
            statement = "UPDATE \(quoteIdentifier(plan.sourceTable)) SET \(quoted) = ?1 WHERE \(keys.quoted(plan.sourceTable)) = ?2 AND \(quoted) IS NOT ?1"
            sourceFirst = false
        case .inverseColumn(_, let column):
            let quoted = quoteIdentifier(column)
            statement = "UPDATE \(quoteIdentifier(plan.targetTable)) SET \(quoted) = ?1 WHERE \(keys.quoted(plan.targetTable)) = ?2 AND \(quoted) IS NOT ?1"
            sourceFirst = true
        case .joinTable(let table, let sourceColumn, let targetColumn):
            statement = "INSERT OR IGNORE INTO \(quoteIdentifier(table)) (\(quoteIdentifier(sourceColumn)), \(quoteIdentifier(targetColumn))) "
                + "VALUES (?1, ?2)"
            sourceFirst = true
        }
        var made = 0
        for pair in pairs {
            let (first, second) = sourceFirst ? (pair.source, pair.target) : (pair.target, pair.source)
            made += try run(statement, [.integer(first), .integer(second)])
        }
        return made
    }

    func clear(_ plan: LinkPlan, sources: [Int64]) throws(SluiceError) {
        guard case .column(_, let name) = plan.storage else { preconditionFailure("only a to-one is cleared") }
        let clear = "UPDATE \(quoteIdentifier(plan.sourceTable)) SET \(quoteIdentifier(name)) = NULL WHERE \(keys.quoted(plan.sourceTable)) = ?1"
        for pk in sources { try run(clear, [.integer(pk)]) }
    }

    func unlinkOthers(_ plan: LinkPlan, sources: [Int64], keeping: [LinkPair]) throws(SluiceError) -> Int {
        let (current, unlink) = unlinkStatements(plan)
        var kept: [Int64: Set<Int64>] = [:]
        for pair in keeping { kept[pair.source, default: []].insert(pair.target) }
        var made = 0
        for source in sources {
            let linked = kept[source] ?? []
            for row in try rows(current, [.integer(source)]) {
                guard case .integer(let target) = row[0], !linked.contains(target) else { continue }
                made += try run(unlink, [.integer(source), .integer(target)])
            }
        }
        return made
    }

    func linkInPlace(_ plan: LinkPlan, _ links: [PlacedLink]) throws(SluiceError) -> Int {
        let (link, place) = placeStatements(plan)
        var made = 0
        for placed in links {
            let arguments: [ColumnValue] = [.integer(placed.source), .integer(placed.target), .integer(placed.place)]
            let new = try run(link, arguments)
            if new > 0 {
                made += new
                // A link moved from another source keeps the place given: the layout's
                // trigger may have emptied it (Core Data's order keys, `CoreDataOrderKeys`,
                // when the place is the one the row had). Writes nothing where it is kept.
                if plan.placesAgainAfterMove { _ = try run(place, arguments) }
                continue
            }
            let moved = try run(place, arguments)
            if placed.countsMove { made += moved }
        }
        return made
    }

    /// Lists the targets a source links now (binds the source), and unlinks one (binds the
    /// source and the target).
    private func unlinkStatements(_ plan: LinkPlan) -> (current: String, unlink: String) {
        let place = plan.positionColumn.map { ", \(quoteIdentifier($0)) = NULL" } ?? ""
        switch plan.quotedToMany(keys, toOne: "a to-one has no list to follow") {
        case .inverseColumn(let table, let column, let key):
            return ("SELECT \(key) FROM \(table) WHERE \(column) = ?",
                    "UPDATE \(table) SET \(column) = NULL\(place) WHERE \(column) = ?1 AND \(key) = ?2")
        case .joinTable(let table, let source, let target):
            return ("SELECT \(target) FROM \(table) WHERE \(source) = ?",
                    "DELETE FROM \(table) WHERE \(source) = ?1 AND \(target) = ?2")
        }
    }

    /// Makes a link with its place where it is not there, and gives an existing link its place
    /// (each binds the source, the target and the place: `?1`, `?2`, `?3`).
    private func placeStatements(_ plan: LinkPlan) -> (link: String, place: String) {
        guard let position = plan.positionColumn else { preconditionFailure("only an ordered to-many has places") }
        let place = quoteIdentifier(position)
        let condition = plan.merge == .replace ? "\(place) IS NOT ?3" : "\(place) IS NULL"
        switch plan.quotedToMany(keys, toOne: "a to-one has no places") {
        case .inverseColumn(let table, let column, let key):
            return ("UPDATE \(table) SET \(column) = ?1, \(place) = ?3 WHERE \(key) = ?2 AND \(column) IS NOT ?1",
                    "UPDATE \(table) SET \(place) = ?3 WHERE \(key) = ?2 AND \(column) = ?1 AND \(condition)")
        case .joinTable(let table, let source, let target):
            return ("INSERT OR IGNORE INTO \(table) (\(source), \(target), \(place)) VALUES (?1, ?2, ?3)",
                    "UPDATE \(table) SET \(place) = ?3 WHERE \(source) = ?1 AND \(target) = ?2 AND \(condition)")
        }
    }
}
