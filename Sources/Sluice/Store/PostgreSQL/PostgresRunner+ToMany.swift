/// A to-many's links on PostgreSQL, set-based (`LinkStore` has the semantics):
/// each statement takes the batch's links as `bigint[]` parameters, `unnest`ed into rows, so
/// a batch makes a relationship's links in one to three statements however many records and
/// links it holds. A statement per link was a round trip to the server each: a batch of
/// albums with ten ordered tracks each took twenty.
extension PostgresRunner {
    /// The to-one of every row of `sources` emptied in one statement.
    func clear(_ plan: LinkPlan, sources: [Int64]) throws(SluiceError) {
        guard case .column(_, let name) = plan.storage else { preconditionFailure("only a to-one is cleared") }
        try connection.query("UPDATE \(quoteIdentifier(plan.sourceTable)) SET \(quoteIdentifier(name)) = NULL WHERE \(keys.quoted(plan.sourceTable)) = ANY($1::bigint[])",
                             [Self.array(sources)])
    }

    func unlinkOthers(_ plan: LinkPlan, sources: [Int64], keeping: [LinkPair]) throws(SluiceError) -> Int {
        let kept = "SELECT 1 FROM unnest($2::bigint[], $3::bigint[]) AS k(\"source_pk\", \"target_pk\") WHERE k.\"source_pk\" = "
        let sql: String
        switch plan.quotedToMany(keys, toOne: "a to-one has no list to follow") {
        case .inverseColumn(let table, let column, let key):
            let place = plan.positionColumn.map { ", \(quoteIdentifier($0)) = NULL" } ?? ""
            sql = "UPDATE \(table) AS t SET \(column) = NULL\(place) "
                + "WHERE t.\(column) = ANY($1::bigint[]) AND NOT EXISTS (\(kept)t.\(column) AND k.\"target_pk\" = t.\(key))"
        case .joinTable(let table, let source, let target):
            sql = "DELETE FROM \(table) AS j WHERE j.\(source) = ANY($1::bigint[]) "
                + "AND NOT EXISTS (\(kept)j.\(source) AND k.\"target_pk\" = j.\(target))"
        }
        return try connection.query(sql, [Self.array(sources), Self.array(keeping.map(\.source)),
                                          Self.array(keeping.map(\.target))]).changes
    }

    /// Two statements, as the default's two per link: the links not there are made with their
    /// places, then the links there take theirs (those just made already have them).
    func linkInPlace(_ plan: LinkPlan, _ links: [PlacedLink]) throws(SluiceError) -> Int {
        guard let position = plan.positionColumn else { preconditionFailure("only an ordered to-many has places") }
        let place = quoteIdentifier(position)
        let rows = "unnest($1::bigint[], $2::bigint[], $3::bigint[], $4::boolean[]) AS l(\"source_pk\", \"target_pk\", \"place\", \"counts\")"
        let link: String
        let table: String
        let match: String
        switch plan.quotedToMany(keys, toOne: "a to-one has no places") {
        case .inverseColumn(let name, let column, let key):
            table = "\(name) AS t"
            link = "UPDATE \(table) SET \(column) = l.\"source_pk\", \(place) = l.\"place\" FROM \(rows) "
                + "WHERE t.\(key) = l.\"target_pk\" AND t.\(column) IS DISTINCT FROM l.\"source_pk\""
            match = "t.\(key) = l.\"target_pk\" AND t.\(column) = l.\"source_pk\""
        case .joinTable(let name, let source, let target):
            table = "\(name) AS t"
            link = "INSERT INTO \(table) (\(source), \(target), \(place)) SELECT l.\"source_pk\", l.\"target_pk\", l.\"place\" "
                + "FROM \(rows) ON CONFLICT DO NOTHING"
            match = "t.\(source) = l.\"source_pk\" AND t.\(target) = l.\"target_pk\""
        }
        let condition = plan.merge == .replace ? "t.\(place) IS DISTINCT FROM l.\"place\"" : "t.\(place) IS NULL"
        let parameters = [Self.array(links.map(\.source)), Self.array(links.map(\.target)), Self.array(links.map(\.place)),
                          "{" + links.map { $0.countsMove ? "t" : "f" }.joined(separator: ",") + "}"]
        let made = try connection.query(link, parameters).changes
        let moved = try connection.query("""
            WITH u AS (UPDATE \(table) SET \(place) = l."place" FROM \(rows) WHERE \(match) AND \(condition) RETURNING l."counts")
            SELECT count(*) FILTER (WHERE "counts") FROM u
            """, parameters)
        return made + (Int(moved.text(0, 0)) ?? 0)
    }

    /// A `bigint[]` parameter in PostgreSQL's text form.
    static func array(_ values: [Int64]) -> String {
        "{" + values.map(String.init).joined(separator: ",") + "}"
    }
}
