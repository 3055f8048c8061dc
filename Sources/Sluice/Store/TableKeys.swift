/// The column that keys each table's rows, as the layout a store was migrated to gives it
/// (`TableDefinition.keyColumn`): `"pk"` in Sluice's layout, `Z_PK` in Core Data's. The stores'
/// statements take it from here instead of spelling a name, so that the tables of another
/// layout are written by the same statements.
struct TableKeys: Sendable {
    private var keys: [String: String] = [:]

    init() {}

    init(_ tables: [TableDefinition]) {
        for table in tables {
            if let key = table.keyColumn { keys[table.name] = key }
        }
    }

    /// The key column of `table`; Sluice's for a table the layout does not hold (zero-config).
    func column(of table: String) -> String {
        keys[table] ?? DatabaseLayout.keyColumn
    }

    /// `column(of:)` quoted for SQL.
    func quoted(_ table: String) -> String {
        quoteIdentifier(column(of: table))
    }
}
