/// Builds a `CoreDataStoreLayout` by the rules of `docs/coredata-store.md#the-store`, each
/// checked against real stores except where a problem says otherwise.
struct CoreDataStoreLayoutBuilder {
    typealias Layout = CoreDataStoreLayout

    let model: CoreDataModel
    /// The tables of the store an import writes into, upper-cased; nil for a new store.
    let existingTables: Set<String>?
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

    init(model: CoreDataModel, existingTables: Set<String>? = nil) {
        self.model = model
        self.existingTables = existingTables.map { Set($0.map { $0.uppercased() }) }
        byName = Dictionary(model.entities.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    mutating func build(sourceName: String) throws(ModelError) {
        try checkReferences(sourceName: sourceName)
        numberEntities()
        for root in entities where root.superNumber == 0 { table(for: root) }
        joinTablesForManyToManys()
        relationshipStorages()
        modelIndexes()
        nameProblems()
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
    }

    // MARK: Names

    /// The tables Core Data keeps of its own, which no entity's table may be.
    static let ownTables = ["Z_PRIMARYKEY", "Z_METADATA", "Z_MODELCACHE"]

    /// Names Core Data's store cannot hold. Its statements name tables and columns bare
    /// (`CoreDataStoreLayout+Statements.swift`, byte for byte Core Data's), so a name must be
    /// one identifier to SQLite: ASCII letters, digits, `_` and `$`, or any character beyond
    /// ASCII. And each table's name must be its own: Core Data upper-cases names (`Straße` and
    /// `STRASSE` are both `ZSTRASSE`), and `_PRIMARYKEY`'s table would be `Z_PRIMARYKEY`.
    /// (Columns that meet in one table are `table(for:)`'s `unique`.)
    private mutating func nameProblems() {
        for entity in model.entities {
            let order = (numbers[entity.name] ?? 0) * 1_000_000
            if let character = Self.characterOutsideIdentifiers(entity.name) {
                problems.append((order - 1, ModelProblem(path: entity.location.path, message: Self.bareNameMessage(
                    "table", "Z" + entity.name.uppercased(), character))))
            }
            for (index, attribute) in entity.attributes.enumerated() where !attribute.isTransient {
                guard let character = Self.characterOutsideIdentifiers(attribute.name) else { continue }
                problems.append((order + index, ModelProblem(path: attribute.location.path, message: Self.bareNameMessage(
                    "column", "Z" + attribute.name.uppercased(), character))))
            }
            // One name, one property: Core Data keeps an entity's properties (its parents'
            // included) by name, and its model editor refuses a name given twice. A to-many has
            // no column to clash, and a record's key of that name would be both.
            let attributes = Set(lineage(of: entity).flatMap { $0.attributes.map(\.name) })
            for (index, relationship) in entity.relationships.enumerated() where attributes.contains(relationship.name) {
                problems.append((order + 1000 + index, ModelProblem(path: relationship.location.path, message:
                    "\(ModelProblem.quote(relationship.name)) is both an attribute and a relationship of \(entity.name) "
                        + "(Core Data keeps one property of a name); rename one")))
            }
            let inherited = Set(lineage(of: entity).dropFirst().flatMap { $0.relationships.map(\.name) })
            for (index, attribute) in entity.attributes.enumerated() where inherited.contains(attribute.name) {
                problems.append((order + index, ModelProblem(path: attribute.location.path, message:
                    "\(ModelProblem.quote(attribute.name)) is both an attribute of \(entity.name) and a relationship it "
                        + "inherits (Core Data keeps one property of a name); rename one")))
            }
            for (index, relationship) in entity.relationships.enumerated() where !relationship.isTransient {
                guard let character = Self.characterOutsideIdentifiers(relationship.name) else { continue }
                problems.append((order + 1000 + index, ModelProblem(path: relationship.location.path, message: Self.bareNameMessage(
                    relationship.isToMany ? "join table" : "column", relationship.isToMany ? "Z_…" + relationship.name.uppercased()
                        : "Z" + relationship.name.uppercased(), character))))
            }
        }
        var owners = Dictionary(uniqueKeysWithValues: Self.ownTables.map { ($0, "Core Data's own table") })
        for root in entities where root.superNumber == 0 {
            if let owner = owners[root.table] {
                problems.append((root.number * 1_000_000 - 1, ModelProblem(
                    path: byName[root.name]!.location.path,
                    message: "its table \(root.table) is also \(owner) (Core Data upper-cases names); rename the entity")))
            } else {
                owners[root.table] = "the table of entity \(ModelProblem.quote(root.name))"
            }
        }
        for join in joinTables {
            guard let owner = owners[join.name] else { owners[join.name] = "a join table"; continue }
            problems.append((Int.max, ModelProblem(path: "entities", message: "the join table \(join.name) is also \(owner)")))
        }
    }

    /// `entity`, then its parent, and so on (a cycle is the references' problem: cut short).
    private func lineage(of entity: CoreDataModel.Entity) -> [CoreDataModel.Entity] {
        var lineage = [entity]
        while lineage.count <= model.entities.count, let parent = lineage.last!.parentEntity.flatMap({ byName[$0.value] }) {
            lineage.append(parent)
        }
        return lineage
    }

    /// The first character of `name`, upper-cased as Core Data does, that SQLite does not read
    /// in a bare identifier; nil when there is none.
    static func characterOutsideIdentifiers(_ name: String) -> Unicode.Scalar? {
        name.uppercased().unicodeScalars.first { scalar in
            !(scalar.value >= 0x80 || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar) || scalar == "_" || scalar == "$")
        }
    }

    private static func bareNameMessage(_ what: String, _ name: String, _ character: Unicode.Scalar) -> String {
        "Core Data names its \(what) \(ModelProblem.quote(name)) in SQL without quotes, where "
            + "\(ModelProblem.quote(String(character))) cannot stand; use letters, digits and _"
    }

    // MARK: Relationships

    /// A join table per many-to-many pair. Which side names it is not known for every model
    /// (`docs/coredata-store.md#refused`): the store an import writes into says, by the table it
    /// holds; for a new store the side is the one that fits the verified stores (entities in
    /// case-insensitive name order, and within one the later relationship name first), and the
    /// pair is a problem.
    private mutating func joinTablesForManyToManys() {
        var done: Set<String> = []
        for owner in entities {
            let entity = byName[owner.name]!
            for (index, relationship) in entity.relationships.enumerated().sorted(by: { VersionHash.codeUnitOrder($1.1.name, $0.1.name) })
            where relationship.isToMany && !relationship.isTransient && !done.contains(owner.name + "." + relationship.name) {
                guard let inverse = inverse(of: relationship), inverse.isToMany, let inverseOwner = inverseOwner(of: relationship) else {
                    continue
                }
                let ownSide = (entity: owner.name, number: numbers[owner.name]!, relationship: relationship)
                let otherSide = (entity: inverseOwner, number: numbers[inverseOwner]!, relationship: inverse)
                let reflexive = inverseOwner == owner.name && inverse.name == relationship.name
                let candidates = reflexive ? [Self.joinTable(naming: ownSide, other: otherSide, reflexive: true)]
                    : [Self.joinTable(naming: ownSide, other: otherSide, reflexive: false),
                       Self.joinTable(naming: otherSide, other: ownSide, reflexive: false)]
                let found = existingTables.flatMap { tables in candidates.first { tables.contains($0.name.uppercased()) } }
                let table = found ?? candidates[0]
                joinTables.append(table)
                indexes.append(.init(name: "\(table.name)_\(table.second.column)_INDEX", table: table.name,
                                     columns: [table.second.column, table.first.column]))
                storages[table.first.entity + "." + table.first.relationship] = .joinTable(table, ownSideFirst: true)
                storages[table.second.entity + "." + table.second.relationship] = .joinTable(table, ownSideFirst: false)
                done.insert(owner.name + "." + relationship.name)
                done.insert(inverseOwner + "." + inverse.name)
                guard found == nil else { continue }
                let names = reflexive ? "its join table \(table.name) is in no verified store"
                    : "Core Data names its join table \(candidates[0].name) or \(candidates[1].name), and which is not known"
                let store = existingTables == nil ? "a new store is refused: import into a store the app made, which has the table"
                    : "the store has neither table: refused"
                problems.append((ownSide.number * 1_000_000 + 3000 + index, ModelProblem(
                    path: relationship.location.path,
                    message: "a many-to-many with \(inverseOwner).\(inverse.name): \(names); \(store)")))
            }
        }
    }

    /// The join table of a many-to-many as named by `naming`'s side: `Z_<its number><ITS NAME>`,
    /// each side's column `Z_<own number><INVERSE'S NAME>` holding its own `Z_PK` (the naming
    /// side's first), and a side's `Z_FOK_` column when the other side's relationship is
    /// ordered; a relationship that is its own inverse names the second column `REFLEXIVE`.
    private static func joinTable(naming: (entity: String, number: Int, relationship: CoreDataModel.Relationship),
                                  other: (entity: String, number: Int, relationship: CoreDataModel.Relationship),
                                  reflexive: Bool) -> Layout.JoinTable {
        let (name, inverseName) = (naming.relationship.name.uppercased(), other.relationship.name.uppercased())
        let first = Layout.JoinTable.Side(
            entity: naming.entity, relationship: naming.relationship.name, column: "Z_\(naming.number)" + inverseName,
            orderColumn: other.relationship.ordered != nil ? "Z_FOK_\(naming.number)" + inverseName : nil)
        let second = Layout.JoinTable.Side(
            entity: other.entity, relationship: other.relationship.name,
            column: reflexive ? "REFLEXIVE" : "Z_\(other.number)" + name,
            orderColumn: naming.relationship.ordered != nil ? (reflexive ? "FOK_REFLEXIVE" : "Z_FOK_\(other.number)" + name) : nil)
        return Layout.JoinTable(name: "Z_\(naming.number)" + name, first: first, second: second)
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
