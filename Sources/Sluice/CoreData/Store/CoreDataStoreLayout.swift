/// The SQLite store Core Data keeps for a model, as a value: entity numbers, one table per root
/// entity with its columns in Core Data's order and types, join tables, indexes and uniqueness
/// constraints, the bookkeeping tables and the rows Core Data checks on open. Built from a
/// `CoreDataModel` with no I/O; `docs/coredata-store.md` says what each part is and why.
///
/// What the store could not hold as Core Data would (derived attributes, external binary
/// storage, join tables whose name is not certain, …) is in `problems`, one per property:
/// `sluice check --layout coredata` lists them, and an import refuses such a model.
struct CoreDataStoreLayout: Sendable {
    /// Every entity, in `Z_ENT` order.
    private(set) var entities: [Entity] = []
    /// One per root entity, in `Z_ENT` order of the roots.
    private(set) var tables: [Table] = []
    private(set) var joinTables: [JoinTable] = []
    private(set) var indexes: [Index] = []
    /// What cannot be written faithfully, at the property's place in the model, in entity order.
    private(set) var problems: [ModelProblem] = []
    /// The model's `userDefinedModelVersionIdentifier`, for the metadata.
    let versionIdentifier: String?
    /// `NSStoreModelVersionHashes`.
    let versionHashes: [String: [UInt8]]

    struct Entity: Sendable, Equatable {
        var name: String
        /// `Z_ENT`.
        var number: Int
        /// The parent's `Z_ENT`, or 0.
        var superNumber: Int
        var table: String
        /// The `Z_ENT`s of the entity and every entity below it: the rows a fetch of it reads.
        var family: [Int]
    }

    struct Table: Sendable, Equatable {
        var name: String
        var root: String
        var columns: [Column]
    }

    struct Column: Sendable, Equatable {
        var name: String
        /// The declared type: `INTEGER`, `FLOAT`, `TIMESTAMP`, `DECIMAL`, `VARCHAR` or `BLOB`.
        var type: String
        var role: Role
    }

    /// What a column holds.
    enum Role: Sendable, Equatable {
        case primaryKey, entityNumber, optimisticLock
        case attribute(entity: String, name: String)
        /// The destination row's `Z_PK` of a to-one.
        case toOne(entity: String, relationship: String)
        /// The destination row's `Z_ENT`, where the destination has sub-entities.
        case toOneEntity(entity: String, relationship: String)
        /// The order key of a to-one whose inverse is an ordered to-many.
        case toOneOrder(entity: String, relationship: String)
        /// In the destination's table, the source row's `Z_PK` of a to-many without inverse.
        case virtualToOne(entity: String, relationship: String)
    }

    /// A many-to-many's table: `PRIMARY KEY (first, second)`.
    struct JoinTable: Sendable, Equatable {
        var name: String
        /// The side that names the table: its entity and relationship, and the column holding its `Z_PK`.
        var first: Side
        var second: Side

        struct Side: Sendable, Equatable {
            var entity: String
            var relationship: String
            var column: String
            /// `Z_FOK_…`, when the other side's relationship is ordered.
            var orderColumn: String?
        }
    }

    struct Index: Sendable, Equatable {
        var name: String
        var table: String
        var columns: [String]
        var unique = false
        /// Written `COLLATE BINARY ASC` / `DESC` per column, as Core Data writes fetch indexes
        /// and uniqueness constraints; nil for the plain indexes of keys and `indexed` attributes.
        var orders: [Bool]?
    }

    /// How a relationship is stored.
    enum RelationshipStorage: Sendable, Equatable {
        /// A column of the source's table (`Z<NAME>`), with the destination's `Z_ENT` column
        /// and order key when there are.
        case toOne(table: String, column: String, entityColumn: String?, orderColumn: String?)
        /// A to-many whose inverse is a to-one: the rows are found by that to-one's column.
        case byInverse(table: String, column: String)
        /// A to-many without inverse: a column in the destination's table holding the source's `Z_PK`.
        case virtualToOne(table: String, column: String)
        case joinTable(JoinTable, ownSideFirst: Bool)
    }

    /// - Parameter existingTables: the tables of the store an import writes into (which name
    ///   each many-to-many's join table), nil for a new store.
    /// - Throws: `ModelError` when the model is not one Core Data could load: an attribute type
    ///   it does not have, a relationship to or parent that names no entity, a cycle of parents.
    init(_ model: CoreDataModel, sourceName: String, existingTables: Set<String>? = nil) throws(ModelError) {
        versionIdentifier = model.versionIdentifier
        versionHashes = try VersionHash.entityHashes(of: model, sourceName: sourceName)
        var builder = CoreDataStoreLayoutBuilder(model: model, existingTables: existingTables)
        try builder.build(sourceName: sourceName)
        (entities, tables, joinTables, indexes) = (builder.entities, builder.tables, builder.joinTables, builder.indexes)
        problems = builder.problems.map(\.problem)
        storages = builder.storages
        columnsByAttribute = builder.columnsByAttribute
    }

    private let storages: [String: RelationshipStorage]
    private let columnsByAttribute: [String: (table: String, column: String)]

    // MARK: Lookups, by the names a Sluice model converted from the Core Data model uses

    func entity(named name: String) -> Entity? {
        entities.first { $0.name == name }
    }

    /// The table and column of an attribute of `entity`, declared by it or inherited.
    func column(ofAttribute attribute: String, in entity: String) -> (table: String, column: String)? {
        inherited(attribute, of: entity, in: columnsByAttribute)
    }

    func storage(ofRelationship relationship: String, in entity: String) -> RelationshipStorage? {
        inherited(relationship, of: entity, in: storages)
    }

    /// What `entries` holds for the property `name` of `entity` or of its nearest ancestor
    /// declaring it (keys `"<Entity>.<property>"`); a cycle of parents ends the walk.
    private func inherited<Value>(_ name: String, of entity: String, in entries: [String: Value]) -> Value? {
        var current: String? = entity
        var steps = 0
        while let owner = current, steps <= entities.count {
            if let found = entries[owner + "." + name] { return found }
            current = parentName(of: owner)
            steps += 1
        }
        return nil
    }

    private func parentName(of entity: String) -> String? {
        guard let number = self.entity(named: entity)?.superNumber, number > 0 else { return nil }
        return entities.first { $0.number == number }?.name
    }
}
