/// The statements of a to-many's links that a batch makes together (`LinkWriter.writeToMany`):
/// the links a list no longer names are unlinked, and an ordered to-many's links take their
/// places. These defaults run a statement per source or per link, which SQLite, in process,
/// does in microseconds; PostgreSQL, where each statement is a round trip to the server,
/// overrides them with one set-based statement each (`PostgresRunner+ToMany.swift`).
extension SQLRunning {
    /// Unlinks, for each of `sources`, the links of `plan` it has now that `keeping` does not
    /// name (`merge: replace` given a list, or `null` for the to-many); an ordered to-many's
    /// place goes with its link. Returns the rows changed.
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

    /// Makes an ordered to-many's links with their places, each link named once: a link that
    /// is not there is made with its place (counted), one that is there takes its place where
    /// `plan.merge` says (`LinkWriter+ToMany.swift`), counted when `countsMove`. Returns the
    /// links counted.
    func linkInPlace(_ plan: LinkPlan, _ links: [PlacedLink]) throws(SluiceError) -> Int {
        let (link, place) = placeStatements(plan)
        var made = 0
        for placed in links {
            let arguments: [ColumnValue] = [.integer(placed.source), .integer(placed.target), .integer(placed.place)]
            let new = try run(link, arguments)
            if new > 0 {
                made += new
                continue
            }
            let moved = try run(place, arguments)
            if placed.countsMove { made += moved }
        }
        return made
    }

    /// For each of `sources`, the largest place of its links of an ordered to-many (sources
    /// without a placed link are left out): one query per `SQLParameters.maxPerStatement`.
    func largestPlaces(_ plan: LinkPlan, of sources: [Int64]) throws(SluiceError) -> [Int64: Int64] {
        guard let position = plan.positionColumn, let (table, column) = plan.sourceColumn else { return [:] }
        var found: [Int64: Int64] = [:]
        try rowsInSlices(of: sources.map(ColumnValue.integer)) { placeholders in
            "SELECT \(column), max(\(quoteIdentifier(position))) FROM \(table) WHERE \(column) IN (\(placeholders)) GROUP BY \(column)"
        } each: { row in
            if case .integer(let source) = row[0], case .integer(let largest) = row[1] { found[source] = largest }
        }
        return found
    }

    /// Lists the targets a source links now (binds the source), and unlinks one (binds the
    /// source and the target).
    private func unlinkStatements(_ plan: LinkPlan) -> (current: String, unlink: String) {
        let place = plan.positionColumn.map { ", \(quoteIdentifier($0)) = NULL" } ?? ""
        switch plan.storage {
        case .column:
            preconditionFailure("a to-one has no list to follow")
        case .inverse(let column):
            let table = quoteIdentifier(plan.targetTable)
            let quoted = quoteIdentifier(column)
            return ("SELECT \"pk\" FROM \(table) WHERE \(quoted) = ?",
                    "UPDATE \(table) SET \(quoted) = NULL\(place) WHERE \(quoted) = ?1 AND \"pk\" = ?2")
        case .join(let table, let sourceColumn, let targetColumn):
            let joinTable = quoteIdentifier(table)
            let sourceName = quoteIdentifier(sourceColumn)
            return ("SELECT \(quoteIdentifier(targetColumn)) FROM \(joinTable) WHERE \(sourceName) = ?",
                    "DELETE FROM \(joinTable) WHERE \(sourceName) = ?1 AND \(quoteIdentifier(targetColumn)) = ?2")
        }
    }

    /// Makes a link with its place where it is not there, and gives an existing link its place
    /// (each binds the source, the target and the place: `?1`, `?2`, `?3`).
    private func placeStatements(_ plan: LinkPlan) -> (link: String, place: String) {
        guard let position = plan.positionColumn else { preconditionFailure("only an ordered to-many has places") }
        let place = quoteIdentifier(position)
        let condition = plan.merge == .replace ? "\(place) \(dialect.isDistinctFrom) ?3" : "\(place) IS NULL"
        switch plan.storage {
        case .column:
            preconditionFailure("a to-one has no places")
        case .inverse(let column):
            let table = quoteIdentifier(plan.targetTable)
            let quoted = quoteIdentifier(column)
            return ("UPDATE \(table) SET \(quoted) = ?1, \(place) = ?3 WHERE \"pk\" = ?2 AND \(quoted) \(dialect.isDistinctFrom) ?1",
                    "UPDATE \(table) SET \(place) = ?3 WHERE \"pk\" = ?2 AND \(quoted) = ?1 AND \(condition)")
        case .join(let table, let sourceColumn, let targetColumn):
            let joinTable = quoteIdentifier(table)
            let sourceName = quoteIdentifier(sourceColumn)
            let targetName = quoteIdentifier(targetColumn)
            return (dialect.insertIgnoringDuplicates(into: joinTable, columns: "\(sourceName), \(targetName), \(place)", values: "?1, ?2, ?3"),
                    "UPDATE \(joinTable) SET \(place) = ?3 WHERE \(sourceName) = ?1 AND \(targetName) = ?2 AND \(condition)")
        }
    }
}

/// A link of an ordered to-many with its place in the list.
struct PlacedLink {
    var source: Int64
    var target: Int64
    var place: Int64
    /// Whether taking its place counts as a link made: not for a nested record this batch
    /// inserted, which was linked (and counted) with its own row.
    var countsMove: Bool
}

extension LinkPlan {
    /// Where a to-many's links are listed by source: the table (quoted) and the column
    /// (quoted) holding the source's pk. Nil for a to-one.
    var sourceColumn: (table: String, column: String)? {
        switch storage {
        case .column: return nil
        case .inverse(let column): return (quoteIdentifier(targetTable), quoteIdentifier(column))
        case .join(let table, let sourceColumn, _): return (quoteIdentifier(table), quoteIdentifier(sourceColumn))
        }
    }
}
