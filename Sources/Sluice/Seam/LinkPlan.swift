/// How one relationship is stored and resolved (`docs/database-layout.md`, `docs/import-semantics.md`), derived from the model, the
/// database layout and the mapping plan.
struct LinkPlan {
    /// Numbers the relationship in the pending-links table.
    var id: Int
    var source: Int
    var relationship: Int
    var target: Int
    /// `Entity.relationship`, for messages.
    var name: String
    /// Where its links live: a to-one's column, a to-many's inverse column or join table.
    var storage: DatabaseLayout.RelationshipStorage
    /// A to-one's column among its writer's columns (the attributes', then the to-ones');
    /// nil for a to-many.
    var toOneIndex: Int?
    var sourceTable: String
    var targetTable: String
    /// The target column a bare id is matched against; nil when only nested records link.
    var relatedByColumn: String?
    /// The attribute index of that column in the target's values.
    var relatedByAttribute: Int?
    /// Whether that column is the target's identity, so at most one row holds each id (its
    /// unique index makes it so).
    var relatedByIsIdentity = false
    var merge: Model.MergePolicy
    var unresolved: Model.UnresolvedPolicy
    /// An ordered to-many's column, beside its links, that holds each link's place in the
    /// list (the layout's `positionColumn`); nil for links without order. A name that fits a
    /// small string (15 bytes) is copied with a plan, per link, without a retain.
    var positionColumn: String?
    /// An ordered to-many (`LinkWriter+ToMany.swift`).
    var ordered: Bool { positionColumn != nil }
    /// An ordered to-many stored by its inverse whose moved links' places the layout's
    /// triggers may empty (`TableLayout.triggersEmptyMovedPlaces`): set again after a move.
    var placesAgainAfterMove = false
    /// The entity a stub row of the target names in its family's `"entity"` column (nil: the
    /// target's table has none).
    var stubEntity: String?
    /// A to-one whose bare id the source's row holds too (`keyColumn(…)`): the column, else nil.
    var keyColumn: String?
    /// What deleting a source row does to the rows it links (`TouchedRows`).
    var deleteRule: Model.DeleteRule = .nullify
    /// The same for the inverse relationship, deleting a target row; nil without an inverse.
    var inverseDeleteRule: Model.DeleteRule?

    /// A to-one that links by id: its link may wait for the second pass in the source's row
    /// of waiting to-ones (`PendingLinkStore.addToOnes`).
    var mayWaitAsToOne: Bool {
        if case .column = storage, relatedByColumn != nil { return true }
        return false
    }

    /// The column its links fill, and that column's table: a to-one's own, or the inverse
    /// to-one's column of a to-many; nil for a join table.
    var filledColumn: (table: String, column: String)? {
        switch storage {
        case .column(let table, let column), .inverseColumn(let table, let column): (table, column)
        case .joinTable: nil
        }
    }

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
