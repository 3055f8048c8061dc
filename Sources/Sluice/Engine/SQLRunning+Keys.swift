extension SQLRunning {
    /// The pks of the rows of `table` whose `column` holds one of `keys`: one `IN` query per
    /// `SQLParameters.maxPerStatement` keys, never one per key. Ids of links and of parents in
    /// an identity are looked up this way once per batch.
    func pks(of keys: [ColumnValue], in table: String, column: String) throws(SluiceError) -> [ColumnValue: Int64] {
        var found: [ColumnValue: Int64] = [:]
        var start = 0
        while start < keys.count {
            let end = min(start + SQLParameters.maxPerStatement, keys.count)
            let size = SQLParameters.listSize(for: end - start, limit: SQLParameters.maxPerStatement)
            let query = "SELECT \(quoteIdentifier(column)), \"pk\" FROM \(quoteIdentifier(table)) "
                + "WHERE \(quoteIdentifier(column)) IN (\(SQLParameters.placeholders(size)))"
            let arguments = Array(keys[start..<end]) + repeatElement(ColumnValue.null, count: size - (end - start))
            for row in try rows(query, arguments) {
                if case .integer(let pk) = row[1] { found[row[0]] = pk }
            }
            start = end
        }
        return found
    }
}
