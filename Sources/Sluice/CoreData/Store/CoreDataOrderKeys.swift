/// The order keys (`Z_FOK_<NAME>`) of an ordered to-many whose links are given from its to-one
/// side (each stop time names its trip): Core Data appends an object to its owner's ordered
/// set when the app sets its to-one, so the keys follow the order the import links the rows,
/// per owner, after the keys the owner's rows hold already. The to-many side writes its own
/// places (`LinkWriter+ToMany.swift`); the same rule of keys, from 0 and one apart, holds for
/// both.
///
/// The order is the input's: a row the import inserts comes in its key's order (keys are
/// issued as records come); a row that was there before comes where its link changed, which a
/// TEMP trigger on the to-one's column logs as it happens (with the largest key of the table
/// then, so that it sorts among the new rows), its old owner's key emptied. A row whose link
/// changes while its key does not (the to-one side moves it) has its key emptied too. Before
/// the commit, the rows linked and without a key, new or logged, get theirs in one set-based
/// statement per to-one: per owner, in that order, after the owner's largest key. New rows are
/// not logged (no trigger runs per insert), and a re-import inserts nothing and changes no
/// link, so it writes nothing.
struct CoreDataOrderKeys: Sendable {
    /// A to-one with its order key column.
    struct ToOne: Sendable {
        var table: String
        var column: String
        var orderColumn: String
    }

    let toOnes: [ToOne]

    static let logTable = "sluice_order_log"
    static let lastKeyTable = "sluice_order_last"
    static let keysTable = "sluice_order_keys"

    init(_ layout: CoreDataStoreLayout, model: CoreDataModel) {
        var toOnes: [ToOne] = []
        for entity in model.entities {
            for relationship in entity.relationships where !relationship.isToMany && !relationship.isTransient {
                guard case .toOne(let table, let column, _, let order?)? = layout.storage(ofRelationship: relationship.name, in: entity.name),
                      !toOnes.contains(where: { $0.table == table && $0.column == column })
                else { continue }
                toOnes.append(ToOne(table: table, column: column, orderColumn: order))
            }
        }
        self.toOnes = toOnes
    }

    /// The log, each table's largest key before the import (`lastKeys`, nil for a new store),
    /// and the triggers, made as the import begins.
    func setup(lastKeys: [String: Int64]?) -> [String] {
        guard !toOnes.isEmpty else { return [] }
        var statements = ["CREATE TEMP TABLE IF NOT EXISTS \(Self.logTable) (seq REAL, tbl TEXT, pk INTEGER)",
                          "DELETE FROM temp.\(Self.logTable)",
                          "CREATE TEMP TABLE IF NOT EXISTS \(Self.lastKeyTable) (tbl TEXT PRIMARY KEY, pk INTEGER)",
                          "DELETE FROM temp.\(Self.lastKeyTable)"]
        for toOne in toOnes {
            let last = lastKeys?[toOne.table] ?? 0
            let (table, column, order) = (quoteIdentifier(toOne.table), quoteIdentifier(toOne.column), quoteIdentifier(toOne.orderColumn))
            statements.append("INSERT OR IGNORE INTO temp.\(Self.lastKeyTable) VALUES (\(quoteText(toOne.table)), \(last))")
            statements.append(
                "CREATE TEMP TRIGGER \(quoteIdentifier("sluice_order_\(toOne.table)_\(toOne.column)")) AFTER UPDATE OF \(column) ON main.\(table) "
                    + "WHEN old.\(column) IS NOT new.\(column) AND new.\(order) IS old.\(order) "
                    + "AND (new.\(order) IS NOT NULL OR new.Z_PK <= \(last)) BEGIN "
                    + "UPDATE \(table) SET \(order) = NULL WHERE Z_PK = new.Z_PK AND \(order) IS NOT NULL; "
                    + "INSERT INTO \(Self.logTable) (seq, tbl, pk) SELECT (SELECT max(Z_PK) FROM \(table)) + 0.5, "
                    + "\(quoteText(toOne.table)), new.Z_PK WHERE new.Z_PK <= \(last); END")
        }
        return statements
    }

    /// Before the commit: the rows this import inserted or logged that are linked and have no
    /// key get one.
    var finishing: [String] {
        guard !toOnes.isEmpty else { return [] }
        return ["CREATE TEMP TABLE IF NOT EXISTS \(Self.keysTable) (pk INTEGER PRIMARY KEY, key INTEGER)"]
            + toOnes.flatMap { toOne -> [String] in
                let (table, column, order) = (quoteIdentifier(toOne.table), quoteIdentifier(toOne.column), quoteIdentifier(toOne.orderColumn))
                return [
                    "DELETE FROM temp.\(Self.keysTable)",
                    """
                    INSERT INTO temp.\(Self.keysTable) (pk, key) \
                    WITH logged AS (SELECT pk, min(seq) AS seq FROM temp.\(Self.logTable) WHERE tbl = \(quoteText(toOne.table)) GROUP BY pk), \
                    keyless AS (SELECT t.Z_PK AS pk, t.\(column) AS owner, t.Z_PK AS seq FROM main.\(table) AS t \
                    WHERE t.Z_PK > (SELECT pk FROM temp.\(Self.lastKeyTable) WHERE tbl = \(quoteText(toOne.table))) \
                    AND t.\(column) IS NOT NULL AND t.\(order) IS NULL \
                    UNION ALL SELECT t.Z_PK, t.\(column), l.seq FROM logged AS l JOIN main.\(table) AS t ON t.Z_PK = l.pk \
                    WHERE t.\(column) IS NOT NULL AND t.\(order) IS NULL), \
                    waiting AS (SELECT pk, owner, row_number() OVER (PARTITION BY owner ORDER BY seq) AS n FROM keyless), \
                    bases AS (SELECT t.\(column) AS owner, max(t.\(order)) AS top FROM main.\(table) AS t \
                    WHERE t.\(column) IN (SELECT owner FROM waiting) AND t.\(order) IS NOT NULL GROUP BY t.\(column)) \
                    SELECT w.pk, ifnull(b.top, -1) + w.n FROM waiting AS w LEFT JOIN bases AS b ON b.owner = w.owner
                    """,
                    "UPDATE main.\(table) SET \(order) = (SELECT k.key FROM temp.\(Self.keysTable) AS k WHERE k.pk = Z_PK) "
                        + "WHERE Z_PK IN (SELECT pk FROM temp.\(Self.keysTable))",
                ]
            }
    }
}
