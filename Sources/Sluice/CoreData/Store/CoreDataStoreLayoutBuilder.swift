/// Builds a `CoreDataStoreLayout` by the rules of `docs/coredata-store.md#the-store`, each
/// checked against real stores except where a problem says otherwise.
struct CoreDataStoreLayoutBuilder {
    typealias Layout = CoreDataStoreLayout

    let model: CoreDataModel
    private let byName: [String: CoreDataModel.Entity]
    private var numbers: [String: Int] = [:]
    private var children: [String: [String]] = [:]

    var entities: [Layout.Entity] = []
    var tables: [Layout.Table] = []
    var joinTables: [Layout.JoinTable] = []
    var indexes: [Layout.Index] = []
    var problems: [(order: Int, problem: ModelProblem)] = []
    var storages: [String: Layout.RelationshipStorage] = [:]
    var columnsByAttribute: [String: (table: String, column: String)] = [:]
    /// Each to-one's columns, by `Entity.relationship`.
    private var toOnes: [String: (table: String, column: String, entityColumn: String?, orderColumn: String?)] = [:]

    /// The types Core Data stores as each column type, and the group (1…6) their columns fall in.
    static let columnTypes: [String: (type: String, group: Int)] = [
        "Integer 16": ("INTEGER", 0), "Integer 32": ("INTEGER", 0), "Integer 64": ("INTEGER", 0), "Boolean": ("INTEGER", 0),
        "Date": ("TIMESTAMP", 1), "Double": ("FLOAT", 1), "Float": ("FLOAT", 1), "Decimal": ("DECIMAL", 2),
        "String": ("VARCHAR", 3), "URI": ("VARCHAR", 3), "UUID": ("BLOB", 4), "Binary": ("BLOB", 5), "Transformable": ("BLOB", 5),
    ]

    /// Value transformers whose output is a keyed archive of property-list values, as Core Data's default one writes.
    static let defaultTransformers: Set<String> = ["NSSecureUnarchiveFromData", "NSSecureUnarchiveFromDataTransformer",
                                                   "NSKeyedUnarchiveFromData"]

