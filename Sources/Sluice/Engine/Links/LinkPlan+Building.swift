/// The engine's side of `LinkPlan`: the plans derived from the model, its mapping plan and the
/// database layout, which the stores receive built.
extension LinkPlan {
    /// One plan per relationship of every entity: `plans[entity][relationship]`. `hooks`: the
    /// import runs hooks, which may change an attribute or a link on their own.
    static func plans(model: Model, mapping: MappingPlan, layout: some TableLayout, hooks: Bool = false) -> [[LinkPlan]] {
        var id = 0
        var result: [[LinkPlan]] = []
        for (entityIndex, entity) in model.entities.enumerated() {
            var plans: [LinkPlan] = []
            var toOneIndex = mapping.entities[entityIndex].attributes.count
            for (index, relationship) in entity.relationships.enumerated() {
                let mapped = mapping.entities[entityIndex].relationships[index]
                let target = mapping.entities[mapped.target]
                let storage = layout.storage(of: relationship, in: entity)
                var column: Int?
                if case .column = storage {
                    column = toOneIndex
                    toOneIndex += 1
                }
                plans.append(LinkPlan(
                    id: id, source: entityIndex, relationship: index, target: mapped.target,
                    name: "\(entity.name).\(relationship.name)", storage: storage, toOneIndex: column,
                    sourceTable: entity.table, targetTable: target.table,
                    relatedByColumn: mapped.relatedBy.map { target.attributes[$0.attribute].column },
                    relatedByAttribute: mapped.relatedBy?.attribute,
                    relatedByIsIdentity: mapped.relatedBy.map { target.identity == [$0.attribute] } ?? false,
                    merge: relationship.merge, unresolved: relationship.unresolved,
                    positionColumn: layout.positionColumn(of: relationship, in: entity),
                    placesAgainAfterMove: layout.triggersEmptyMovedPlaces,
                    stubEntity: relationship.storedEntityName,
                    keyColumn: hooks ? nil : keyColumn(of: relationship, in: entity, entity: entityIndex, mapping: mapping,
                                                       relatedBy: mapped.relatedBy.map { target.attributes[$0.attribute] }),
                    deleteRule: relationship.deleteRule,
                    inverseDeleteRule: relationship.inverse.flatMap { name in
                        model.entity(named: relationship.entity)?.relationships.first { $0.name == name }?.deleteRule
                    }))
                id += 1
            }
            result.append(plans)
        }
        return result
    }

    /// The column of the source's attribute that holds a to-one's bare id as the link looks it
    /// up: read from the same keys, of the related-by attribute's type (string or integer, so
    /// converted alike and compared alike), with no default (which would fill it where the
    /// record names no id). In a row this import inserted, that column then holds the id
    /// exactly where the link was given one, so a link that waits needs no copy of its id: the
    /// second pass reads it from the row (`SQLitePendingLinks+ToOnes.swift`). Not for a family's
    /// table, whose shapes may keep the attribute but not the relationship, or the reverse.
    static func keyColumn(of relationship: Model.Relationship, in entity: Model.Entity, entity index: Int,
                          mapping: MappingPlan, relatedBy: MappingPlan.AttributePlan?) -> String? {
        guard !relationship.toMany, let relatedBy, relatedBy.type == .string || relatedBy.type == .integer,
              mapping.shapes.count(where: { $0.storage == index }) == 1 else { return nil }
        let attributes = mapping.entities[index].attributes
        for (number, attribute) in entity.attributes.enumerated() where attribute.keys == relationship.keys {
            guard number < attributes.count else { return nil }
            let plan = attributes[number]
            guard plan.type == relatedBy.type, plan.defaultValue == nil, !plan.defaultWhenMissing else { continue }
            return plan.column
        }
        return nil
    }

    /// The to-one columns of an entity's rows, in relationship order.
    static func toOneColumns(_ plans: [LinkPlan]) -> [(relationship: Int, column: String)] {
        plans.compactMap { plan in
            if case .column(_, let name) = plan.storage { return (plan.relationship, name) }
            return nil
        }
    }
}
