/// The order keys (`Z_FOK_<NAME>`) of an ordered to-many whose links are given from its to-one
/// side (each stop time names its trip): Core Data appends an object to its owner's ordered
/// set when the app sets its to-one, so the keys follow the order the import links the rows,
/// per owner, after the keys the owner's rows hold already. The to-many side writes its own
/// places (`LinkWriter+ToMany.swift`); the same rule of keys, from 0 and one apart, holds for
/// both.
///
/// TEMP triggers on the to-one's table log, in order, each row the import inserts without a
/// key and each row whose link changes while its key does not (the key of its old owner is
/// emptied), when that happens: in input order, since a record's row is written, or its link
/// emptied to wait for the second pass, as its batch is. Before the commit, the logged rows
/// that are linked and still have no key get theirs, set-based: per owner, in the order each
/// row was first logged, after the owner's largest key. A re-import inserts nothing and changes
/// no link, so it logs nothing and writes nothing.
struct CoreDataOrderKeys: Sendable {
    /// A to-one with its order key column.
    struct ToOne: Sendable {
        var table: String
        var column: String
        var orderColumn: String
    }

    let toOnes: [ToOne]

    static let logTable = "sluice_order_log"
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

    /// The log and the triggers, made as the import begins.
    var setup: [String] {
        guard !toOnes.isEmpty else { return [] }
        return ["CREATE TEMP TABLE IF NOT EXISTS \(Self.logTable) (seq INTEGER PRIMARY KEY, tbl TEXT, pk INTEGER)",
                "DELETE FROM temp.\(Self.logTable)"]
            + toOnes.flatMap { toOne -> [String] in
                let (table, column, order) = (quoteIdentifier(toOne.table), quoteIdentifier(toOne.column), quoteIdentifier(toOne.orderColumn))
                let name = "sluice_order_\(toOne.table)_\(toOne.column)"
                let log = "INSERT INTO \(Self.logTable) (tbl, pk) VALUES (\(quoteText(toOne.table)), new.Z_PK); "
                return [
                    "CREATE TEMP TRIGGER \(quoteIdentifier(name + "_insert")) AFTER INSERT ON main.\(table) "
                        + "WHEN new.\(order) IS NULL BEGIN \(log)END",
                    "CREATE TEMP TRIGGER \(quoteIdentifier(name + "_update")) AFTER UPDATE OF \(column) ON main.\(table) "
                        + "WHEN old.\(column) IS NOT new.\(column) AND new.\(order) IS old.\(order) BEGIN "
                        + "UPDATE \(table) SET \(order) = NULL WHERE Z_PK = new.Z_PK AND \(order) IS NOT NULL; \(log)END",
                ]
            }
    }

    /// Before the commit: the logged rows still without a key get one.
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
                    waiting AS (SELECT t.Z_PK AS pk, t.\(column) AS owner, row_number() OVER (PARTITION BY t.\(column) ORDER BY l.seq) AS n \
                    FROM logged AS l JOIN main.\(table) AS t ON t.Z_PK = l.pk WHERE t.\(column) IS NOT NULL AND t.\(order) IS NULL), \
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
