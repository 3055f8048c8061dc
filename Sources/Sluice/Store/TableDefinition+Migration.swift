/// How every store brings an existing table's columns up to the definition
/// (`docs/database-layout.md#existing-databases`): what each store finds of a column and how
/// it compares its type differ; the rules do not.
extension TableDefinition {
    /// Appends to `statements` an `ALTER TABLE … ADD COLUMN` (the column as `columnSQL` declares
    /// it) for each column the table lacks, and to `problems` what stops the table from
    /// fitting: a missing column of the primary key, which cannot be added, or what `check`
    /// says is wrong with a column the table has (`found`: what the store knows of it).
    /// Returns whether every column fits.
    func migrateColumns<Found>(found: (ColumnDefinition) -> Found?, check: (ColumnDefinition, Found) -> String?,
                               columnSQL: (ColumnDefinition) -> String,
                               statements: inout [String], problems: inout [String]) -> Bool {
        var fits = true
        for column in columns {
            if let existing = found(column) {
                if let problem = check(column, existing) {
                    problems.append("table \(quoteIdentifier(name)) column \(quoteIdentifier(column.name)) \(problem)")
                    fits = false
                }
            } else if primaryKey?.contains(column.name) == true {
                problems.append("table \(quoteIdentifier(name)) has no column \(quoteIdentifier(column.name)), "
                    + "and a primary key cannot be added")
                fits = false
            } else {
                statements.append("ALTER TABLE \(quoteIdentifier(name)) ADD COLUMN \(columnSQL(column));")
            }
        }
        return fits
    }
}
