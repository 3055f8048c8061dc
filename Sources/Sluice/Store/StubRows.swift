/// The statement that makes the rows `--unresolved stub` asks for: one per distinct id that
/// names no row, holding the id and, in a family's table, the name of the entity the
/// relationship names in the `"entity"` column (a row of a family always names its entity).
/// The same text on both stores.
enum StubRows {
    /// `missing` is the `FROM … WHERE …` clause that yields the ids as `id`.
    static func insert(into table: String, idColumn: String, id: String, entity: String?, missing: String) -> String {
        guard let entity else {
            return "INSERT INTO \(quoteIdentifier(table)) (\(quoteIdentifier(idColumn))) SELECT DISTINCT \(id) \(missing)"
        }
        let literal = "'" + entity.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "''") + "'"
        return "INSERT INTO \(quoteIdentifier(table)) (\(quoteIdentifier(idColumn)), \(quoteIdentifier(Model.entityColumn))) "
            + "SELECT DISTINCT \(id), \(literal) \(missing)"
    }
}
