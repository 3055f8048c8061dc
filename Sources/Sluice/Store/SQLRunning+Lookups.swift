/// The lookups of `LinkStore` that read the same in both stores' SQL, written once.
extension SQLRunning {
    /// `LinkStore.pks`: one `IN` query per `SQLParameters.maxPerStatement` keys.
    func pks(of keys: [ColumnValue], in table: String, column: String) throws(SluiceError) -> KnownIDs {
        var found = KnownIDs()
        try rowsInSlices(of: keys) { placeholders in
            "SELECT \(quoteIdentifier(column)), \(self.keys.quoted(table)) FROM \(quoteIdentifier(table)) WHERE \(quoteIdentifier(column)) IN (\(placeholders))\(self.keys.inFeed())"
        } each: { row in
            if case .integer(let pk) = row[1] { found.set(row[0], pk) }
        }
        return found
    }

    /// `LinkStore.ids(after:limit:in:column:)`: one read in key order.
    func ids(after: Int64?, limit: Int, in table: String, column: String) throws(SluiceError) -> [(id: ColumnValue, pk: Int64)] {
        let key = keys.quoted(table)
        let rows = try rows("SELECT \(quoteIdentifier(column)), \(key) FROM \(quoteIdentifier(table)) WHERE \(key) > ?\(keys.inFeed()) ORDER BY \(key) LIMIT ?",
                            [.integer(after ?? .min), .integer(Int64(limit))])
        return rows.compactMap { row in
            guard case .integer(let pk) = row[1] else { return nil }
            return (row[0], pk)
        }
    }

    func hasRows(_ table: String) throws(SluiceError) -> Bool {
        try !rows("SELECT 1 FROM \(quoteIdentifier(table)) LIMIT 1", []).isEmpty
    }

    /// `LinkStore.largestPlaces`: one query per `SQLParameters.maxPerStatement` sources.
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

    /// Runs `query` (given its `IN` list's placeholders) over `values` in slices of at most
    /// `SQLParameters.maxPerStatement`, each padded with NULLs to one of a few list sizes (so
    /// that few distinct statements are prepared), and hands `each` every row.
    func rowsInSlices(of values: [ColumnValue], _ query: (String) -> String,
                      each: ([ColumnValue]) -> Void) throws(SluiceError) {
        var start = 0
        while start < values.count {
            let end = min(start + SQLParameters.maxPerStatement, values.count)
            let size = SQLParameters.listSize(for: end - start, limit: SQLParameters.maxPerStatement)
            let arguments = Array(values[start..<end]) + repeatElement(ColumnValue.null, count: size - (end - start))
            for row in try rows(query(SQLParameters.placeholders(size)), arguments) { each(row) }
            start = end
        }
    }
}

/// A to-many's storage with its names quoted, as the stores' link statements name them.
enum QuotedToMany {
    /// The target's `table`, whose `column` holds the source's key, and its key column `key`.
    case inverseColumn(table: String, column: String, key: String)
    /// A join `table`, its column holding the source's key and its column holding the target's.
    case joinTable(table: String, source: String, target: String)
}

extension LinkPlan {
    /// The names of a to-many's storage, quoted (`keys`: the store's key column per table). A
    /// to-one has none: `toOne` says which statement it was asked for by mistake.
    func quotedToMany(_ keys: TableKeys, toOne: @autoclosure () -> String) -> QuotedToMany {
        switch storage {
        case .column:
            preconditionFailure(toOne())
        case .inverseColumn(_, let column):
            return .inverseColumn(table: quoteIdentifier(targetTable), column: quoteIdentifier(column),
                                  key: keys.quoted(targetTable))
        case .joinTable(let table, let sourceColumn, let targetColumn):
            return .joinTable(table: quoteIdentifier(table), source: quoteIdentifier(sourceColumn),
                              target: quoteIdentifier(targetColumn))
        }
    }

    /// Where a to-many's links are listed by source: the table (quoted) and the column
    /// (quoted) holding the source's pk. Nil for a to-one.
    var sourceColumn: (table: String, column: String)? {
        switch storage {
        case .column: return nil
        case .inverseColumn(_, let column): return (quoteIdentifier(targetTable), quoteIdentifier(column))
        case .joinTable(let table, let sourceColumn, _): return (quoteIdentifier(table), quoteIdentifier(sourceColumn))
        }
    }
}
