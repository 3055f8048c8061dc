/// The parts of `ModelDesigner` that look across entities: inverses of one-to-many
/// relationships, relationships by id (step 5), table names, and the model itself.
extension ModelDesigner {
    /// A to-many whose children each have one parent is stored in a to-one of the child
    /// pointing back (no join table). The to-one is named after the parent (`order`), and
    /// never after a key the child's records hold: its key is its name, and a value there
    /// would be read as the parent's id.
    mutating func addInverses() {
        for pending in pendingInverses {
            let parent = entities[pending.entity]
            let target = pending.target
            let childKeys = Set(entities[target].shapes.flatMap { shapes[$0].keys.map(\.key) })
            var names = entities[target].names
            let snapshot = names
            let base = InferenceNaming.identifier(InferenceNaming.lowerFirst(parent.name))
            let name = names.claim(base) { !childKeys.contains($0) && snapshot.isFree($0 + "_pk") }
            names.reserve(name + "_pk")
            entities[target].names = names
            entities[target].relationships.append(Model.Relationship(name: name, entity: parent.name))
            entities[pending.entity].relationships[pending.relationship].inverse = name
        }
    }

    /// A scalar attribute whose key is another entity's identity key (`trip_id` in stop
    /// times, where Trip's identity is `trip_id`), or `<entity>_id` when that entity's
    /// identity key is `id`, and of the same type, refers to it: a to-one beside the
    /// attribute (one key may feed both). Only when exactly one entity matches.
    mutating func addReferencesByID() {
        for index in entities.indices where entities[index].isEntity {
            for attribute in entities[index].attributes {
                guard attribute.name != entities[index].identityAttribute, attribute.keys.count == 1,
                      attribute.keys[0].keys.count == 1,
                      [.string, .integer, .uuid].contains(attribute.type) else { continue }
                let key = attribute.keys[0].keys[0]
                let targets = entities.indices.filter { target in
                    guard target != index, entities[target].isEntity, let identityKey = entities[target].identityKey,
                          entities[target].identityType == attribute.type else { return false }
                    return identityKey == key
                        || (IdentityCandidate.normalise(identityKey) == "id"
                            && IdentityCandidate.normalise(key) == IdentityCandidate.normalise(entities[target].name) + "id")
                }
                guard let target = targets.first else { continue }
                guard targets.count == 1 else {
                    note("\(entities[index].name).\(attribute.name): could refer to "
                        + targets.map { entities[$0].name }.joined(separator: " or ") + "; no relationship proposed")
                    continue
                }
                var names = entities[index].names
                let snapshot = names
                let base = InferenceNaming.referenceName(fromKey: key).map(InferenceNaming.identifier)
                    ?? InferenceNaming.lowerFirst(entities[target].name)
                let name = names.claim(base) { snapshot.isFree($0 + "_pk") }
                names.reserve(name + "_pk")
                entities[index].names = names
                entities[index].relationships.append(Model.Relationship(
                    name: name, entity: entities[target].name, keys: [JSONKeyPath([key])]))
            }
        }
    }

    /// A root entity without an id whose records each hold a reference that became a
    /// relationship by id (`trip_id`) and an integer sequence number (`stop_sequence`), the
    /// pair unique in the sample, is identified by the pair (`CompositeIdentity`).
    mutating func addCompositeIdentity(to index: Int) {
        let entity = entities[index]
        guard !entity.rootShapes.isEmpty, entity.rootShapes.count == entity.shapes.count else { return }
        let references = entity.relationships.filter { !$0.toMany && $0.keys.count == 1 && $0.keys[0].keys.count == 1 }
            .map { $0.keys[0].keys[0] }
        let attributes = entity.attributes.filter { $0.keys.count == 1 && $0.keys[0].keys.count == 1 }
        for reference in references {
            guard let referenceAttribute = attributes.first(where: { $0.keys[0].keys[0] == reference }) else { continue }
            for sequence in attributes where sequence.type == .integer && CompositeIdentity.role(of: sequence.keys[0].keys[0]) == .sequence {
                let unique = entity.shapes.allSatisfy { shape in
                    let keys = shapes[shape].keys
                    guard let r = keys.firstIndex(where: { $0.key == reference }),
                          let s = keys.firstIndex(where: { $0.key == sequence.keys[0].keys[0] }),
                          let pairs = shapes[shape].pairs[.init(reference: r, sequence: s)]
                    else { return false }
                    return pairs.count == shapes[shape].records && pairs.distinct.count == pairs.count
                }
                guard unique else { continue }
                entities[index].compositeIdentity = [referenceAttribute.name, sequence.name]
                note("\(entity.name): identity (\(referenceAttribute.name), \(sequence.name)): it has no id of its own, "
                    + "but every sampled record holds both and no pair repeats")
                return
            }
        }
    }

    /// Tables (the key or file name the records came from, else the entity's name) unique
    /// as SQLite compares names, clear of `sluice_imports` and `sqlite_*`; join tables too.
    mutating func nameTables() {
        var tables = NameScope(reserved: [Model.importsTable])
        for index in entities.indices where entities[index].isEntity {
            var base = entities[index].table ?? entities[index].name
            if NameScope.fold(base).hasPrefix("sqlite_") { base = "t_" + base }
            entities[index].table = tables.claim(base)
        }
        for index in entities.indices where entities[index].isEntity {
            let table = entities[index].table!
            for number in entities[index].relationships.indices {
                let relationship = entities[index].relationships[number]
                guard relationship.toMany, relationship.inverse == nil else { continue }
                var name = relationship.name
                if !tables.isFree("\(table)_\(name)") {
                    name = entities[index].names.claim(name) { tables.isFree("\(table)_\($0)") }
                    entities[index].relationships[number].name = name
                }
                tables.reserve("\(table)_\(name)")
            }
        }
    }

    /// The model: root, then the entities in the order they were found.
    func assemble() -> Model {
        let root: Model.Root
        if roots.count == 1, roots[0].key == nil {
            root = .entity(entities[roots[0].entity].name)
        } else {
            root = .paths(roots.map { (JSONKeyPath($0.key.map { $0.split(separator: ".").map(String.init) } ?? []), entities[$0.entity].name) })
        }
        let modelEntities = entities.filter(\.isEntity).map { entity in
            Model.Entity(name: entity.name, table: entity.table, identity: entity.identity,
                         attributes: entity.attributes, relationships: entity.relationships)
        }
        var rootMaps: [JSONKeyPath: String] = [:]
        for root in roots {
            if let map = entities[root.entity].mapAttribute {
                rootMaps[JSONKeyPath(root.key.map { $0.split(separator: ".").map(String.init) } ?? [])] = map
            }
        }
        return Model(root: root, entities: modelEntities, rootMaps: rootMaps, rootTable: table)
    }
}
