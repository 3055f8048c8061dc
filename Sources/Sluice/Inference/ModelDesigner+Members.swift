/// Attributes and relationships from the keys of an entity's places (steps 4 of
/// `ModelDesigner`): a typed attribute per key, a relationship per nested place whose entity
/// has an identity, flattened key paths for small objects without one.
extension ModelDesigner {
    /// One key over several places of an entity: its statistics added up.
    struct MergedKey {
        var key: String
        var present = 0
        var values = ValueKinds()
        var elements = ValueKinds()
        /// The shapes of the objects at the key, one per place holding them.
        var children: [Int] = []
        var tooDeep = false
    }

    /// The keys of `places` in order of first appearance, each once.
    func mergedKeys(_ places: [Int]) -> [MergedKey] {
        var merged: [MergedKey] = []
        var index: [String: Int] = [:]
        for place in places {
            for statistics in shapes[place].keys {
                let number: Int
                if let existing = index[statistics.key] {
                    number = existing
                } else {
                    number = merged.count
                    index[statistics.key] = number
                    merged.append(MergedKey(key: statistics.key))
                }
                merged[number].present += statistics.present
                merged[number].values.merge(statistics.values)
                merged[number].elements.merge(statistics.elements)
                if let child = statistics.child { merged[number].children.append(child) }
                merged[number].tooDeep = merged[number].tooDeep || statistics.tooDeep
            }
        }
        return merged
    }

    /// A relationship found among the keys, before it is named.
    struct FoundRelationship {
        var path: [String]
        var target: Int
        var toMany: Bool
        /// One-to-many: no child id repeats under this key, so each child has one parent and
        /// the link can live in a to-one column of the child.
        var wantsInverse: Bool
        /// The value is an object used as a map, its members the target's records.
        var isMap = false
    }

    mutating func buildMembers(of index: Int) {
        var attributes: [(path: [String], type: AttributeType)] = []
        var relationships: [FoundRelationship] = []
        collect(entities[index].shapes, path: [], entity: index, attributes: &attributes, relationships: &relationships)

        var names = entities[index].names
        for attribute in attributes {
            let name = names.claim(InferenceNaming.identifier(attribute.path.joined(separator: "_")))
            var type = attribute.type
            if attribute.path == [entities[index].identityKey], let identityType = entities[index].identityType {
                type = identityType
                entities[index].identityAttribute = name
            }
            entities[index].attributes.append(Model.Attribute(name: name, type: type, keys: [JSONKeyPath(attribute.path)]))
        }
        for found in relationships {
            let snapshot = names
            let name = names.claim(InferenceNaming.identifier(found.path.joined(separator: "_"))) { snapshot.isFree($0 + "_pk") }
            names.reserve(name + "_pk")
            // A map's attribute is named once the target's members are built (`addMapAttributes`).
            entities[index].relationships.append(Model.Relationship(
                name: name, entity: entities[found.target].name, toMany: found.toMany, keys: [JSONKeyPath(found.path)],
                map: found.isMap ? "" : nil))
            if found.wantsInverse {
                pendingInverses.append((entity: index, relationship: entities[index].relationships.count - 1, target: found.target))
            }
        }
        entities[index].names = names
    }

