/// The shapes of a mapping plan: how the records of each model entity are read. A shape has
/// its family's attributes and relationships (`Model.storageModel`), so that a record of any
/// member fills the slots of its family's storage entity; its key trie reaches only its own
/// ones (inherited included), and, when it has `entityBy`, those of the descendants it names,
/// which the assembler drops again unless the record is chosen as one of them.
extension MappingPlan {
    /// Converters and converted defaults, compiled once per declaration so that an inherited
    /// attribute's problem is reported once, at the entity that declares it.
    struct AttributeCompiler {
        private var compiled: [String: (converter: ValueConverter, defaultValue: ColumnValue?)] = [:]
        private(set) var problems: [ModelProblem] = []
        /// The declarations (`Entity.attribute`) that records are matched by: identities and
        /// `relatedBy` targets. A decimal or json value among them converts to its value's one
        /// spelling (`ValueConverter.canonical`), so that `1.0` and `1` are one identity.
        let matched: Set<String>
        let encoding: ValueEncoding

        init(matched: Set<String> = [], encoding: ValueEncoding = .sluice) {
            self.matched = matched
            self.encoding = encoding
        }

        /// `matched` for `model`: each identity's and `relatedBy`'s attribute, by the entity
        /// that declares it (the nearest in the lineage of the entity naming it).
        static func matchedDeclarations(in model: Model) -> Set<String> {
            var result: Set<String> = []
            func add(_ name: String, seenFrom entity: String) {
                if let declarer = model.lineage(of: entity).first(where: { $0.attributes.contains { $0.name == name } }) {
                    result.insert("\(declarer.name).\(name)")
                }
            }
            for entity in model.entities {
                for named in model.lineage(of: entity.name) {
                    for name in named.identity { add(name, seenFrom: entity.name) }
                }
                for relationship in entity.relationships {
                    if let name = relationship.relatedBy { add(name, seenFrom: relationship.entity) }
                }
            }
            return result
        }

        mutating func compile(_ attribute: Model.Attribute, declaredBy entity: String)
            -> (converter: ValueConverter, defaultValue: ColumnValue?)
        {
            let key = "\(entity).\(attribute.name)"
            if let done = compiled[key] { return done }
            let path = "entities.\(entity).attributes.\(attribute.name)"
            var result: (converter: ValueConverter, defaultValue: ColumnValue?)
            do {
                result = (try ValueConverter(type: attribute.type, dateFormat: attribute.dateFormat, bits: attribute.bits,
                                             canonical: matched.contains(key), encoding: encoding,
                                             customTransformer: attribute.customTransformer != nil), nil)
            } catch {
                let field = attribute.bits != nil && attribute.dateFormat == nil ? "bits" : "dateFormat"
                problems.append(ModelProblem(path: "\(path).\(field)", message: error.message))
                // A stand-in: a plan with problems is never used.
                result = (try! ValueConverter(type: .json, dateFormat: nil), nil)
            }
            if let value = attribute.defaultValue {
                do {
                    result.defaultValue = try result.converter.convert(value)
                } catch {
                    problems.append(ModelProblem(path: "\(path).default", message: error.message))
                }
            }
            compiled[key] = result
            return result
        }
    }

    /// Declarations by name as an entity sees them (the nearest one wins), with the entity
    /// that declares each.
    private static func declarations<Member>(of name: String, in model: Model, _ members: (Model.Entity) -> [Member],
                                             name memberName: (Member) -> String) -> [String: (entity: String, member: Member)]
    {
        var result: [String: (entity: String, member: Member)] = [:]
        for entity in model.lineage(of: name).reversed() {
            for member in members(entity) { result[memberName(member)] = (entity.name, member) }
        }
        return result
    }

    /// Declarations of the entity, then of the descendants its `entityBy` names for the names
    /// it lacks, then of the whole family (the storage entity's declaration).
    private static func reachable<Member>(_ entity: Model.Entity, in model: Model, _ members: (Model.Entity) -> [Member],
                                          name: (Member) -> String)
        -> (own: [String: (entity: String, member: Member)], chosen: [String: (entity: String, member: Member)],
            family: [String: (entity: String, member: Member)])
    {
        let own = declarations(of: entity.name, in: model, members, name: name)
        var chosen: [String: (entity: String, member: Member)] = [:]
        for choice in entity.entityBy?.values ?? [] {
            for (key, value) in declarations(of: choice.entity, in: model, members, name: name)
            where own[key] == nil && chosen[key] == nil {
                chosen[key] = value
            }
        }
        var family: [String: (entity: String, member: Member)] = [:]
        for member in model.family(of: model.familyRoot(of: entity.name)) {
            for item in members(member) where family[name(item)] == nil { family[name(item)] = (member.name, item) }
        }
        return (own, chosen, family)
    }