    init(model: CoreDataModel) {
        self.model = model
        byName = Dictionary(model.entities.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    mutating func build(sourceName: String) throws(ModelError) {
        try checkReferences(sourceName: sourceName)
        numberEntities()
        for root in entities where root.superNumber == 0 { table(for: root) }
        joinTablesForManyToManys()
        relationshipStorages()
        modelIndexes()
        problems.sort { $0.order < $1.order }
    }

    // MARK: Entities

    /// `caseInsensitiveCompare:`, and code-unit order between names that differ only in case.
    static func caseInsensitiveOrder(_ left: String, _ right: String) -> Bool {
        let (a, b) = (left.lowercased(), right.lowercased())
        return a == b ? VersionHash.codeUnitOrder(left, right) : VersionHash.codeUnitOrder(a, b)
    }

    /// Entities in case-insensitive name order; each root takes the next number, then its
    /// sub-entities follow depth-first in the same order.
    private mutating func numberEntities() {
        let names = model.entities.map(\.name).sorted(by: Self.caseInsensitiveOrder)
        for name in names {
            if let parent = byName[name]?.parentEntity?.value { children[parent, default: []].append(name) }
        }
        for name in names where byName[name]?.parentEntity == nil { visit(name, superNumber: 0, table: "Z" + name.uppercased()) }
        for index in entities.indices {
            entities[index].family = family(of: entities[index].name)
        }
    }

    private mutating func visit(_ name: String, superNumber: Int, table: String) {
        let number = entities.count + 1
        numbers[name] = number
        entities.append(.init(name: name, number: number, superNumber: superNumber, table: table, family: []))
        for child in children[name] ?? [] { visit(child, superNumber: number, table: table) }
    }

    private func family(of name: String) -> [Int] {
        [numbers[name]!] + (children[name] ?? []).flatMap { family(of: $0) }
    }

    private func entity(_ name: String) -> Layout.Entity { entities[numbers[name]! - 1] }

    /// The tree below and including `name`, in `Z_ENT` order.
    private func tree(of name: String) -> [CoreDataModel.Entity] {
        family(of: name).map { byName[entities[$0 - 1].name]! }
    }

    private func hasSubEntities(_ name: String) -> Bool { !(children[name] ?? []).isEmpty }

    /// A relationship's inverse, when the destination (or an entity it inherits from) has it.
    private func inverse(of relationship: CoreDataModel.Relationship) -> CoreDataModel.Relationship? {
        guard let name = relationship.inverseName?.value, var current = relationship.destinationEntity.flatMap({ byName[$0.value] })
        else { return nil }
        for _ in 0...model.entities.count {
            if let found = current.relationships.first(where: { $0.name == name && !$0.isTransient }) { return found }
            guard let parent = current.parentEntity.flatMap({ byName[$0.value] }) else { return nil }
            current = parent
        }
        return nil
    }

    /// The entity declaring `relationship`'s inverse.
    private func inverseOwner(of relationship: CoreDataModel.Relationship) -> String? {
        guard let name = relationship.inverseName?.value, var current = relationship.destinationEntity.flatMap({ byName[$0.value] })
        else { return nil }
        for _ in 0...model.entities.count {
            if current.relationships.contains(where: { $0.name == name && !$0.isTransient }) { return current.name }
            guard let parent = current.parentEntity.flatMap({ byName[$0.value] }) else { return nil }
            current = parent
        }
        return nil
    }

    private func checkReferences(sourceName: String) throws(ModelError) {
        var found: [ModelProblem] = []
        for entity in model.entities {
            for relationship in entity.relationships where !relationship.isTransient {
                guard let destination = relationship.destinationEntity else {
                    found.append(ModelProblem(path: relationship.location.path, message: "no destinationEntity"))
                    continue
                }
                if byName[destination.value] == nil {
                    found.append(ModelProblem(path: destination.location.path,
                                              message: "names no entity \(ModelProblem.quote(destination.value))"))
                }
            }
        }
        guard found.isEmpty else { throw ModelError(source: sourceName, problems: found) }
    }

    // MARK: Tables

    private mutating func table(for root: Layout.Entity) {
        var used: Set<String> = ["Z_PK", "Z_ENT", "Z_OPT"]
        let firstIndex = indexes.count
        var groups = [[Layout.Column]](repeating: [], count: 6)
        func unique(_ name: String, for place: ModelLocation, order: Int) -> String {
            var candidate = name
            var suffix = 1
            while used.contains(candidate) {
                candidate = name + String(suffix)
                suffix += 1
            }
            if candidate != name {
                problems.append((order, ModelProblem(path: place.path, message: "its column \(name) is taken in \(root.table): "
                    + "Core Data's name for the second one (\(candidate)?) is not verified; refused")))
            }
            used.insert(candidate)
            return candidate
        }
        for source in tree(of: root.name) {
            let number = numbers[source.name]!
            let order = number * 1_000_000
            for (index, attribute) in source.attributes.enumerated().sorted(by: { VersionHash.codeUnitOrder($0.1.name, $1.1.name) })
            where !attribute.isTransient {
                problemsOf(attribute, in: source, order: order + index)
                guard let (type, group) = attribute.attributeType.flatMap({ Self.columnTypes[$0.value] }) else { continue }
                let column = unique("Z" + attribute.name.uppercased(), for: attribute.location, order: order + index)
                columnsByAttribute[source.name + "." + attribute.name] = (root.table, column)
                groups[group].append(.init(name: column, type: type, role: .attribute(entity: source.name, name: attribute.name)))
                if attribute.isIndexed {
                    indexes.append(.init(name: "\(root.table)_\(column)_INDEX", table: root.table, columns: [column]))
                }
            }
            let relationships = source.relationships.enumerated().filter { !$0.1.isTransient }
                .sorted { VersionHash.codeUnitOrder($0.1.name, $1.1.name) }
            for (index, relationship) in relationships where !relationship.isToMany {
                let place = order + 1000 + index
                let destination = relationship.destinationEntity!.value
                let column = unique("Z" + relationship.name.uppercased(), for: relationship.location, order: place)
                let roles = (entity: source.name, relationship: relationship.name)
                groups[0].append(.init(name: column, type: "INTEGER", role: .toOne(entity: roles.0, relationship: roles.1)))
                indexes.append(.init(name: "\(root.table)_\(column)_INDEX", table: root.table, columns: [column]))
                var entityColumn: String?
                if hasSubEntities(destination) {
                    entityColumn = unique("Z\(numbers[destination]!)_" + relationship.name.uppercased(), for: relationship.location, order: place)
                    groups[0].append(.init(name: entityColumn!, type: "INTEGER", role: .toOneEntity(entity: roles.0, relationship: roles.1)))
                }
                var orderColumn: String?
                if let inverse = inverse(of: relationship), inverse.isToMany, inverse.ordered != nil {
                    orderColumn = unique("Z_FOK_" + relationship.name.uppercased(), for: relationship.location, order: place)
                    groups[0].append(.init(name: orderColumn!, type: "INTEGER", role: .toOneOrder(entity: roles.0, relationship: roles.1)))
                }
                toOnes[source.name + "." + relationship.name] = (root.table, column, entityColumn, orderColumn)
            }
            for (owner, ownerNumber, relationship) in virtualToOnes(pointingAt: source.name) {
                let column = unique("Z\(ownerNumber)" + relationship.name.uppercased(), for: relationship.location, order: order + 2000)
                groups[0].append(.init(name: column, type: "INTEGER", role: .virtualToOne(entity: owner, relationship: relationship.name)))
                indexes.append(.init(name: "\(root.table)_\(column)_INDEX", table: root.table, columns: [column]))
                storages[owner + "." + relationship.name] = .virtualToOne(table: root.table, column: column)
            }
        }
        if family(of: root.name).count > 1 {
            indexes.insert(.init(name: "\(root.table)_Z_ENT_INDEX", table: root.table, columns: ["Z_ENT"]), at: firstIndex)
        }
        let bookkeeping: [Layout.Column] = [.init(name: "Z_PK", type: "INTEGER", role: .primaryKey),
                                            .init(name: "Z_ENT", type: "INTEGER", role: .entityNumber),
                                            .init(name: "Z_OPT", type: "INTEGER", role: .optimisticLock)]
        tables.append(.init(name: root.table, root: root.name, columns: bookkeeping + groups.flatMap { $0 }))
    }

    /// The to-manys without inverse whose destination is `name`: each owner entity, its number
    /// and the relationship, in the owner's number order, then by name.
    private func virtualToOnes(pointingAt name: String) -> [(String, Int, CoreDataModel.Relationship)] {
        entities.flatMap { owner in
            byName[owner.name]!.relationships.filter {
                $0.isToMany && !$0.isTransient && $0.destinationEntity?.value == name && inverse(of: $0) == nil
            }.sorted { VersionHash.codeUnitOrder($0.name, $1.name) }.map { (owner.name, owner.number, $0) }
        }
    }

    /// What an attribute's column cannot hold as Core Data would.
    private mutating func problemsOf(_ attribute: CoreDataModel.Attribute, in entity: CoreDataModel.Entity, order: Int) {
        let path = attribute.location.path
        func refuse(_ message: String) { problems.append((order, ModelProblem(path: path, message: message))) }
        let type = attribute.attributeType?.value ?? "Undefined"
        if attribute.isDerived {
            refuse("a derived attribute: Core Data keeps its value with triggers that Sluice does not write; refused")
        }
        if attribute.allowsExternalStorage {
            refuse("allows external binary storage: Core Data's marker byte and external files are not written; refused")
        }
        if type == "Undefined" {
            refuse("an Undefined attribute must be transient: Core Data stores no value for it")
        }
        if type == "Transformable", let name = attribute.valueTransformerName, !Self.defaultTransformers.contains(name) {
            refuse("transformed by \(ModelProblem.quote(name)), which only the app can run; refused")
        }
    }

    // MARK: Relationships

    /// A join table per many-to-many pair. The side that names it: entities in
    /// case-insensitive name order, and within one the later relationship name first — the
    /// rule that fits the verified stores, not one Core Data is known to follow; each such
    /// relationship is a problem.
    private mutating func joinTablesForManyToManys() {
        var done: Set<String> = []
        for owner in entities {
            let entity = byName[owner.name]!
            for (index, relationship) in entity.relationships.enumerated().sorted(by: { VersionHash.codeUnitOrder($1.1.name, $0.1.name) })
            where relationship.isToMany && !relationship.isTransient && !done.contains(owner.name + "." + relationship.name) {
                guard let inverse = inverse(of: relationship), inverse.isToMany, let inverseOwner = inverseOwner(of: relationship) else {
                    continue
                }
                let own = numbers[owner.name]!, other = numbers[inverseOwner]!
                let reflexive = inverseOwner == owner.name && inverse.name == relationship.name
                let name = "Z_\(own)" + relationship.name.uppercased()
                let first = Layout.JoinTable.Side(
                    entity: owner.name, relationship: relationship.name, column: "Z_\(own)" + inverse.name.uppercased(),
                    orderColumn: inverse.ordered != nil ? "Z_FOK_\(own)" + inverse.name.uppercased() : nil)
                let second = Layout.JoinTable.Side(
                    entity: inverseOwner, relationship: inverse.name,
                    column: reflexive ? "REFLEXIVE" : "Z_\(other)" + relationship.name.uppercased(),
                    orderColumn: relationship.ordered != nil ? (reflexive ? "FOK_REFLEXIVE" : "Z_FOK_\(other)" + relationship.name.uppercased()) : nil)
                let table = Layout.JoinTable(name: name, first: first, second: second)
                joinTables.append(table)
                indexes.append(.init(name: "\(name)_\(second.column)_INDEX", table: name, columns: [second.column, first.column]))
                storages[owner.name + "." + relationship.name] = .joinTable(table, ownSideFirst: true)
                storages[inverseOwner + "." + inverse.name] = .joinTable(table, ownSideFirst: false)
                done.insert(owner.name + "." + relationship.name)
                done.insert(inverseOwner + "." + inverse.name)
                problems.append((own * 1_000_000 + 3000 + index, ModelProblem(
                    path: relationship.location.path,
                    message: "a many-to-many with \(inverseOwner).\(inverse.name): Core Data may name its join table "
                        + "\(name) or after the other side, and which is not known; refused")))
            }
        }
    }

    private mutating func relationshipStorages() {
        for owner in entities {
            for (index, relationship) in byName[owner.name]!.relationships.enumerated() where !relationship.isTransient {
                let key = owner.name + "." + relationship.name
                if let toOne = toOnes[key] {
                    storages[key] = .toOne(table: toOne.table, column: toOne.column, entityColumn: toOne.entityColumn,
                                           orderColumn: toOne.orderColumn)
                } else if storages[key] == nil, let inverse = inverse(of: relationship), let inverseOwner = inverseOwner(of: relationship),
                          let toOne = toOnes[inverseOwner + "." + inverse.name]
                {
                    storages[key] = .byInverse(table: toOne.table, column: toOne.column)
                }
                if relationship.isToMany, relationship.ordered != nil, inverse(of: relationship) == nil {
                    problems.append((owner.number * 1_000_000 + 3000 + index, ModelProblem(
                        path: relationship.location.path,
                        message: "an ordered to-many without inverse: where Core Data keeps its order is not known; refused")))
                }
            }
        }
    }

    // MARK: Indexes

    /// Fetch indexes, old compound indexes and uniqueness constraints, named as Core Data names them.
    private mutating func modelIndexes() {
        for owner in entities {
            let entity = byName[owner.name]!
            for (index, fetchIndex) in entity.fetchIndexes.enumerated() {
                if fetchIndex.elements.contains(where: { $0.type != "Binary" }) {
                    problems.append((owner.number * 1_000_000 + 4000 + index, ModelProblem(
                        path: entity.location.path, message: "the fetch index \(ModelProblem.quote(fetchIndex.name)) is an R-tree, "
                            + "which Sluice does not write; refused")))
                    continue
                }
                guard let columns = columns(of: fetchIndex.elements.map(\.property), in: owner, order: 4000 + index) else { continue }
                indexes.append(.init(name: "Z_\(owner.name)_\(fetchIndex.name)", table: owner.table, columns: columns,
                                     orders: fetchIndex.elements.map(\.ascending)))
            }
            for (index, properties) in entity.compoundIndexes.enumerated() {
                guard let columns = columns(of: properties, in: owner, order: 5000 + index) else { continue }
                indexes.append(.init(name: ([owner.table] + columns).joined(separator: "_"), table: owner.table, columns: columns))
            }
            for (index, properties) in entity.uniquenessConstraints.enumerated() {
                guard let columns = columns(of: properties, in: owner, order: 6000 + index) else { continue }
                indexes.append(.init(name: "Z_\(owner.name)_UNIQUE_" + properties.joined(separator: "_"), table: owner.table,
                                     columns: columns, unique: true, orders: columns.map { _ in true }))
            }
        }
    }

    /// The columns of attributes and to-ones of `owner` (or inherited), or nil with a problem.
    private mutating func columns(of properties: [String], in owner: Layout.Entity, order: Int) -> [String]? {
        var columns: [String] = []
        for property in properties {
            var current: String? = owner.name
            var column: String?
            for _ in 0...entities.count {
                guard let name = current else { break }
                column = columnsByAttribute[name + "." + property]?.column ?? toOnes[name + "." + property]?.column
                if column != nil { break }
                current = byName[name]?.parentEntity?.value
            }
            guard let column else {
                problems.append((owner.number * 1_000_000 + order, ModelProblem(
                    path: byName[owner.name]!.location.path,
                    message: "an index or constraint names \(ModelProblem.quote(property)), which is no stored attribute or to-one")))
                return nil
            }
            columns.append(column)
        }
        return columns
    }
}
