extension SQLRunning {
    /// The pks of the rows of `table` whose `column` holds one of `keys`: one `IN` query per
    /// `SQLParameters.maxPerStatement` keys, never one per key. Ids of links and of parents in
    /// an identity are looked up this way once per batch.
    func pks(of keys: [ColumnValue], in table: String, column: String) throws(SluiceError) -> [ColumnValue: Int64] {
        var found: [ColumnValue: Int64] = [:]
        try rowsInSlices(of: keys) { placeholders in
            "SELECT \(quoteIdentifier(column)), \"pk\" FROM \(quoteIdentifier(table)) WHERE \(quoteIdentifier(column)) IN (\(placeholders))"
        } each: { row in
            if case .integer(let pk) = row[1] { found[row[0]] = pk }
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
