/// The checks that need the whole model: names that refer to other parts (root, identity,
/// relationship targets, `relatedBy`, `inverse`) and the tables and columns the model creates.
/// The shape of each field was checked while decoding.
///
/// Table and column names are compared as SQLite does, ignoring ASCII case, so `Stops` and
/// `stops` clash. When two things claim one name, the later one in the file is reported.
struct ModelValidator {
    let draft: ModelDraft
    let entities: [String: EntityDraft]
    /// `draft`'s model, made once: each check that needs it would make it again from all the
    /// entities.
    let model: Model

    init(draft: ModelDraft) {
        self.draft = draft
        model = draft.model
        // Entity names are unique: repeated keys were dropped while decoding.
        entities = Dictionary(draft.entities.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    func validate(into problems: inout ModelProblemCollector) {
        validateRoot(into: &problems)
        validateInheritance(model, into: &problems)
        for entity in draft.entities where entity.isObject {
            validateIdentity(of: entity, into: &problems)
            validateColumns(of: entity, into: &problems)
            for relationship in entity.relationships {
                validate(relationship, of: entity, in: model, into: &problems)
            }
        }
        validateTables(model, into: &problems)
        if problems.isEmpty { validateSchemaNames(into: &problems) }
    }

    private func validateRoot(into problems: inout ModelProblemCollector) {
        for entry in draft.root?.entries ?? [] {
            guard let entity = entities[entry.entity] else {
                problems.report(NameSuggestion.unknownEntity(entry.entity, entities: draft.entities.map(\.name)),
                                at: entry.location)
                continue
            }
            if let map = entry.map, let location = entry.mapLocation {
                validateMapAttribute(map, of: entity, at: location, into: &problems)
            }
        }
    }

    /// The attribute that takes a map's member names (`map`) must be one of the records' entity.
    private func validateMapAttribute(_ name: String, of entity: EntityDraft, at location: ModelLocation,
                                      into problems: inout ModelProblemCollector) {
        // Inherited attributes count (`docs/model.md#inheritance`).
        let names = model.inheritedAttributes(of: entity.name).map(\.name)
        guard entity.isObject, !names.contains(name) else { return }
        problems.report("\(ModelProblem.quote(name)) is not an attribute of \(entity.name)"
                            + NameSuggestion.didYouMean(name, among: names),
                        at: location)
    }

    /// An identity lists attributes and to-one relationships of the entity
    /// (`docs/model.md#identity-through-the-parent`). The rows a to-one of an identity points
    /// at are written before the records are looked up, so no identity may lead back to its
    /// own family through such to-ones.
    private func validateIdentity(of entity: EntityDraft, into problems: inout ModelProblemCollector) {
        // A child's identity is a problem of its own (`validateInheritance`).
        guard entity.parent == nil else { return }
        let toOnes = entity.relationships.map(\.relationship).filter { !$0.toMany }
        for name in entity.identity where !entity.attributes.contains(where: { $0.attribute.name == name }) {
            if let relationship = entity.relationships.first(where: { $0.relationship.name == name })?.relationship {
                if relationship.toMany {
                    problems.report("\(ModelProblem.quote(name)) is a to-many relationship of \(entity.name): an identity "
                                        + "lists attributes and to-one relationships", at: entity.identityLocation)
                } else if let cycle = identityCycle(from: entity.name, through: relationship) {
                    problems.report("\(ModelProblem.quote(name)) leads back to \(entity.name) (\(cycle.joined(separator: " → "))): "
                                        + "the rows an identity's to-one points at are written first, so identities cannot "
                                        + "form a cycle", at: entity.identityLocation)
                }
                continue
            }
            let names = entity.attributes.map(\.attribute.name) + toOnes.map(\.name)
            problems.report("\(ModelProblem.quote(name)) is not an attribute or to-one relationship of \(entity.name)"
                                + NameSuggestion.didYouMean(name, among: names),
                            at: entity.identityLocation)
        }
    }

    /// The entities from `entity` through `relationship` and the to-ones of identities after it
    /// back to `entity`'s family, when there is such a path (`["Category", "Category"]`).
    private func identityCycle(from entity: String, through relationship: Model.Relationship) -> [String]? {
        let start = model.familyRoot(of: entity)
        var visited: Set<String> = []
        func search(_ name: String, _ path: [String]) -> [String]? {
            let path = path + [name]
            if name == start { return path }
            guard visited.insert(name).inserted, let target = entities[name] else { return nil }
            for step in target.relationships.map(\.relationship) where !step.toMany && target.identity.contains(step.name) {
                if let found = search(model.familyRoot(of: step.entity), path) { return found }
            }
            return nil
        }
        return search(model.familyRoot(of: relationship.entity), [entity])
    }

    /// Attributes and to-one relationships each own a column of the entity's table.
    private func validateColumns(of entity: EntityDraft, into problems: inout ModelProblemCollector) {
        var claims: [(column: String, owner: String, location: ModelLocation)] =
            entity.attributes.map { ($0.attribute.column, "attribute \($0.attribute.name)", $0.columnLocation) }
        for relationship in entity.relationships where !relationship.relationship.toMany {
            claims.append((relationship.relationship.column, "relationship \(relationship.relationship.name)",
                           relationship.columnLocation))
        }
        claims.sort { $0.location.order.lexicographicallyPrecedes($1.location.order) }
        // The primary key, the attributes and the to-one columns: more than SQLite allows would
        // pass here and fail the import's CREATE TABLE or its identity lookup.
        let limit = Model.maxColumns(hasIdentity: !entity.identity.isEmpty)
        if claims.count + 1 > limit {
            let reason = entity.identity.isEmpty
                ? "SQLite allows at most \(limit) in a table"
                : "an entity with identity may have at most \(limit) (SQLite allows \(Model.maxColumns) in a query's result, "
                    + "and finding rows by identity reads every column and one more)"
            problems.report("table \(ModelProblem.quote(entity.table)) would have \(claims.count + 1) columns (pk, "
                                + "\(entity.attributes.count) attributes, \(claims.count - entity.attributes.count) to-one "
                                + "relationships); \(reason): keep some keys as one json attribute, or split the entity",
                            at: entity.location)
        }
        var owners: [String: String] = [:]
        for claim in claims {
            let folded = Self.fold(claim.column)
            if folded == Model.primaryKeyColumn {
                problems.report("column \(ModelProblem.quote(claim.column)) is reserved for the primary key",
                                at: claim.location)
            } else if let owner = owners[folded] {
                problems.report("column \(ModelProblem.quote(claim.column)) is also the column of \(owner)",
                                at: claim.location)
            } else {
                owners[folded] = claim.owner
            }
        }
    }

    private func validate(_ draft: RelationshipDraft, of entity: EntityDraft, in model: Model,
                          into problems: inout ModelProblemCollector)
    {
        let relationship = draft.relationship
        guard draft.hasEntity else { return }
        guard let target = entities[relationship.entity] else {
            problems.report(NameSuggestion.unknownEntity(relationship.entity, entities: self.draft.entities.map(\.name)),
                            at: draft.entityLocation)
            return
        }
        // Nothing can be checked against an entity that was not an object.
        guard target.isObject else { return }
        if let map = relationship.map, let location = draft.mapLocation {
            if relationship.toMany {
                validateMapAttribute(map, of: target, at: location, into: &problems)
            } else {
                problems.report("only a to-many relationship can be a map (its members are records of \(target.name))",
                                at: location)
            }
        }
        if let position = relationship.position, let location = draft.positionLocation {
            validatePosition(position, of: relationship, target: target, in: model, at: location, into: &problems)
        }
        // A target's inherited attributes and relationships count as its own.
        let targetAttributes = model.inheritedAttributes(of: target.name).map(\.name)
        if let relatedBy = relationship.relatedBy, let location = draft.relatedByLocation,
           !targetAttributes.contains(relatedBy) {
            problems.report("\(ModelProblem.quote(relatedBy)) is not an attribute of \(target.name)"
                                + NameSuggestion.didYouMean(relatedBy, among: targetAttributes),
                            at: location)
        }
        if let inverseName = relationship.inverse, let inverseLocation = draft.inverseLocation {
            let targetRelationships = model.inheritedRelationships(of: target.name)
            if let inverse = targetRelationships.first(where: { $0.name == inverseName }) {
                if relationship.ordered, relationship.toMany, !inverse.toMany, let location = draft.orderedLocation {
                    validatePositionColumn(of: inverse, target: target, in: model, at: location, into: &problems)
                }
                if !inverse.entity.isEmpty, model.familyRoot(of: inverse.entity) != model.familyRoot(of: entity.name) {
                    problems.report(
                        "\(ModelProblem.quote(inverseName)) of \(target.name) relates to "
                            + "\(inverse.entity), not to \(entity.name)",
                        at: inverseLocation)
                }
            } else {
                problems.report("\(ModelProblem.quote(inverseName)) is not a relationship of \(target.name)"
                                    + NameSuggestion.didYouMean(inverseName, among: targetRelationships.map(\.name)),
                                at: inverseLocation)
            }
        }
    }

    /// An ordered to-many stored by its inverse keeps its order in a column of the target's
    /// table (`Model.positionColumn`), which no attribute or to-one may use.
    private func validatePositionColumn(of inverse: Model.Relationship, target: EntityDraft, in model: Model,
                                        at location: ModelLocation, into problems: inout ModelProblemCollector) {
        let column = Model.positionColumn(ofToOne: inverse.column)
        let taken = model.inheritedAttributes(of: target.name).map { ("attribute \($0.name)", $0.column) }
            + model.inheritedRelationships(of: target.name).filter { !$0.toMany }.map { ("relationship \($0.name)", $0.column) }
        if let owner = taken.first(where: { Self.fold($0.1) == Self.fold(column) }) {
            problems.report("the order is kept in \(target.name)'s column \(ModelProblem.quote(column)), which is also the "
                                + "column of \(owner.0): rename that column", at: location)
        }
    }

    /// The attribute that takes a to-many's elements' positions: an integer attribute of the
    /// target, on a to-many that is an array (not a map).
    private func validatePosition(_ name: String, of relationship: Model.Relationship, target: EntityDraft, in model: Model,
                                  at location: ModelLocation, into problems: inout ModelProblemCollector) {
        guard relationship.toMany else {
            problems.report("only a to-many relationship takes a position (the place of each record in its array)",
                            at: location)
            return
        }
        if relationship.map != nil {
            problems.report("a map's members have no position: the member's name (map) identifies them", at: location)
            return
        }
        let attributes = model.inheritedAttributes(of: target.name)
        guard let attribute = attributes.first(where: { $0.name == name }) else {
            problems.report("\(ModelProblem.quote(name)) is not an attribute of \(target.name)"
                                + NameSuggestion.didYouMean(name, among: attributes.map(\.name)),
                            at: location)
            return
        }
        if attribute.type != .integer {
            problems.report("\(target.name).\(name) is a \(attribute.type.rawValue) attribute: a position is an integer",
                            at: location)
        }
    }

    /// Entity tables first (in file order), then join tables, which must not clash with any
    /// entity table wherever it is written.
    private func validateTables(_ model: Model, into problems: inout ModelProblemCollector) {
        var owners: [String: String] = [:]
        // A child has no table: its family's root holds its rows (`validateInheritance`).
        for entity in draft.entities where entity.isObject && entity.parent == nil {
            Self.claim("table", entity.table, for: entity.name, at: entity.tableLocation, in: &owners, &problems)
        }
        // Join tables as the store makes them: from the family's table, targets as families.
        let storage = model.storageModel
        var seen: Set<String> = []
        for entity in draft.entities where entity.isObject {
            for relationship in entity.relationships where relationship.hasEntity {
                let root = model.familyRoot(of: entity.name)
                guard entities[relationship.relationship.entity] != nil,
                      seen.insert("\(root).\(relationship.relationship.name)").inserted,
                      let stored = storage.entity(named: root),
                      let storedRelationship = stored.relationships.first(where: { $0.name == relationship.relationship.name }),
                      let table = storage.joinTableName(of: storedRelationship, in: stored)
                else { continue }
                Self.claim("join table", table, for: "\(entity.name).\(relationship.relationship.name)",
                           at: relationship.location, in: &owners, &problems)
            }
        }
    }

    /// Gives the `kind` of table (a table, a join table) named `table` to `owner` in `owners`
    /// (by case-folded name), unless the name is reserved or already another's: then a problem.
    private static func claim(_ kind: String, _ table: String, for owner: String, at location: ModelLocation,
                              in owners: inout [String: String], _ problems: inout ModelProblemCollector) {
        let folded = fold(table)
        if let reason = reservedReason(folded) {
            problems.report("\(kind) \(ModelProblem.quote(table)) \(reason)", at: location)
        } else if let other = owners[folded] {
            problems.report("\(kind) \(ModelProblem.quote(table)) is also the table of \(other)", at: location)
        } else {
            owners[folded] = owner
        }
    }

    /// Why a table may not have the (case-folded) name: SQLite's own tables, the import log,
    /// and the temporary tables an import keeps its waiting links in (`sluice_pending_…`),
    /// which would hide a table of the same name for the import's length.
    static func reservedReason(_ folded: String) -> String? {
        if folded == Model.importsTable { return "is reserved for the import log" }
        if folded.hasPrefix("sqlite_") { return "is reserved by SQLite" }
        if folded.hasPrefix("sluice_") { return "is reserved by Sluice (names starting with \"sluice_\" are its own tables)" }
        return nil
    }

    /// SQLite compares identifiers ignoring the case of ASCII letters only.
    static func fold(_ name: String) -> String {
        String(decoding: name.utf8.map { (65...90).contains($0) ? $0 + 32 : $0 }, as: UTF8.self)
    }
}
