extension Model {
    /// The relationship of the target entity paired with `relationship` of `entity`: the one its
    /// `inverse` names, or else one of the target's relationships back to `entity` whose own
    /// `inverse` names `relationship` (an inverse may be declared on either side). nil when
    /// there is none, or when the named one does not point back to `entity`.
    public func inverseRelationship(of relationship: Relationship, in entity: Entity) -> Relationship? {
        guard let target = self.entity(named: relationship.entity) else { return nil }
        if let name = relationship.inverse {
            return target.relationships.first { $0.name == name && $0.entity == entity.name }
        }
        return target.relationships.first { $0.entity == entity.name && $0.inverse == relationship.name }
    }

    /// The join table of a to-many of `entity` (`docs/database-layout.md`): `<table>_<relationship>`, unless its
    /// inverse is a to-one, whose column then stores the link. nil for to-ones and for
    /// to-manys stored in their inverse's column.
    public func joinTableName(of relationship: Relationship, in entity: Entity) -> String? {
        guard relationship.toMany else { return nil }
        if let inverse = inverseRelationship(of: relationship, in: entity), !inverse.toMany { return nil }
        return "\(entity.table)_\(relationship.name)"
    }

    /// The column of the target's table that keeps the order of an ordered to-many stored by
    /// its inverse, the to-one column `column` (`docs/database-layout.md`, ordered
    /// relationships): `owner_pk` → `owner_position`.
    public static func positionColumn(ofToOne column: String) -> String {
        (column.hasSuffix("_pk") ? String(column.dropLast(3)) : column) + "_position"
    }

    /// The table Sluice keeps its import log in (`docs/database-layout.md`); no entity may use it.
    public static let importsTable = "sluice_imports"

    /// The primary-key column of every entity table; no attribute or relationship may use it.
    public static let primaryKeyColumn = "pk"

    /// The most columns an entity's table may have: SQLite's default `SQLITE_MAX_COLUMN`, the
    /// limit of the SQLite Sluice links (`Connection.columnLimit` reads it; a test keeps the two
    /// equal). The same limit holds for a query's result, and finding an entity's rows by
    /// identity reads every column and one more, so an entity with identity has one column
    /// fewer. `sluice check` refuses a wider entity, and `sluice infer` never writes one.
    public static let maxColumns = 2000

    /// The most columns the table of an entity with (or without) identity may have.
    public static func maxColumns(hasIdentity: Bool) -> Int {
        hasIdentity ? maxColumns - 1 : maxColumns
    }
}
