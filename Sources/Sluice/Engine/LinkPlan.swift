/// How one relationship is stored and resolved (`docs/database-layout.md`, `docs/import-semantics.md`), derived from the model, the
/// database layout and the mapping plan.
struct LinkPlan {
    enum Storage {
        /// A to-one: a column of the source's row (`column` among its writer's columns).
        case column(index: Int, name: String)
        /// A to-many stored by its inverse to-one: `column` of the target's table holds the
        /// source's pk.
        case inverse(column: String)
        /// A join table of (source, target) pk pairs.
        case join(table: String, sourceColumn: String, targetColumn: String)
    }

    /// Numbers the relationship in the pending-links table.
    var id: Int
    var source: Int
    var relationship: Int
    var target: Int
    /// `Entity.relationship`, for messages.
    var name: String
    var storage: Storage
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
    /// An ordered to-many (`LinkWriter+Ordered.swift`). A flag, not the column's name: a plan
    /// is copied per link, and one more string to retain showed on W2.
    var ordered = false

    /// An ordered to-many's column, beside its links, that holds each link's place in the
    /// list (`DatabaseLayout.positionColumn`); nil for links without order.
    var positionColumn: String? {
        guard ordered else { return nil }
        switch storage {
        case .column: return nil
        case .inverse(let column): return DatabaseLayout.positionColumn(ofToOne: column)
        case .join(_, let sourceColumn, _): return DatabaseLayout.positionColumn(ofJoinTableReadFrom: sourceColumn)
        }
    }

    /// A to-one that links by id: its link may wait for the second pass in the source's row
    /// of waiting to-ones (`PendingLinkStore.addToOnes`).
    var mayWaitAsToOne: Bool {
        if case .column = storage, relatedByColumn != nil { return true }
        return false
    }

    /// One plan per relationship of every entity: `plans[entity][relationship]`.
    static func plans(model: Model, mapping: MappingPlan, layout: DatabaseLayout) -> [[LinkPlan]] {
        var id = 0
        var result: [[LinkPlan]] = []
        for (entityIndex, entity) in model.entities.enumerated() {
            var plans: [LinkPlan] = []
            var toOneIndex = mapping.entities[entityIndex].attributes.count
            for (index, relationship) in entity.relationships.enumerated() {
                let mapped = mapping.entities[entityIndex].relationships[index]
                let target = mapping.entities[mapped.target]
                let storage: Storage
                switch layout.storage(of: relationship, in: entity) {
                case .column(_, let column):
                    storage = .column(index: toOneIndex, name: column)
                    toOneIndex += 1
                case .inverseColumn(_, let column):
                    storage = .inverse(column: column)
                case .joinTable(let table, let sourceColumn, let targetColumn):
                    storage = .join(table: table, sourceColumn: sourceColumn, targetColumn: targetColumn)
                }
                plans.append(LinkPlan(
                    id: id, source: entityIndex, relationship: index, target: mapped.target,
                    name: "\(entity.name).\(relationship.name)", storage: storage,
                    sourceTable: entity.table, targetTable: target.table,
                    relatedByColumn: mapped.relatedBy.map { target.attributes[$0.attribute].column },
                    relatedByAttribute: mapped.relatedBy?.attribute,
                    relatedByIsIdentity: mapped.relatedBy.map { target.identity == [$0.attribute] } ?? false,
                    merge: relationship.merge, unresolved: relationship.unresolved,
                    ordered: layout.positionColumn(of: relationship, in: entity) != nil))
                id += 1
            }
            result.append(plans)
        }
        return result
    }

    /// The to-one columns of an entity's rows, in relationship order.
    static func toOneColumns(_ plans: [LinkPlan]) -> [(relationship: Int, column: String)] {
        plans.compactMap { plan in
            if case .column(_, let name) = plan.storage { return (plan.relationship, name) }
            return nil
        }
    }
}