    mutating func buildShape(_ entity: Model.Entity, storage: Int, model: Model,
                             compiler: inout AttributeCompiler, rawAttributes: Set<String> = []) -> EntityPlan {
        let stored = storageModel.entities[storage]
        let isFamily = model.hasDescendants(stored.name)
        let rootNode = keyNodes.count
        keyNodes.append(KeyNode())
        let (own, chosen, family) = Self.reachable(entity, in: model, \.attributes, name: \.name)
        var attributes: [AttributePlan] = []
        var members: [Bool] = []
        for (index, attribute) in stored.attributes.enumerated() {
            if isFamily && index == 0 {
                // The `"entity"` column: the entity's name, or the `entityBy` key's value
                // until the assembler replaces it with the name of the entity it chooses.
                attributes.append(AttributePlan(
                    name: Model.entityColumn, column: storeValues.entity.name, type: .string,
                    converter: try! ValueConverter(type: .string, dateFormat: nil), optional: true,
                    defaultValue: storeValues.entity.value(of: entity.name), defaultWhenMissing: true))
                members.append(true)
                if let key = entity.entityBy?.key {
                    let node = addKeyPath(key, from: rootNode)
                    keyNodes[node].targets.append((attribute: 0, priority: 0))
                    keyNodes[node].hasScalarTarget = true
                }
                continue
            }
            let isMember = own[attribute.name] != nil
            guard let (declarer, declared) = own[attribute.name] ?? chosen[attribute.name] ?? family[attribute.name]
            else { continue }
            var (converter, defaultValue) = compiler.compile(declared, declaredBy: declarer)
            var type = declared.type
            if isMember && !rawAttributes.isEmpty
                && model.lineage(of: entity.name).contains(where: { rawAttributes.contains("\($0.name).\(attribute.name)") })
            {
                // A hook converts it: read the value as it is, as JSON text.
                converter = try! ValueConverter(type: .json, dateFormat: nil)
                type = .json
            }
            // A default declared below a family's root is not its column's default: the mapping
            // applies it, to updates as well (`docs/model.md#inheritance`).
            let appliedByMapping = isFamily && declarer != stored.name && defaultValue != nil
            attributes.append(AttributePlan(
                name: attribute.name, column: attribute.column, type: type, converter: converter,
                optional: isMember ? declared.optional : true, defaultValue: isMember ? defaultValue : nil,
                defaultWhenMissing: isMember && (declared.defaultWhenMissing || appliedByMapping)))
            members.append(isMember)
            if isMember || chosen[attribute.name] != nil {
                for (priority, keyPath) in declared.keys.enumerated() {
                    let node = addKeyPath(keyPath, from: rootNode)
                    keyNodes[node].targets.append((attribute: index, priority: priority))
                    if type == .json { keyNodes[node].hasJSONTarget = true } else { keyNodes[node].hasScalarTarget = true }
                }
            }
        }
        let identity = stored.identity.compactMap { name in attributes.firstIndex { $0.name == name } }
        var plan = EntityPlan(name: entity.name, table: stored.table, attributes: attributes, identity: identity,
                              rootNode: rootNode, storage: storage)
        plan.identityRelationships = stored.identity.compactMap { name in
            guard !attributes.contains(where: { $0.name == name }) else { return nil }
            return stored.relationships.firstIndex { $0.name == name && !$0.toMany }
        }
        if isFamily {
            plan.attributeMembers = members
        }
        return plan
    }

