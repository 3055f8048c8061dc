/// Both columns of a one-to-one (a to-one whose inverse is a to-one), as Core Data keeps them:
/// `ZRECIPE.ZIMAGE` names the image and `ZIMAGE.ZRECIPE` the recipe, whichever side the app
/// set. An import is given one side, or both, in any record and any pass; TEMP triggers on
/// each side's column keep the other side's column in step, whichever statement of the engine
/// sets it (a row inserted with its link, a batch's links, the second pass, a stub):
///
/// * the old partner's column that named this row becomes NULL;
/// * another row of this side that named the new partner loses it (a target linked from two
///   sources keeps the last, as in Core Data);
/// * the new partner's column names this row.
///
/// Each statement writes only where it changes the column, so a re-import writes nothing, and
/// the rows it does change are counted by `CoreDataVersioning`'s triggers like any other
/// change (`Z_OPT`). The mirrored writes fire the other side's trigger, whose own writes find
/// the columns already in step; SQLite does not fire a trigger again from within itself
/// (`recursive_triggers` is off). Each column's index (Core Data's `<TABLE>_<COL>_INDEX`) is
/// made with the tables, since every trigger looks a column up by its value. Where a side's
/// destination has sub-entities its column has an entity column beside it (`Z<n>IMAGE`,
/// naming the partner's `Z_ENT`): it is set and emptied with the key, or Core Data would fault
/// the partner as the wrong entity.
struct CoreDataOneToOnes: Sendable {
    /// One side of a one-to-one: its column, and the column of the other side.
    struct Side: Sendable {
        var table: String
        var column: String
        /// The entity column beside `column`, where the other side's entity has sub-entities.
        var entityColumn: String?
        var otherTable: String
        var otherColumn: String
        var otherEntityColumn: String?
    }

    let sides: [Side]

    /// The sides of `model`'s one-to-ones as `layout` stores them, each once (a relationship
    /// that is its own inverse is one side).
    init(_ layout: CoreDataStoreLayout, model: CoreDataModel) {
        var sides: [Side] = []
        for entity in model.entities {
            for relationship in entity.relationships where !relationship.isToMany && !relationship.isTransient {
                // Both sides name each other (a to-one that names a to-one whose own inverse is
                // another relationship is no one-to-one).
                guard let inverse = relationship.inverseName?.value, let destination = relationship.destinationEntity?.value,
                      Self.relationship(inverse, of: destination, in: model)?.inverseName?.value == relationship.name,
                      case .toOne(let table, let column, let entityColumn, _)? = layout.storage(ofRelationship: relationship.name, in: entity.name),
                      case .toOne(let otherTable, let otherColumn, let otherEntityColumn, _)? = layout.storage(ofRelationship: inverse, in: destination),
                      !sides.contains(where: { $0.table == table && $0.column == column })
                else { continue }
                sides.append(Side(table: table, column: column, entityColumn: entityColumn, otherTable: otherTable,
                                  otherColumn: otherColumn, otherEntityColumn: otherEntityColumn))
            }
        }
        self.sides = sides
    }

    /// The relationship `name` of `entity` or of its nearest ancestor declaring it.
    private static func relationship(_ name: String, of entity: String, in model: CoreDataModel) -> CoreDataModel.Relationship? {
        var current: String? = entity
        for _ in 0...model.entities.count {
            guard let found = model.entities.first(where: { $0.name == current }) else { return nil }
            if let relationship = found.relationships.first(where: { $0.name == name }) { return relationship }
            current = found.parentEntity?.value
        }
        return nil
    }

    /// The columns whose indexes the triggers need from the start: (table, column).
    var columns: [(table: String, column: String)] {
        sides.map { ($0.table, $0.column) }
    }

    /// The triggers, made as the import begins (a new store's too).
    var triggers: [String] {
        sides.flatMap { side -> [String] in
            let (own, column) = (quoteIdentifier(side.table), quoteIdentifier(side.column))
            let (other, otherColumn) = (quoteIdentifier(side.otherTable), quoteIdentifier(side.otherColumn))
            let name = "sluice_one_to_one_\(side.table)_\(side.column)"
            // `, Z<n>X = value` where the column has an entity column beside it, else nothing.
            func alsoEntity(_ entityColumn: String?, _ value: String) -> String {
                entityColumn.map { ", \(quoteIdentifier($0)) = \(value)" } ?? ""
            }
            // The other side already names this row (and, where it has one, this row's entity).
            let otherInStep = "\(otherColumn) IS new.Z_PK"
                + (side.otherEntityColumn.map { " AND \(quoteIdentifier($0)) IS new.Z_ENT" } ?? "")
            let takeOver = "UPDATE \(own) SET \(column) = NULL\(alsoEntity(side.entityColumn, "NULL")) "
                + "WHERE \(column) = new.\(column) AND Z_PK <> new.Z_PK; "
                + "UPDATE \(other) SET \(otherColumn) = new.Z_PK\(alsoEntity(side.otherEntityColumn, "new.Z_ENT")) "
                + "WHERE Z_PK = new.\(column) AND NOT (\(otherInStep)); "
            let leave = "UPDATE \(other) SET \(otherColumn) = NULL\(alsoEntity(side.otherEntityColumn, "NULL")) "
                + "WHERE Z_PK = old.\(column) AND \(otherColumn) = new.Z_PK; "
            return [
                "CREATE TEMP TRIGGER \(quoteIdentifier(name + "_update")) AFTER UPDATE OF \(column) ON main.\(own) "
                    + "WHEN old.\(column) IS NOT new.\(column) BEGIN \(leave)\(takeOver)END",
                "CREATE TEMP TRIGGER \(quoteIdentifier(name + "_insert")) AFTER INSERT ON main.\(own) "
                    + "WHEN new.\(column) IS NOT NULL BEGIN \(takeOver)END",
            ]
        }
    }
}
