/// The tables a model needs (`docs/database-layout.md`), in model order, then `"sluice_imports"`.
///
/// * One table per entity: `"pk" INTEGER PRIMARY KEY`, one column per attribute, then one
///   INTEGER column per to-one relationship referencing the target's table, indexed over the
///   rows that link something (`WHERE "<col>" IS NOT NULL`, `plainIndexesSkipNull`).
/// * Identity: the unique index `"<table>_identity"` over the identity columns (an identity's
///   to-one is its column).
/// * A to-many whose `inverse` is a to-one of the target entity (pointing back at this
///   entity) is stored in that to-one's column: no table of its own.
/// * Any other to-many gets a join table `"<table>_<relationship>"("source_pk", "target_pk")`
///   with `PRIMARY KEY(source_pk, target_pk)`, `WITHOUT ROWID` (the key is the only b-tree),
///   and an index on `target_pk` (to find and drop the links of a deleted target).
///   A many-to-many declared on both sides (each the other's `inverse`) shares ONE join
///   table, the one of the side that comes first in the model; the other side reads it with
///   the columns swapped (`storage(of:in:)` says which). Two tables would hold the same
///   links twice and drift apart under `merge: replace`.
///
/// Pure: building a layout reads only the model. The model is assumed valid (relationship
/// targets exist); a relationship to an unknown entity references a table of that name.
public struct DatabaseLayout: Sendable, TableLayout {
    /// The table every import adds a row to: when, what, how many (`docs/database-layout.md#sluice_imports`).
    public static let importsTableName = "sluice_imports"
    /// Where zero-config imports record the keys that went to a column of another name
    /// (`FreeformColumns`, `docs/database-layout.md`, zero-config tables): `"table"`, `"key"`,
    /// `"column"`, created by the first import that renames a key.
    static let renamedKeysTable = "sluice_renamed_keys"
    /// The INTEGER PRIMARY KEY of every entity table (an alias of SQLite's rowid).
    public static let keyColumn = "pk"

    /// Entity tables and join tables in model order, then `"sluice_imports"`.
    public private(set) var tables: [TableDefinition]
    private let model: Model

    /// Where the links of a relationship live.
    public enum RelationshipStorage: Sendable, Equatable {
        /// A to-one: `column` of the source entity's `table`, holding the target's pk.
        case column(table: String, column: String)
        /// A to-many stored by its inverse to-one: `column` of the target's `table` holds the
        /// source's pk.
        case inverseColumn(table: String, column: String)
        /// A join table: `sourceColumn` holds the source's pk, `targetColumn` the target's.
        /// For the second side of a shared many-to-many these are swapped.
        case joinTable(table: String, sourceColumn: String, targetColumn: String)
    }

    /// A model with inheritance is laid out as its `storageModel`: one table per family.
    public init(_ model: Model) {
        let model = model.storageModel
        self.model = model
        var tables: [TableDefinition] = []
        for entity in model.entities {
            tables.append(Self.entityTable(entity, in: model))
            for relationship in entity.relationships {
                if case .joinTable(let name, "source_pk", _) = Self.storage(of: relationship, in: entity, model: model),
                   !tables.contains(where: { $0.name == name }) {
                    tables.append(Self.joinTable(named: name))
                }
            }
        }
        // An ordered to-many's position column, on the table that holds its links.
        for entity in model.entities {
            for relationship in entity.relationships {
                guard let position = Self.positionColumn(of: relationship, in: entity, model: model),
                      let index = tables.firstIndex(where: { $0.name == Self.linkTable(of: relationship, in: entity, model: model) }),
                      !tables[index].columns.contains(where: { $0.name == position }) else { continue }
                tables[index].columns.append(.init(name: position, sqlType: "INTEGER"))
            }
        }
        tables.append(Self.importsTable)
        self.tables = tables
    }

