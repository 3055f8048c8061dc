/// Entity inheritance (`docs/model.md#inheritance`): an entity naming a `parent` inherits its
/// attributes, relationships and identity, and a family (a root and its descendants) is stored
/// in the root's table with an `"entity"` column naming each row's entity.
///
/// The engine and the store never see a family: they work on `storageModel`, where each family
/// is one entity holding every member's columns. Only the mapping plan knows the members, to
/// read each record with its own entity's keys and to fill the `"entity"` column.
extension Model {
    /// The column naming the entity of each row of a family's table.
    public static let entityColumn = "entity"

    /// How a family's table names each row's entity: in Sluice's layout its name as text in
    /// `"entity"`, in Core Data's its number in `Z_ENT`.
    public struct EntityColumn: Sendable, Equatable {
        /// The column's name.
        public var name: String
        /// Each entity's number; nil: the entity's name.
        public var numbers: [String: Int64]?

        /// Sluice's by default: the name as text in `"entity"`.
        public init(name: String = Model.entityColumn, numbers: [String: Int64]? = nil) {
            self.name = name
            self.numbers = numbers
        }

        /// What the column holds for a row of `entity`.
        public func value(of entity: String) -> ColumnValue {
            numbers?[entity].map(ColumnValue.integer) ?? .text(entity)
        }
    }

    /// The entity and its ancestors, nearest first. Stops before an unknown parent or a cycle,
    /// which validation reports.
    func lineage(of name: String) -> [Entity] {
        // Most entities have no parent: no set of the names seen (the mapping plan and the
        // validator ask for the lineage of each entity many times).
        guard let first = entity(named: name) else { return [] }
        guard first.parent != nil else { return [first] }
        var result: [Entity] = []
        var seen: Set<String> = []
        var next: String? = name
        while let current = next, seen.insert(current).inserted, let entity = entity(named: current) {
            result.append(entity)
            next = entity.parent
        }
        return result
    }

    /// The root ancestor's name (the entity's own when it has no parent).
    func familyRoot(of name: String) -> String {
        lineage(of: name).last?.name ?? name
    }

    /// Whether `name` is `ancestor` or one of its descendants.
    func isSameOrDescendant(_ name: String, of ancestor: String) -> Bool {
        lineage(of: name).contains { $0.name == ancestor }
    }

    /// The family of `root`: the root first, then its descendants in model order.
    func family(of root: String) -> [Entity] {
        // Without inheritance every family is its root alone: the search below looks up each
        // entity's lineage, for each root (most of a large model's mapping plan).
        guard hasInheritance else { return entity(named: root).map { [$0] } ?? [] }
        let members = entities.filter { $0.name != root && familyRoot(of: $0.name) == root }
        return (entity(named: root).map { [$0] } ?? []) + members
    }

    /// Whether the family of `root` has more than one member, so its table needs the
    /// `"entity"` column.
    func hasDescendants(_ root: String) -> Bool {
        // A descendant's lineage passes through a child of `root`: looking for a child is enough.
        entityIndex.children[root] != nil
    }

    /// The attributes of an entity with the inherited ones: the root's first, each ancestor's
    /// own after its parent's, an attribute redeclared lower down keeping its place.
    func inheritedAttributes(of name: String) -> [Attribute] {
        inherited(of: name, \.attributes, name: \.name)
    }

    /// The relationships of an entity with the inherited ones, ordered as the attributes.
    func inheritedRelationships(of name: String) -> [Relationship] {
        inherited(of: name, \.relationships, name: \.name)
    }

    private func inherited<Member>(of entityName: String, _ members: (Entity) -> [Member],
                                   name: (Member) -> String) -> [Member] {
        var result: [Member] = []
        for entity in lineage(of: entityName).reversed() {
            for member in members(entity) {
                if let index = result.firstIndex(where: { name($0) == name(member) }) {
                    result[index] = member
                } else {
                    result.append(member)
                }
            }
        }
        return result
    }

    /// Whether any entity has a parent.
    var hasInheritance: Bool { !entityIndex.children.isEmpty }

    /// The model as the store sees it: one entity per family, named and tabled as its root,
    /// with the root's identity, the `"entity"` column first (when the family has descendants),
    /// then every member's attributes and relationships, each name once, in family order.
    /// Relationships point at their target's family root. A default declared below a root is
    /// not the column's: the mapping applies it (`MappingPlan`). A model without inheritance
    /// is returned as it is.
    public var storageModel: Model {
        guard hasInheritance else { return self }
        var result: [Entity] = []
        for entity in entities where entity.parent == nil || lineage(of: entity.name).last?.name == entity.name {
            let family = self.family(of: entity.name)
            var attributes: [Attribute] = []
            if hasDescendants(entity.name) {
                attributes.append(Self.entityAttribute)
            }
            var relationships: [Relationship] = []
            for member in family {
                for attribute in member.attributes where !attributes.contains(where: { $0.name == attribute.name }) {
                    var stored = attribute
                    if member.name != entity.name {
                        stored.defaultValue = nil
                        stored.defaultWhenMissing = false
                    }
                    attributes.append(stored)
                }
                for relationship in member.relationships where !relationships.contains(where: { $0.name == relationship.name }) {
                    var stored = relationship
                    stored.entity = familyRoot(of: relationship.entity)
                    if hasDescendants(stored.entity) { stored.storedEntityName = relationship.entity }
                    relationships.append(stored)
                }
            }
            result.append(Entity(name: entity.name, table: entity.table, identity: entity.identity,
                                 attributes: attributes, relationships: relationships))
        }
        return Model(root: root, entities: result)
    }

    /// The storage attribute of the `"entity"` column; the mapping fills it for every record.
    static var entityAttribute: Attribute {
        Attribute(name: entityColumn, type: .string, keys: [], column: entityColumn)
    }
}
