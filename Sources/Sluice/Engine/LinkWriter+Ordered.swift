/// The links of an ordered to-many (`docs/model.md`, ordered relationships): each link also
/// gets its place in the list, in the position column beside it (`LinkPlan.positionColumn`:
/// the target's table for a to-many stored by its inverse, the join table otherwise).
///
/// * A place is the element's index among the array's non-null elements, from 0. A target
///   listed twice keeps its first place.
/// * `merge: replace`: every listed link takes its index; a link already at its index is not
///   written, so a re-import writes nothing and a reordered list rewrites the places that moved.
/// * `merge: add`: new links go after the source's largest place (its base, plus their
///   index); links already there keep theirs (as adding to an `NSOrderedSet`). A link without
///   a place (made before the relationship was ordered, or from its to-one side) gets one.
/// * A link whose target waits for the second pass carries its place there
///   (`PendingLinkStore.add`).
extension LinkWriter {
    func writeOrdered(_ link: Link, of record: Int, in writer: EntityWriter, plan: LinkPlan, position: String,
                      writers: [EntityWriter]) throws(SluiceError) -> Int
    {
        let source = writer.pk(of: record)
        let place = quoteIdentifier(position)
        let statements: OrderedStatements
        switch plan.storage {
        case .column:
            return 0
        case .inverse(let column):
            let table = quoteIdentifier(plan.targetTable)
            let quoted = quoteIdentifier(column)
            try indexes?.ensure(table: plan.targetTable, columns: [column])
            guard case .many = link else {
                return try sql.run("UPDATE \(table) SET \(quoted) = NULL, \(place) = NULL WHERE \(quoted) = ?", [.integer(source)])
            }
            statements = OrderedStatements(
                current: "SELECT \"pk\" FROM \(table) WHERE \(quoted) = ?",
                largest: "SELECT max(\(place)) FROM \(table) WHERE \(quoted) = ?",
                link: "UPDATE \(table) SET \(quoted) = ?1, \(place) = ?3 WHERE \"pk\" = ?2 AND \(quoted) \(sql.dialect.isDistinctFrom) ?1",
                place: "UPDATE \(table) SET \(place) = ?3 WHERE \"pk\" = ?2 AND \(quoted) = ?1 AND "
                    + Self.placeCondition(place, merge: plan.merge, dialect: sql.dialect),
                unlink: "UPDATE \(table) SET \(quoted) = NULL, \(place) = NULL WHERE \(quoted) = ?1 AND \"pk\" = ?2")
        case .join(let table, let sourceColumn, let targetColumn):
            let joinTable = quoteIdentifier(table)
            let sourceName = quoteIdentifier(sourceColumn)
            let targetName = quoteIdentifier(targetColumn)
            guard case .many = link else {
                return try sql.run("DELETE FROM \(joinTable) WHERE \(sourceName) = ?", [.integer(source)])
            }
            statements = OrderedStatements(
                current: "SELECT \(targetName) FROM \(joinTable) WHERE \(sourceName) = ?",
                largest: "SELECT max(\(place)) FROM \(joinTable) WHERE \(sourceName) = ?",
                link: sql.dialect.insertIgnoringDuplicates(into: joinTable, columns: "\(sourceName), \(targetName), \(place)",
                                                           values: "?1, ?2, ?3"),
                place: "UPDATE \(joinTable) SET \(place) = ?3 WHERE \(sourceName) = ?1 AND \(targetName) = ?2 AND "
                    + Self.placeCondition(place, merge: plan.merge, dialect: sql.dialect),
                unlink: "DELETE FROM \(joinTable) WHERE \(sourceName) = ?1 AND \(targetName) = ?2")
        }
        guard case .many(let targets) = link else { return 0 }
        return try linkInOrder(targets, of: record, in: writer, plan: plan, writers: writers, statements: statements)
    }

    /// Which existing links take the place given: under `replace` any at another place, under
    /// `add` only one without a place.
    private static func placeCondition(_ place: String, merge: Model.MergePolicy, dialect: SQLDialect) -> String {
        merge == .replace ? "\(place) \(dialect.isDistinctFrom) ?3" : "\(place) IS NULL"
    }

    /// The statements of one ordered to-many, each binding the source's pk, the target's pk
    /// and the place (`?1`, `?2`, `?3`).
    private struct OrderedStatements {
        /// The targets linked now (binds the source only).
        var current: String
        /// The source's largest place (binds the source only).
        var largest: String
        /// Makes a link that is not there, with its place.
        var link: String
        /// Gives an existing link its place.
        var place: String
        var unlink: String
    }

    private func linkInOrder(_ targets: [LinkTarget], of record: Int, in writer: EntityWriter, plan: LinkPlan,
                             writers: [EntityWriter], statements: OrderedStatements) throws(SluiceError) -> Int
    {
        let source = ColumnValue.integer(writer.pk(of: record))
        // A row inserted by this batch has no links yet, so its list starts at 0.
        var base: Int64 = 0
        if plan.merge == .add, !writer.wasInserted(record),
           case .integer(let largest)? = try sql.rows(statements.largest, [source]).first?.first {
            base = largest + 1
        }
        var made = 0
        var linked = Set<Int64>()
        var waiting = Set<ColumnValue>()
        for (index, target) in targets.enumerated() {
            let place = ColumnValue.integer(base + Int64(index))
            guard let pk = try resolve(target, plan: plan, writers: writers) else {
                if case .key(let key) = target, waiting.insert(key).inserted {
                    try deferLink(target, of: record, in: writer, plan: plan, order: base + Int64(index))
                }
                continue
            }
            guard linked.insert(pk).inserted else { continue }
            let arguments = [source, .integer(pk), place]
            let new = try sql.run(statements.link, arguments)
            if new > 0 {
                made += new
                continue
            }
            let moved = try sql.run(statements.place, arguments)
            // A nested record inserted by this batch was linked with its own row (and counted
            // there); taking its place is part of that link.
            if case .record(let handle) = target, writers[handle.entity].wasInserted(handle.index) { continue }
            made += moved
        }
        if plan.merge == .replace {
            for row in try sql.rows(statements.current, [source]) {
                guard case .integer(let pk) = row[0], !linked.contains(pk) else { continue }
                made += try sql.run(statements.unlink, [source, .integer(pk)])
            }
        }
        return made
    }
}