    /// The whole script `sluice schema` prints: statements ending in `;`, tables in model
    /// order each followed by its indexes, a blank line between tables, a final newline.
    public var ddl: String {
        tables.map(\.ddl).joined(separator: "\n\n") + "\n"
    }

    /// The table called `name`, or nil.
    public func table(named name: String) -> TableDefinition? {
        tables.first { $0.name == name }
    }

    /// How `relationship` of `entity` is stored: a column of the source or of the target, or a join table.
    public func storage(of relationship: Model.Relationship, in entity: Model.Entity) -> RelationshipStorage {
        Self.storage(of: relationship, in: entity, model: model)
    }

    /// The column that keeps an ordered to-many's order (`docs/database-layout.md`, ordered
    /// relationships); nil for any other relationship.
    public func positionColumn(of relationship: Model.Relationship, in entity: Model.Entity) -> String? {
        Self.positionColumn(of: relationship, in: entity, model: model)
    }

    /// Beside the link it orders: `"<to-one>_position"` in the target's table for a to-many
    /// stored by its inverse (`owner_pk` → `owner_position`); in a join table `"position"` for
    /// the side that owns it, `"inverse_position"` for the other side of a shared many-to-many.
    static func positionColumn(of relationship: Model.Relationship, in entity: Model.Entity, model: Model) -> String? {
        guard relationship.toMany, relationship.ordered else { return nil }
        switch storage(of: relationship, in: entity, model: model) {
        case .column: return nil
        case .inverseColumn(_, let column): return positionColumn(ofToOne: column)
        case .joinTable(_, let sourceColumn, _): return positionColumn(ofJoinTableReadFrom: sourceColumn)
        }
    }

    /// The position column of a join table's side whose source is `sourceColumn`.
    static func positionColumn(ofJoinTableReadFrom sourceColumn: String) -> String {
        sourceColumn == "source_pk" ? "position" : "inverse_position"
    }

    /// The position column of a to-many stored in the to-one column `column`.
    static func positionColumn(ofToOne column: String) -> String {
        Model.positionColumn(ofToOne: column)
    }

    private static func linkTable(of relationship: Model.Relationship, in entity: Model.Entity, model: Model) -> String {
        switch storage(of: relationship, in: entity, model: model) {
        case .column(let table, _), .inverseColumn(let table, _), .joinTable(let table, _, _): return table
        }
    }

    // MARK: Building

    static func entityTable(_ entity: Model.Entity, in model: Model) -> TableDefinition {
        var columns = [TableDefinition.ColumnDefinition(name: keyColumn, sqlType: "INTEGER")]
        for attribute in entity.attributes {
            columns.append(.init(name: attribute.column, sqlType: attribute.type.sqlType, attributeType: attribute.type))
        }
        var indexes: [[String]] = []
        for relationship in entity.relationships where !relationship.toMany {
            columns.append(.init(name: relationship.column, sqlType: "INTEGER",
                                 references: tableName(of: relationship.entity, in: model)))
            indexes.append([relationship.column])
        }
        // An identity's to-one is its column, holding the target's pk.
        let identity = entity.identity.map { name in
            entity.attribute(named: name)?.column
                ?? entity.relationships.first { $0.name == name && !$0.toMany }?.column ?? name
        }
        return TableDefinition(name: entity.table, columns: columns, uniqueIndex: identity,
                               indexes: indexes, plainIndexesSkipNull: true, primaryKey: [keyColumn])
    }

    static func joinTable(named name: String) -> TableDefinition {
        TableDefinition(
            name: name,
            columns: [.init(name: "source_pk", sqlType: "INTEGER"), .init(name: "target_pk", sqlType: "INTEGER")],
            indexes: [["target_pk"]],
            primaryKey: ["source_pk", "target_pk"],
            withoutRowID: true)
    }

