/// Several feeds in one database (`--feed NAME`, `docs/import-semantics.md#feeds`): the model an
/// import of one feed follows.
///
/// The feed is made a constant leading part of every identity, once, here, rather than a
/// branch in each writer: every family's table gains the column `sluice_feed`, filled with the
/// feed's name and read from no key, and every identity starts with it. Find-or-create, the
/// unique indexes and the order rows are read in then keep two feeds' rows apart by themselves;
/// what looks rows up by a bare id or deletes them asks the store to stay within the feed
/// (`TableKeys.feed`).
extension Model {
    /// The column of every entity table that names the feed of its rows. No GTFS field begins
    /// with `sluice_`, and a model whose attribute or to-one would take the name is refused.
    public static let feedColumn = "sluice_feed"

    /// This model for an import of `feed`: `feedColumn` in every family's table, filled with
    /// `feed` in every row, leading every identity; a bare id that referred to its target's
    /// single identity now names that attribute (`relatedBy`), as the identity has two parts.
    /// Throws a usage error for a model that already has an attribute or a to-one column of
    /// that name.
    func scoped(toFeed feed: String, names: OptionNames) throws(SluiceError) -> Model {
        for entity in entities {
            let taken = entity.attributes.first { $0.name == Self.feedColumn || $0.column == Self.feedColumn }.map { "attribute \($0.name)" }
                ?? entity.relationships.first { !$0.toMany && $0.column == Self.feedColumn }.map { "relationship \($0.name)" }
            if let taken {
                throw SluiceError(.usage, "\(names(.feed)) stores the feed in the column \(Self.feedColumn), which the \(taken) of \(entity.name) "
                    + "already names: rename it in the model")
            }
        }
        var scoped = self
        for (index, entity) in entities.enumerated() {
            for (number, relationship) in entity.relationships.enumerated() where relationship.relatedBy == nil {
                if let identity = lineage(of: relationship.entity).first(where: { !$0.identity.isEmpty })?.identity, identity.count == 1 {
                    scoped.entities[index].relationships[number].relatedBy = identity[0]
                }
            }
            if entity.parent == nil {
                scoped.entities[index].attributes.insert(
                    Attribute(name: Self.feedColumn, type: .string, keys: [], optional: false,
                              defaultValue: .string(feed), defaultWhenMissing: true), at: 0)
            }
            if !entity.identity.isEmpty {
                scoped.entities[index].identity.insert(Self.feedColumn, at: 0)
            }
        }
        return scoped
    }
}
