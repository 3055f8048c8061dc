/// The checks of entity inheritance (`docs/model.md#inheritance`): parents that exist and
/// form no cycle, children without a table or an identity of their own, inherited attributes
/// and relationships kept as declared, columns unique across a family's table, and `entityBy`
/// naming descendants.
///
/// A child that names a table is an error rather than a note: its rows could only ever be in
/// the family's table, so a table it names would be silently unused.
extension ModelValidator {
    func validateInheritance(_ model: Model, into problems: inout ModelProblemCollector) {
        let names = draft.entities.map(\.name)
        for entity in draft.entities where entity.isObject {
            if let parent = entity.parent {
                if entities[parent] == nil {
                    problems.report(NameSuggestion.unknownEntity(parent, entities: names), at: entity.parentLocation)
                } else if let cycle = cycle(from: entity.name) {
                    problems.report("\(ModelProblem.quote(entity.name)) is its own ancestor: "
                                        + cycle.joined(separator: " → "), at: entity.parentLocation)
                } else {
                    validateChild(entity, in: model, into: &problems)
                }
            }
            if let entityBy = entity.entityBy {
                for (choice, location) in zip(entityBy.values, entity.entityByLocations) {
                    if entities[choice.entity] == nil {
                        problems.report(NameSuggestion.unknownEntity(choice.entity, entities: names), at: location)
                    } else if choice.entity == entity.name || !model.isSameOrDescendant(choice.entity, of: entity.name) {
                        problems.report("\(ModelProblem.quote(choice.entity)) is not a descendant of \(entity.name)",
                                        at: location)
                    }
                }
            }
        }
        for root in draft.entities where root.isObject && root.parent == nil && model.hasDescendants(root.name) {
            validateFamilyColumns(of: root.name, in: model, into: &problems)
        }
    }

    /// The names from `name` up its parents until one repeats; nil when none does.
    private func cycle(from name: String) -> [String]? {
        var path = [name]
        var next = entities[name]?.parent
        while let current = next, let entity = entities[current] {
            path.append(current)
            if current == name { return path }
            if path.dropLast().contains(current) { return nil }
            next = entity.parent
        }
        return nil
    }

    private func validateChild(_ entity: EntityDraft, in model: Model, into problems: inout ModelProblemCollector) {
        let root = model.familyRoot(of: entity.name)
        if entity.hasTable {
            problems.report("a child entity is stored in the table of its family's root \(root): it takes no table",
                            at: entity.tableLocation)
        }
        if !entity.identity.isEmpty {
            problems.report("a child entity inherits its identity from \(root)", at: entity.identityLocation)
        }
        guard let parent = entity.parent else { return }
        let inherited = model.inheritedAttributes(of: parent)
        for draft in entity.attributes {
            guard let old = inherited.first(where: { $0.name == draft.attribute.name }) else { continue }
            if old.type != draft.attribute.type {
                problems.report("redeclares the inherited attribute of type \(old.type.rawValue) "
                                    + "with type \(draft.attribute.type.rawValue)", at: draft.location)
            } else if Self.fold(old.column) != Self.fold(draft.attribute.column) {
                problems.report("redeclares the inherited attribute with column \(ModelProblem.quote(draft.attribute.column)) "
                                    + "instead of \(ModelProblem.quote(old.column))", at: draft.columnLocation)
            }
        }
        let inheritedRelationships = model.inheritedRelationships(of: parent)
        for draft in entity.relationships where draft.hasEntity {
            guard let old = inheritedRelationships.first(where: { $0.name == draft.relationship.name }) else { continue }
            if !Self.sameStorage(old, draft.relationship, in: model) {
                problems.report("redeclares the inherited relationship with another entity, toMany or column "
                                    + "(only its key may change)", at: draft.location)
            }
        }
    }

    /// Every member's columns share the family's table: two different attributes or to-ones
    /// may not claim one column, and `"entity"` is the family's own. Siblings may declare the
    /// same attribute (same name, type and column): it is one column.
    private func validateFamilyColumns(of root: String, in model: Model, into problems: inout ModelProblemCollector) {
        struct Claim {
            var member: String
            var column: String
            var name: String
            var signature: String
            var location: ModelLocation
        }
        var claims: [Claim] = []
        for member in model.family(of: root) {
            guard let entity = entities[member.name] else { continue }
            for draft in entity.attributes {
                claims.append(Claim(member: member.name, column: draft.attribute.column, name: "attribute \(draft.attribute.name)",
                                    signature: draft.attribute.type.rawValue, location: draft.columnLocation))
                if Self.fold(draft.attribute.column) == Model.entityColumn {
                    problems.report("column \(ModelProblem.quote(draft.attribute.column)) names each row's entity "
                                        + "in the table of \(root)'s family", at: draft.columnLocation)
                }
            }
            for draft in entity.relationships where !draft.relationship.toMany {
                claims.append(Claim(member: member.name, column: draft.relationship.column, name: "relationship \(draft.relationship.name)",
                                    signature: "to \(model.familyRoot(of: draft.relationship.entity))",
                                    location: draft.columnLocation))
                if Self.fold(draft.relationship.column) == Model.entityColumn {
                    problems.report("column \(ModelProblem.quote(draft.relationship.column)) names each row's entity "
                                        + "in the table of \(root)'s family", at: draft.columnLocation)
                }
            }
        }
        // pk, `entity`, then each distinct column once: a family's table is the union of its members'.
        let columns = Set(claims.map { Self.fold($0.column) }).count + 2
        if let rootDraft = entities[root], columns > Model.maxColumns(hasIdentity: !rootDraft.identity.isEmpty) {
            problems.report("the table \(ModelProblem.quote(rootDraft.table)) of \(root)'s family would have \(columns) "
                                + "columns (pk, entity and its members' \(columns - 2)); SQLite allows at most "
                                + "\(Model.maxColumns(hasIdentity: !rootDraft.identity.isEmpty)) here: keep some keys "
                                + "as one json attribute, or split the family", at: rootDraft.location)
        }
        var owners: [String: Claim] = [:]
        for claim in claims {
            let column = claim.column
            let folded = Self.fold(column)
            guard let owner = owners[folded] else {
                owners[folded] = claim
                continue
            }
            // The same member's clashes are `validateColumns`'s; a redeclaration is `validateChild`'s.
            if owner.member == claim.member || owner.name == claim.name && owner.signature == claim.signature {
                continue
            }
            if owner.name == claim.name, model.isSameOrDescendant(claim.member, of: owner.member) { continue }
            problems.report("column \(ModelProblem.quote(column)) is also the column of \(owner.member)'s \(owner.name)",
                            at: claim.location)
        }
    }

    private static func sameStorage(_ a: Model.Relationship, _ b: Model.Relationship, in model: Model) -> Bool {
        model.familyRoot(of: a.entity) == model.familyRoot(of: b.entity) && a.toMany == b.toMany
            && (a.toMany || fold(a.column) == fold(b.column))
    }
}
