/// What a record says about one relationship.
enum Link: Equatable {
    /// `null`: a to-one is unlinked, a to-many loses all its links.
    case clear
    case one(LinkTarget)
    /// A to-many's list, in input order (null elements already skipped).
    case many([LinkTarget])
}

/// The other end of a link: a bare id, or a record of this import.
enum LinkTarget: Hashable {
    /// The target's `relatedBy` value, converted to that attribute's type.
    case key(ColumnValue)
    /// A nested record, as the sink numbered it when it completed.
    case record(RecordHandle)
}