    /// The shape's relationships (its family's), and its `entityBy` choices, once every shape
    /// exists.
    mutating func buildRelationships(of entity: Model.Entity, shape: Int, model: Model,
                                     rawRelationships: Set<String> = []) {
        let stored = storageModel.entities[shapes[shape].storage]
        let isFamily = model.hasDescendants(stored.name)
        let (own, chosen, family) = Self.reachable(entity, in: model, \.relationships, name: \.name)
        var members: [Bool] = []
        for (index, relationship) in stored.relationships.enumerated() {
            guard let (_, declared) = own[relationship.name] ?? chosen[relationship.name] ?? family[relationship.name],
                  let target = shapeIndex(named: declared.entity)
            else { continue }
            let relatedBy = relatedBy(declared, target: shapes[target])
            let targetName = shapes[target].name
            shapes[shape].relationships.append(RelationshipPlan(
                name: relationship.name, target: target, toMany: declared.toMany, relatedBy: relatedBy,
                relatedByName: relatedBy.map { "\(targetName).\(shapes[target].attributes[$0.attribute].name)" } ?? targetName,
                mapAttribute: declared.map.flatMap { name in shapes[target].attributes.firstIndex { $0.name == name } },
                positionAttribute: declared.position.flatMap { name in shapes[target].attributes.firstIndex { $0.name == name } }))
            members.append(own[relationship.name] != nil)
            // A hook imports it: `addRawLinks` reads its keys instead.
            if rawRelationships.contains("\(entity.name).\(relationship.name)") { continue }
            if own[relationship.name] != nil || chosen[relationship.name] != nil {
                for (priority, keyPath) in declared.keys.enumerated() {
                    let node = addKeyPath(keyPath, from: shapes[shape].rootNode)
                    keyNodes[node].links.append((relationship: index, priority: priority))
                }
            }
        }
        if isFamily {
            shapes[shape].relationshipMembers = members
        }
        if isFamily, let entityBy = entity.entityBy {
            shapes[shape].entityBy = EntityByPlan(attribute: 0, choices: entityBy.values.compactMap { choice in
                shapeIndex(named: choice.entity).map { (Array(choice.value.utf8), $0) }
            })
        }
    }

    /// The relationships hooks import (`rawRelationships`, `Entity.relationship` for the
    /// entity whose hooks hold the closure): each gets an attribute, after the family's, in
    /// every shape of its family, that reads its raw JSON as text at its keys in the shapes
    /// whose records the hook imports.
    mutating func addRawLinks(model: Model, rawRelationships: Set<String>) {
        for storage in storageModel.entities.indices {
            let familyShapes = shapes.indices.filter { shapes[$0].storage == storage }
            let stored = storageModel.entities[storage]
            let raw = stored.relationships.indices.filter { index in
                familyShapes.contains { rawRelationships.contains("\(shapes[$0].name).\(stored.relationships[index].name)") }
            }
            guard !raw.isEmpty else { continue }
            for shape in familyShapes {
                let entityName = shapes[shape].name
                let declared = Dictionary(model.inheritedRelationships(of: entityName).map { ($0.name, $0) },
                                          uniquingKeysWith: { _, nearest in nearest })
                shapes[shape].rawLinks = raw
                for relationship in raw {
                    let name = stored.relationships[relationship].name
                    let index = shapes[shape].attributes.count
                    shapes[shape].attributes.append(AttributePlan(
                        name: name, column: name, type: .json, converter: try! ValueConverter(type: .json),
                        optional: true, defaultValue: nil, defaultWhenMissing: false))
                    let reads = rawRelationships.contains("\(entityName).\(name)")
                    if !shapes[shape].attributeMembers.isEmpty { shapes[shape].attributeMembers.append(reads) }
                    guard reads, let keys = declared[name]?.keys else { continue }
                    for (priority, keyPath) in keys.enumerated() {
                        let node = addKeyPath(keyPath, from: shapes[shape].rootNode)
                        keyNodes[node].targets.append((attribute: index, priority: priority))
                        keyNodes[node].hasJSONTarget = true
                    }
                }
            }
        }
    }

    /// A model built in code skips validation: parents must still exist and form no cycle
    /// before the families can be compiled.
    static func lineageProblem(_ model: Model) -> ModelProblem? {
        for entity in model.entities where entity.parent != nil {
            let lineage = model.lineage(of: entity.name)
            if let last = lineage.last, last.parent != nil {
                return ModelProblem(path: "entities.\(last.name).parent",
                                    message: model.entity(named: last.parent!) == nil
                                        ? "unknown entity \(ModelProblem.quote(last.parent!))"
                                        : "\(ModelProblem.quote(entity.name)) is its own ancestor")
            }
        }
        return nil
    }
}