    /// The members found under `places` (at `path` below the entity's records).
    private mutating func collect(_ places: [Int], path: [String], entity: Int,
                                  attributes: inout [(path: [String], type: AttributeType)],
                                  relationships: inout [FoundRelationship])
    {
        for key in mergedKeys(places) {
            let keyPath = path + [key.key]
            let label = "\(entities[entity].name).\(keyPath.joined(separator: "."))"
            guard Self.isAddressable(key.key) else {
                note("\(entities[entity].name): the key \(ModelProblem.quote(key.key)) is left out: "
                    + (key.key.isEmpty ? "a model cannot name an empty key" : "a model key path cannot name a key holding a dot (the dot separates keys)"))
                continue
            }
            if !key.children.isEmpty, key.children.allSatisfy(nestedMaps.contains),
               let member = key.children.compactMap({ shapes[$0].keys.first?.child }).first,
               let target = self.entity(of: member) {
                relationships.append(FoundRelationship(path: keyPath, target: target, toMany: true, wantsInverse: true, isMap: true))
                continue
            }
            if let target = key.children.first.flatMap(self.entity(of:)), entities[target].parentEntity == entity,
               path.isEmpty, key.children.allSatisfy({ self.entity(of: $0) == target }) {
                // Identified through this entity (`ModelDesigner+Positions`).
                relationships.append(FoundRelationship(path: keyPath, target: target, toMany: true, wantsInverse: true))
                continue
            }
            if let found = relationship(key, path: keyPath, label: label) {
                relationships.append(found)
                continue
            }
            if canFlatten(key, depth: path.count) {
                collect(key.children, path: keyPath, entity: entity, attributes: &attributes, relationships: &relationships)
                continue
            }
            let (type, reason) = key.values.attributeType()
            if let reason { note("\(label): \(reason); typed \(type.rawValue)") }
            if !key.children.isEmpty, let target = self.entity(of: key.children[0]), entities[target].identityKey == nil {
                note("\(label): \(key.values.arrays > 0 ? "arrays of objects" : "objects") without an id-like key are kept as json "
                    + "(an entity without identity would get its rows again on every import)")
            } else if key.tooDeep {
                note("\(label): objects nested more than \(SampleReader.maxDepth) levels deep are kept as json")
            }
            attributes.append((keyPath, type))
        }
    }

    /// The key as a relationship: objects (or arrays of them) of an entity with an identity,
    /// mixed only with nulls and bare ids of the identity's type.
    private func relationship(_ key: MergedKey, path: [String], label: String) -> FoundRelationship? {
        guard !key.tooDeep, let first = key.children.first, let target = entity(of: first),
              let identityKey = entities[target].identityKey, let identityType = entities[target].identityType,
              Self.holdsOnlyIDs(key.values, of: identityType), Self.holdsOnlyIDs(key.elements, of: identityType),
              key.elements.arrays == 0
        else { return nil }
        let toMany = key.values.arrays > 0
        var wantsInverse = false
        if toMany, key.elements.scalars == 0 {
            // Bare ids are not remembered; only objects tell whether a child repeats.
            var seen: Set<String> = []
            var count = 0
            for child in key.children {
                guard let statistics = shapes[child].statistics(of: identityKey) else { continue }
                seen.formUnion(statistics.identityValues)
                count += statistics.identityCount
            }
            wantsInverse = seen.count == count
        }
        return FoundRelationship(path: path, target: target, toMany: toMany, wantsInverse: wantsInverse)
    }

    /// Whether the scalars among `kinds` are ids a relationship to an identity of `type` can
    /// look up (objects, arrays and nulls are the relationship's own business).
    private static func holdsOnlyIDs(_ kinds: ValueKinds, of type: AttributeType) -> Bool {
        guard kinds.booleans == 0, kinds.reals == 0 else { return false }
        switch type {
        case .integer: return kinds.strings == 0 && kinds.bigIntegers == 0
        case .uuid: return kinds.integers == 0 && kinds.bigIntegers == 0 && kinds.uuidStrings == kinds.strings
        default: return true
        }
    }

    /// A small object (never an array or a scalar) whose keys a key path can name becomes
    /// attributes of the entity itself: `location.lat` → `location_lat`.
    private func canFlatten(_ key: MergedKey, depth: Int) -> Bool {
        guard !key.children.isEmpty, !key.tooDeep, key.values.arrays == 0, key.values.scalars == 0,
              depth + 1 < Self.maxFlattenDepth,
              key.children.allSatisfy({ shapes[$0].droppedKeys == 0 })
        else { return false }
        let keys = mergedKeys(key.children)
        return !keys.isEmpty && keys.count <= Self.maxFlattenedKeys && keys.allSatisfy { Self.isAddressable($0.key) }
    }
}
