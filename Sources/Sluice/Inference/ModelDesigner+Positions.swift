/// Nested arrays of objects without an id-like key (a person's phones, stop times nested in
/// their trip): an entity whose identity goes through its parent
/// (`docs/model.md#identity-through-the-parent`), so that a re-import finds their rows, instead
/// of a `json` column.
extension ModelDesigner {
    /// Makes an entity of each nested place whose objects have no identity of their own and
    /// hang, in arrays, under one key of one entity: identified by that parent and a
    /// sequence-like key unique within each parent (`stop_sequence`), or else by their place
    /// in the array. Parents come first (places are found breadth first), so a place nested in
    /// such an entity can be one too.
    mutating func chooseParentIdentities() {
        for index in entities.indices {
            let entity = entities[index]
            guard !entity.isEntity, entity.identityKey == nil, entity.mapKeyType == nil, entity.rootShapes.isEmpty,
                  let parent = parentEntity(of: entity.shapes)
            else { continue }
            entities[index].isEntity = true
            entities[index].parentEntity = parent
            entities[index].sequenceKey = sequenceKey(of: entity.shapes)
        }
    }

    /// The one entity whose records hold all of `places` under one key, as arrays of objects
    /// (nulls allowed, no ids: a place without identity cannot be named by id).
    private func parentEntity(of places: [Int]) -> Int? {
        var found: (entity: Int, key: String)?
        for place in places {
            guard let parentShape = shapes[place].parent, let key = shapes[place].sourceKey,
                  let parent = entity(of: parentShape), entities[parent].isEntity,
                  found == nil || (found!.entity == parent && found!.key == key),
                  let statistics = shapes[parentShape].statistics(of: key),
                  statistics.values.arrays > 0, statistics.values.scalars == 0, !statistics.tooDeep,
                  statistics.elements.scalars == 0, statistics.elements.arrays == 0,
                  Self.isAddressable(key)
            else { return nil }
            found = (parent, key)
        }
        return found?.entity
    }

    /// A sequence-like integer key (`CompositeIdentity`) held by every sampled object of every
    /// place, no value repeating within one parent.
    private func sequenceKey(of places: [Int]) -> String? {
        let candidates = places.first.map { shapes[$0].keys.filter { $0.compositeRole == .sequence }.map(\.key) } ?? []
        return candidates.first { key in
            places.allSatisfy { place in
                guard let number = shapes[place].keys.firstIndex(where: { $0.key == key }),
                      let values = shapes[place].sequencesInParent[number]
                else { return false }
                let statistics = shapes[place].keys[number]
                return statistics.present == shapes[place].records && statistics.values.integers == statistics.present
                    && values.count == shapes[place].records && values.distinct.count == values.count
            }
        }
    }

    /// Once the inverses exist: each entity identified through its parent gets its identity,
    /// the to-one back to the parent and the sequence key, or else a position attribute that
    /// the parent's to-many fills.
    mutating func addParentIdentities() {
        for index in entities.indices {
            guard let parent = entities[index].parentEntity,
                  let number = entities[parent].relationships.firstIndex(where: { $0.entity == entities[index].name && $0.toMany }),
                  let inverse = entities[parent].relationships[number].inverse
            else { continue }
            let name = entities[index].name
            if let key = entities[index].sequenceKey,
               let attribute = entities[index].attributes.first(where: { $0.keys == [JSONKeyPath([key])] }) {
                entities[index].compositeIdentity = [inverse, attribute.name]
                entities[index].parentIdentityNote = notes.count
                note("\(name): identity (\(inverse), \(attribute.name)): it has no id of its own, and no "
                    + "\(attribute.name) repeats within one \(entities[parent].name)")
                continue
            }
            var names = entities[index].names
            let position = names.claim("position")
            entities[index].names = names
            entities[index].attributes.append(Model.Attribute(name: position, type: .integer))
            entities[parent].relationships[number].position = position
            entities[index].compositeIdentity = [inverse, position]
            entities[index].parentIdentityNote = notes.count
            note("\(name): identity (\(inverse), \(position)): it has no id of its own, so each is identified by its "
                + "\(entities[parent].name) and its place in the array (from 0)")
        }
    }

    /// Once every entity has what identity it can get: an identity through a parent is only as
    /// stable as the parent's. A parent without one (the records of an envelope's array with no
    /// id-like key: their place cannot be an identity, as a nested array's is) gets new rows on
    /// every import, and a child identified through it would too, while its identity promised
    /// otherwise. Such a child claims none, and its note says why; so do its own children
    /// through it, in turn (parents come first).
    mutating func dropIdentitiesThroughUnidentifiedParents() {
        for index in entities.indices {
            guard let parent = entities[index].parentEntity, let noteIndex = entities[index].parentIdentityNote,
                  !entities[index].compositeIdentity.isEmpty, entities[parent].identity.isEmpty
            else { continue }
            entities[index].compositeIdentity = []
            entities[index].parentIdentityNote = nil
            let name = entities[index].name, parentName = entities[parent].name
            replaceNote(at: noteIndex, with: "\(name): no identity: it has no id of its own, and an identity through its "
                + "\(parentName) would not hold, since \(parentName) has none: importing the same input again adds "
                + "the rows of both again")
        }
    }
}
