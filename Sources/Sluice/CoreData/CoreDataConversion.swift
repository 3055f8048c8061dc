/// Turns a Core Data model into the Sluice model that imports what MagicalRecord's import
/// would (`docs/coming-from-magicalrecord.md` is the contract): entities and attributes one
/// for one, identities and links from the `userInfo` keys MagicalRecord reads. What does not
/// convert is a note at its place in the Core Data model, and the rest still converts, so an
/// import that does not depend on the flaw runs.
struct CoreDataConversion {
    let source: CoreDataModel
    var notes: ModelProblemCollector
    /// The attributes each entity imports, by entity name.
    private var attributes: [String: [ConvertedAttribute]] = [:]
    private var identities: [String: String] = [:]

    init(_ source: CoreDataModel, notes: ModelProblemCollector) {
        self.source = source
        self.notes = notes
    }

    /// The model, not yet validated: `CoreDataModelFile` validates it as a model file's.
    mutating func model() -> Model {
        for entity in source.entities {
            noteInheritance(of: entity)
            attributes[entity.name] = entity.attributes.filter { !$0.isTransient }.compactMap { convert($0) }
        }
        for entity in source.entities {
            identities[entity.name] = ownIdentity(of: entity)
        }
        for entity in source.entities where identities[entity.name] == nil {
            identities[entity.name] = identityFromRelationships(to: entity)
        }
        var constrained: [String: [String]] = [:]
        for entity in source.entities {
            if identities[entity.name] == nil { constrained[entity.name] = identityFromConstraint(of: entity) }
            if let location = entity.uniquenessConstraintsLocation, constrained[entity.name] == nil {
                notes.report(identities[entity.name] != nil
                                ? "not used: the identity is the entity's relatedByAttribute, or its <entity>ID attribute"
                                : "not used: no constraint is made of imported attributes only", at: location)
            }
        }
        noteChildIdentities()
        return Model(entities: source.entities.map { entity in
            Model.Entity(name: entity.name,
                         identity: parent(of: entity) == nil ? identities[entity.name].map { [$0] } ?? constrained[entity.name] ?? [] : [],
                         attributes: attributesWithoutIdentityDefault(of: entity),
                         relationships: entity.relationships.filter { !$0.isTransient }.compactMap { convert($0, of: entity) },
                         parent: parent(of: entity), isAbstract: entity.isAbstract != nil)
        })
    }

    // MARK: Entities

    /// `parentEntity` is Sluice's `parent` (`docs/model.md#inheritance`), and `isAbstract` its
    /// `abstract`; a parent the model does not hold is a note, and the entity stands alone.
    private mutating func noteInheritance(of entity: CoreDataModel.Entity) {
        if let parent = entity.parentEntity, !source.entities.contains(where: { $0.name == parent.value }) {
            notes.report("names no entity \(ModelProblem.quote(parent.value)): \(entity.name) inherits nothing",
                         at: parent.location)
        }
    }

    private func parent(of entity: CoreDataModel.Entity) -> String? {
        guard let parent = entity.parentEntity?.value, source.entities.contains(where: { $0.name == parent }) else {
            return nil
        }
        return parent
    }

    /// A child's identity is its family root's (one table, one identity index): an identity of
    /// its own is a note and not used. MagicalRecord finds a child's objects by its own
    /// `relatedByAttribute`; Sluice finds them by the root's, across the family. `identities`
    /// then holds the root's for the child, as the notes on relationships read it.
    private mutating func noteChildIdentities() {
        for entity in source.entities where parent(of: entity) != nil {
            var root = entity
            // Bounded: a cycle of parents is the validation's to report.
            for _ in source.entities {
                guard let parent = parent(of: root), let next = source.entities.first(where: { $0.name == parent }) else { break }
                root = next
            }
            let own = identities[entity.name]
            identities[entity.name] = identities[root.name]
            guard let own, own != identities[root.name] else { continue }
            notes.report("the identity \(ModelProblem.quote(own)) is not used: a child entity inherits its identity from "
                            + "\(root.name)" + (identities[root.name].map { " (\(ModelProblem.quote($0)))" } ?? ", which has none"),
                         at: entity.userInfo["relatedByAttribute"]?.location ?? entity.location)
        }
    }