    static let importsTable = TableDefinition(
        name: importsTableName,
        columns: [
            .init(name: "id", sqlType: "INTEGER"),
            .init(name: "started_at", sqlType: "TEXT", attributeType: .date),
            .init(name: "finished_at", sqlType: "TEXT", attributeType: .date),
            .init(name: "sources", sqlType: "TEXT"),
            .init(name: "bytes", sqlType: "INTEGER"),
            .init(name: "records", sqlType: "INTEGER"),
            .init(name: "inserted", sqlType: "INTEGER"),
            .init(name: "updated", sqlType: "INTEGER"),
            .init(name: "unchanged", sqlType: "INTEGER"),
            .init(name: "rejected", sqlType: "INTEGER"),
            .init(name: "unresolved", sqlType: "INTEGER"),
            .init(name: "model_sha256", sqlType: "TEXT"),
            .init(name: "inputs", sqlType: "TEXT"),
            .init(name: "feed", sqlType: "TEXT"),
        ],
        primaryKey: ["id"])

    static func tableName(of entityName: String, in model: Model) -> String {
        model.entity(named: entityName)?.table ?? entityName
    }

    static func storage(of relationship: Model.Relationship, in entity: Model.Entity,
                        model: Model) -> RelationshipStorage {
        guard relationship.toMany else {
            return .column(table: entity.table, column: relationship.column)
        }
        let target = model.entity(named: relationship.entity)
        let inverse = relationship.inverse.flatMap { name in target?.relationships.first { $0.name == name } }
        if let target, let inverse, inverse.entity == entity.name {
            if !inverse.toMany {
                return .inverseColumn(table: target.table, column: inverse.column)
            }
            // A many-to-many declared on both sides: the side met first in the model owns
            // the join table. A relationship that is its own inverse owns it too.
            if inverse.inverse == relationship.name,
               !(target.name == entity.name && inverse.name == relationship.name),
               isBefore((target, inverse), (entity, relationship), in: model) {
                return .joinTable(table: "\(target.table)_\(inverse.name)",
                                  sourceColumn: "target_pk", targetColumn: "source_pk")
            }
        }
        return .joinTable(table: "\(entity.table)_\(relationship.name)",
                          sourceColumn: "source_pk", targetColumn: "target_pk")
    }

    /// Whether relationship `a` comes before `b` in model order (entities, then relationships).
    private static func isBefore(_ a: (Model.Entity, Model.Relationship), _ b: (Model.Entity, Model.Relationship),
                                 in model: Model) -> Bool {
        func position(_ item: (Model.Entity, Model.Relationship)) -> (Int, Int) {
            let entityIndex = model.entities.firstIndex { $0.name == item.0.name } ?? Int.max
            let relationshipIndex = item.0.relationships.firstIndex { $0.name == item.1.name } ?? Int.max
            return (entityIndex, relationshipIndex)
        }
        return position(a) < position(b)
    }
}

/// The tables a layout makes of a model and where it keeps each relationship's links: Sluice's
/// (`DatabaseLayout`) or Core Data's (`CoreDataImportLayout`). `entity` is an entity of the
/// storage model (`Model.storageModel`), `relationship` one of its.
protocol TableLayout {
    /// The tables an import brings the database up to (`ImportStore.migrate(to:)`).
    var tables: [TableDefinition] { get }
    func storage(of relationship: Model.Relationship, in entity: Model.Entity) -> DatabaseLayout.RelationshipStorage
    /// The column keeping an ordered to-many's order; nil for any other relationship.
    func positionColumn(of relationship: Model.Relationship, in entity: Model.Entity) -> String?
    /// Whether triggers of the layout's own may empty the place of a link that an ordered
    /// to-many's side moves from another source (Core Data's order keys, `CoreDataOrderKeys`):
    /// the store then sets the place again after the move (`LinkPlan.placesAgainAfterMove`).
    var triggersEmptyMovedPlaces: Bool { get }
}

extension DatabaseLayout {
    var triggersEmptyMovedPlaces: Bool { false }
}
