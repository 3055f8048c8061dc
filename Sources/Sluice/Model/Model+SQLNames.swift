/// The names of the schema objects a model's layout creates (`docs/database-layout.md`):
/// entity tables, join tables and the indexes Sluice builds on them. SQLite keeps tables and
/// indexes in one namespace per database and compares names ignoring ASCII case, so an index
/// derived from one part of a model (`"<table>_<column>"`, `"<table>_identity"`) can take the
/// name of a table or index of another part: the import would then skip an index that exists
/// already (and refuse every later import), or fail with SQLite's own message. `sluice check`
/// refuses such a model instead, naming the part that comes later in the file.
///
/// Columns within a table are checked where they are claimed (`validateColumns`, the family
/// and position checks); this pass checks only the database-wide names.
extension ModelValidator {
    /// A name one part of the model gives to a table or index.
    private struct SchemaName {
        var name: String
        var isTable: Bool
        /// How a message names it: `index "a_x" of table "a"'s column "x"`.
        var description: String
        var location: ModelLocation
    }

    /// Runs on a model with no other problem: the layout of a model that refers to unknown
    /// entities or repeats columns is not the one the user will get once those are fixed.
    func validateSchemaNames(into problems: inout ModelProblemCollector) {
        let storage = model.storageModel
        var names: [SchemaName] = []
        for entity in draft.entities where entity.isObject && entity.parent == nil {
            guard let stored = storage.entity(named: entity.name) else { continue }
            let table = stored.table
            names.append(SchemaName(name: table, isTable: true,
                                    description: "table \(ModelProblem.quote(table))", location: entity.tableLocation))
            if !stored.identity.isEmpty {
                names.append(SchemaName(name: "\(table)_identity", isTable: false,
                                        description: "the identity index \(ModelProblem.quote("\(table)_identity")) of table "
                                            + ModelProblem.quote(table),
                                        location: entity.identityLocation))
            }
            for relationship in stored.relationships {
                let location = relationshipLocation(relationship.name, inFamilyOf: entity.name, model: model)
                    ?? entity.location
                if !relationship.toMany {
                    let column = relationship.column
                    let index = "\(table)_\(column)"
                    names.append(SchemaName(name: index, isTable: false,
                                            description: "the index \(ModelProblem.quote(index)) of table "
                                                + "\(ModelProblem.quote(table))'s column \(ModelProblem.quote(column))",
                                            location: location))
                } else if let joinTable = storage.joinTableName(of: relationship, in: stored) {
                    // Both sides of a many-to-many are claimed, as `validateTables` claims them.
                    names.append(SchemaName(name: joinTable, isTable: true,
                                            description: "join table \(ModelProblem.quote(joinTable))", location: location))
                    let index = "\(joinTable)_target_pk"
                    names.append(SchemaName(name: index, isTable: false,
                                            description: "the index \(ModelProblem.quote(index)) of join table "
                                                + ModelProblem.quote(joinTable),
                                            location: location))
                }
            }
        }
        // Later in the file is reported; a part's own names keep the order they were made in.
        let ordered = names.enumerated().sorted { a, b in
            if a.element.location.order == b.element.location.order { return a.offset < b.offset }
            return a.element.location.order.lexicographicallyPrecedes(b.element.location.order)
        }.map(\.element)
        var owners: [String: SchemaName] = [
            Model.importsTable: SchemaName(name: Model.importsTable, isTable: true,
                                           description: "the import log \(ModelProblem.quote(Model.importsTable))",
                                           location: .document),
        ]
        for claim in ordered {
            let folded = Self.fold(claim.name)
            // Tables that clash with tables, or with reserved names, are `validateTables`'s.
            if claim.isTable, Self.reservedReason(folded) != nil { continue }
            if !claim.isTable, folded.hasPrefix("sqlite_") {
                problems.report("\(claim.description): a name starting with \"sqlite_\" is reserved by SQLite: rename the table",
                                at: claim.location)
                continue
            }
            guard let owner = owners[folded] else {
                owners[folded] = claim
                continue
            }
            if claim.isTable, owner.isTable { continue }
            problems.report("\(claim.description) has the name of \(owner.description) (tables and indexes share one "
                                + "namespace, and SQLite ignores case): rename a table, column or relationship",
                            at: claim.location)
        }
    }

    /// Where relationship `name` of the family of `root` is declared (the first member that
    /// declares it).
    private func relationshipLocation(_ name: String, inFamilyOf root: String, model: Model) -> ModelLocation? {
        for entity in draft.entities where entity.isObject && model.familyRoot(of: entity.name) == root {
            if let relationship = entity.relationships.first(where: { $0.relationship.name == name }) {
                return relationship.location
            }
        }
        return nil
    }
}
