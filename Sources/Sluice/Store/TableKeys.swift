/// What the stores' statements need to know of each table, as the layout a store was migrated
/// to gives it (`TableDefinition`): the column that keys its rows (`"pk"` in Sluice's layout,
/// `Z_PK` in Core Data's), the columns the store fills itself, and how a family's table names a
/// row's entity. The statements take these from here instead of spelling them, so that the
/// tables of another layout are written by the same statements.
struct TableKeys: Sendable {
    private var keys: [String: String] = [:]
    private var fills: [String: [(column: String, fill: TableDefinition.Fill)]] = [:]
    private var entityColumns: [String: Model.EntityColumn] = [:]
    /// The largest key a layout records as issued per table, beyond the rows (Core Data's `Z_MAX`).
    var issuedKeys: [String: Int64] = [:]
    /// `--feed`: the feed whose rows the import reads and writes; every entity table then holds
    /// `Model.feedColumn`. nil: the rows of every table are the import's.
    var feed: String?

    init() {}

    init(_ tables: [TableDefinition], feed: String? = nil) {
        self.feed = feed
        for table in tables {
            if let key = table.keyColumn { keys[table.name] = key }
            let filled = table.columns.compactMap { column in column.fill.map { (column.name, $0) } }
            if !filled.isEmpty { fills[table.name] = filled }
            if let entityColumn = table.entityColumn { entityColumns[table.name] = entityColumn }
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

    /// The columns of `table` the store fills itself, in table order.
    func filled(of table: String) -> [(column: String, fill: TableDefinition.Fill)] {
        fills[table] ?? []
    }

    /// The largest key issued in `table` before the import; 0 when the layout records none.
    func issued(in table: String) -> Int64 {
        issuedKeys[table] ?? 0
    }

    /// The condition that keeps a statement among the rows of the import's feed, with `AND`
    /// before it (`t."sluice_feed" = 'A'` when `qualifier` is `t`); empty without a feed. A
    /// lookup by a bare id, the second pass and `--delete-missing` add it to the entity table
    /// they read, so that a feed's links and deletions never reach another feed's rows. The
    /// name is a literal, the same in every statement of the import (prepared once).
    func inFeed(_ qualifier: String? = nil) -> String {
        guard let feed else { return "" }
        return " AND \(qualifier.map { $0 + "." } ?? "")\(quoteIdentifier(Model.feedColumn)) = \(quoteText(feed))"
    }

    /// The column of `table` naming a row's entity, and its value for `entity`.
    func entityColumn(of table: String, entity: String) -> (column: String, value: ColumnValue) {
        let column = entityColumns[table] ?? Model.EntityColumn()
        return (column.name, column.value(of: entity))
    }
}

extension TableDefinition.Fill {
    /// The value SQL gives a new row's column: the constant, or version 1.
    var insertedSQL: String {
        switch self {
        case .constant(let number): return String(number)
        case .version: return "1"
        }
    }
}