    /// MagicalRecord's primary attribute: the entity's `relatedByAttribute`, or else the
    /// attribute `<entityName>ID` (first letter lower-cased). A `relatedByAttribute` naming no
    /// imported attribute is a note, and the entity is then read as if it had none.
    private mutating func ownIdentity(of entity: CoreDataModel.Entity) -> String? {
        let fallback = Self.primaryKeyName(of: entity.name)
        var identity = isImported(fallback, in: entity.name) ? fallback : nil
        for entry in entity.userInfo where entry.key != "relatedByAttribute" {
            noteUnsupported(entry)
        }
        guard let entry = entity.userInfo["relatedByAttribute"] else { return identity }
        if let problem = attributeProblem(entry.value, in: entity.name) {
            let outcome = identity.map { "the identity is \(ModelProblem.quote($0)), as without relatedByAttribute" }
                ?? "\(entity.name) has no identity unless relationships to it say one"
            notes.report("\(problem); \(outcome)", at: entry.location)
        } else {
            identity = entry.value
        }
        return identity
    }

    /// For an entity MagicalRecord's keys give no identity: its first uniqueness constraint
    /// made only of imported attributes (`tripID, sequence`), Core Data's own word for what
    /// identifies an object; nil when it has none.
    private func identityFromConstraint(of entity: CoreDataModel.Entity) -> [String]? {
        entity.uniquenessConstraints.first { names in
            !names.isEmpty && names.allSatisfy { isImported($0, in: entity.name) }
        }
    }

    /// For an entity without a primary attribute of its own: the attribute that the
    /// relationships pointing at it name in `relatedByAttribute`, when they all name the same
    /// one. MagicalRecord finds the nested objects of those relationships by it.
    private func identityFromRelationships(to entity: CoreDataModel.Entity) -> String? {
        var names: Set<String> = []
        for other in source.entities {
            for relationship in other.relationships where !relationship.isTransient
                && relationship.destinationEntity?.value == entity.name
            {
                if let name = relationship.userInfo["relatedByAttribute"]?.value, isImported(name, in: entity.name) {
                    names.insert(name)
                }
            }
        }
        return names.count == 1 ? names.first : nil
    }

    /// An identity takes no default: records without it would all claim the same row, and the
    /// second one would break its unique index.
    private mutating func attributesWithoutIdentityDefault(of entity: CoreDataModel.Entity) -> [Model.Attribute] {
        (attributes[entity.name] ?? []).map { converted in
            var attribute = converted.attribute
            if attribute.name == identities[entity.name], let location = converted.defaultLocation {
                notes.report("not used: an identity takes no default (records without one would clash)", at: location)
                attribute.defaultValue = nil
            }
            return attribute
        }
    }

    // MARK: Relationships

    private mutating func convert(_ relationship: CoreDataModel.Relationship, of entity: CoreDataModel.Entity)
        -> Model.Relationship?
    {
        guard let destination = relationship.destinationEntity else {
            notes.report("no destinationEntity: the relationship is not imported", at: relationship.location)
            return nil
        }
        guard let target = source.entities.first(where: { $0.name == destination.value }) else {
            notes.report("names no entity \(ModelProblem.quote(destination.value)): the relationship is not imported",
                         at: destination.location)
            return nil
        }
        var converted = Model.Relationship(name: relationship.name, entity: target.name, toMany: relationship.isToMany,
                                           keys: keys(of: relationship.name, in: relationship.userInfo))
        converted.inverse = inverse(of: relationship, from: entity, to: target)
        converted.relatedBy = relatedBy(of: relationship, to: target)
        // Core Data writes `ordered="YES"` on to-manys only; on a to-one it would mean nothing.
        if relationship.ordered != nil, relationship.isToMany { converted.ordered = true }
        if let rule = relationship.deletionRule {
            if let known = Self.deleteRules[rule.value] {
                converted.deleteRule = known
            } else {
                notes.report("an unknown deletion rule \(ModelProblem.quote(rule.value)): the relationship nullifies", at: rule.location)
            }
        }
        for entry in relationship.userInfo where !Self.isKeyMapping(entry.key) && entry.key != "relatedByAttribute" {
            noteUnsupported(entry)
        }
        return converted
    }

