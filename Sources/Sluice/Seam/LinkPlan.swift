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
}
