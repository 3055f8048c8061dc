/// What the store an import writes can take of the tables and columns the import adds to a
/// model for itself (the built-in GTFS model's unknown files and fields, `UnknownCSV`), so that
/// such a name is left out with a note instead of failing the whole import.
///
/// * A new table and its identity index (`<table>_identity`) need names no other table or
///   index has: tables and indexes share one namespace, and a model's names are told apart
///   ignoring ASCII case, as SQLite does (in PostgreSQL too); PostgreSQL also keeps only the
///   first 63 bytes of a name.
/// * PostgreSQL's own rules (`PostgresNames`): names of at most 63 bytes, no system column's
///   name (`xmin`), at most 1,600 columns an entity's table.
struct AddedNames {
    private let isPostgreSQL: Bool
    /// The tables' and indexes' names, as the store tells them apart (`relation(_:)`).
    private var relations: Set<String> = []

    /// For the database `database` names (a path or a PostgreSQL URI), whose tables will be
    /// `tables` and those added.
    init(database: String, tables: [TableDefinition]) {
        isPostgreSQL = ImportStores.isPostgreSQL(database)
        for table in tables {
            relations.insert(relation(table.name))
            for index in table.indexDefinitions { relations.insert(relation(index.name)) }
        }
    }

    /// The most columns an entity's table may have in the store (SQLite's limit is the model's).
    func maxColumns(_ modelLimit: Int) -> Int {
        isPostgreSQL ? min(modelLimit, PostgresNames.maxEntityColumns) : modelLimit
    }

    /// Why the store cannot name a column `name`; nil when it can.
    func problem(ofColumn name: String) -> String? {
        isPostgreSQL ? PostgresNames.problem(ofAddedColumn: name) : nil
    }

    /// Why the store cannot have a new table `name` with its identity index; nil when it can,
    /// and then both names are taken.
    mutating func problem(ofTable name: String) -> String? {
        if isPostgreSQL, let problem = PostgresNames.problem(ofAddedTable: name) { return problem }
        let index = TableDefinition.identityIndexName(ofTable: name)
        let names = [relation(name), relation(index)]
        if names[0] == names[1] || names.contains(where: relations.contains) {
            return "its table or its identity index (\(quoteIdentifier(index))) would have the name of another table or "
                + "index (names ignore case" + (isPostgreSQL ? ", and PostgreSQL keeps 63 bytes of a name)" : ")")
        }
        relations.formUnion(names)
        return nil
    }

    /// A table's or index's name as the model and the store tell such names apart.
    private func relation(_ name: String) -> String {
        let folded = ColumnName.fold(name)
        return isPostgreSQL ? PostgresNames.prefix(of: folded, bytes: PostgresNames.maxBytes) : folded
    }
}