    /// Xcode's names of Core Data's deletion rules.
    private static let deleteRules: [String: Model.DeleteRule] = [
        "Nullify": .nullify, "Cascade": .cascade, "Deny": .deny, "No Action": .noAction,
    ]

    /// `inverseName`, when the destination has that relationship pointing back.
    private mutating func inverse(of relationship: CoreDataModel.Relationship, from entity: CoreDataModel.Entity,
                                  to target: CoreDataModel.Entity) -> String?
    {
        guard let inverse = relationship.inverseName else { return nil }
        let back = target.relationships.first { $0.name == inverse.value && !$0.isTransient }
        guard let back, back.destinationEntity?.value == entity.name else {
            notes.report("\(target.name) has no relationship \(ModelProblem.quote(inverse.value)) back to "
                            + "\(entity.name); not used", at: inverse.location)
            return nil
        }
        return inverse.value
    }

    /// The attribute of the target that a bare id matches: the relationship's
    /// `relatedByAttribute`, or else MagicalRecord's default `<targetName>ID`; nil when that is
    /// the target's identity (Sluice's default). MagicalRecord also finds nested objects by it,
    /// Sluice by the target's identity: a note says so when the two differ.
    private mutating func relatedBy(of relationship: CoreDataModel.Relationship, to target: CoreDataModel.Entity)
        -> String?
    {
        let identity = identities[target.name]
        let name: String
        let location: ModelLocation
        if let entry = relationship.userInfo["relatedByAttribute"] {
            if let problem = attributeProblem(entry.value, in: target.name) {
                notes.report("\(problem) of \(target.name); not used", at: entry.location)
                return nil
            }
            (name, location) = (entry.value, entry.location)
        } else {
            let fallback = Self.primaryKeyName(of: target.name)
            guard isImported(fallback, in: target.name) else { return nil }
            (name, location) = (fallback, relationship.location)
        }
        guard name != identity else { return nil }
        let nested = identity.map { "nested objects are found by \(target.name)'s identity \(ModelProblem.quote($0))" }
            ?? "\(target.name) has no identity, so each nested object is a new row"
        notes.report("bare ids match \(ModelProblem.quote(name)); \(nested)", at: location)
        return name
    }

    // MARK: Names

    /// MagicalRecord's `MR_primaryKeyNameFromString`: `MappedEntity` → `mappedEntityID`.
    static func primaryKeyName(of entity: String) -> String {
        entity.prefix(1).lowercased() + entity.dropFirst() + "ID"
    }

    private func isImported(_ name: String, in entity: String) -> Bool {
        attributes[entity]?.contains { $0.attribute.name == name } ?? false
    }

    /// Why `name` cannot be an identity or `relatedBy` of `entity`; nil when it can.
    private func attributeProblem(_ name: String, in entity: String) -> String? {
        if isImported(name, in: entity) { return nil }
        let exists = source.entities.first { $0.name == entity }?.attribute(named: name) != nil
        return exists ? "names \(ModelProblem.quote(name)), which is not imported"
            : "names no attribute \(ModelProblem.quote(name))"
    }

    mutating func noteUnsupported(_ entry: CoreDataModel.UserInfoEntry) {
        notes.report("not supported: Sluice does not read this userInfo key", at: entry.location)
    }
}
