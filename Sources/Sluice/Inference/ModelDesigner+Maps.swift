/// Objects used as maps (`{"u1": {...}, "u2": {...}}`, Firebase exports): an object whose
/// members are records, keyed by id, is a record location of its own, not one column per member.
extension ModelDesigner {
    /// Fewer members than this must have id-like names to be taken for a map; more, whose
    /// values share one shape, are a map whatever their names.
    static let minimumMapMembers = 20

    /// Whether the objects at `shape` are maps: every member's value an object (at least two
    /// members), and the members' names id-like (integers, UUIDs, Firebase push ids) or, with
    /// many members, their values objects of one shape.
    func isMap(_ shape: Int) -> Bool {
        let members = shapes[shape].keys
        guard members.count + shapes[shape].droppedKeys >= 2,
              members.allSatisfy({ $0.child != nil && $0.values.objects == $0.present && $0.values.arrays == 0
                  && $0.values.scalars == 0 })
        else { return false }
        if members.allSatisfy({ Self.isIDLike($0.key) }) { return true }
        guard members.count >= Self.minimumMapMembers else { return false }
        // One shape: the keys of all the values together are not many more than those of the
        // widest value.
        let widest = members.map { shapes[$0.child!].keys.count }.max() ?? 0
        let all = Set(members.flatMap { shapes[$0.child!].keys.map(\.key) })
        return widest > 0 && Double(all.count) <= Double(widest) * 1.5
    }

    /// A member name that looks like an id: digits, a UUID, a Firebase push id (`-N…`, 20
    /// characters).
    static func isIDLike(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard !bytes.isEmpty else { return false }
        if bytes.allSatisfy({ (0x30...0x39).contains($0) }) { return true }
        var text = name
        if text.withUTF8({ ValueKinds.isUUID(UnsafeRawBufferPointer($0)) }) { return true }
        return bytes.count == 20 && bytes[0] == UInt8(ascii: "-")
            && bytes.allSatisfy { $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") || (0x30...0x39).contains($0)
                || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) }
    }

    /// The places inside records that are maps: per key name (one entity per name, as for any
    /// nested place), the objects under it in every record, taken together. They are maps when
    /// all their members are objects, at least two in all, with id-like names (or at least
    /// `minimumMapMembers` of one shape), and no name appears twice (a name is one record).
    func nestedMapShapes() -> Set<Int> {
        var places: [String: [Int]] = [:]
        var onlyObjects: [String: Bool] = [:]
        for shape in shapes.indices where entity(of: shape) != nil || shape != 0 {
            for key in shapes[shape].keys {
                guard let child = key.child, entity(of: child) == nil else { continue }
                places[key.key, default: []].append(child)
                let objects = key.values.objects == key.present && key.values.arrays == 0 && key.values.scalars == 0
                onlyObjects[key.key] = (onlyObjects[key.key] ?? true) && objects
            }
        }
        var found = Set<Int>()
        for (name, children) in places where onlyObjects[name] == true {
            let members = children.flatMap { shapes[$0].keys }
            guard members.count >= 2, children.allSatisfy({ shapes[$0].droppedKeys == 0 }),
                  members.allSatisfy({ $0.child != nil && $0.values.objects == $0.present && $0.values.arrays == 0
                      && $0.values.scalars == 0 && $0.present == 1 }),
                  Set(members.map(\.key)).count == members.count
            else { continue }
            var isMap = members.allSatisfy { Self.isIDLike($0.key) }
            if !isMap, members.count >= Self.minimumMapMembers {
                let widest = members.map { shapes[$0.child!].keys.count }.max() ?? 0
                let all = Set(members.flatMap { shapes[$0.child!].keys.map(\.key) })
                isMap = widest > 0 && Double(all.count) <= Double(widest) * 1.5
            }
            if isMap { found.formUnion(children) }
        }
        return found
    }

    /// The type of a map's member names: integer when all are integers without leading zeros.
    func memberNameType(_ shape: Int) -> AttributeType {
        memberNameType(of: [shape])
    }

    func memberNameType(of places: [Int]) -> AttributeType {
        let integral = places.flatMap { shapes[$0].keys }.allSatisfy { key in
            key.key.utf8.allSatisfy { (0x30...0x39).contains($0) } && key.key.utf8.count <= 18
                && (key.key == "0" || key.key.utf8.first != UInt8(ascii: "0"))
        }
        return integral ? .integer : .string
    }

    /// Makes the members of the map at `shape` records of the entity `name`: a root location
    /// (`key` in the envelope, nil at the top level).
    mutating func addMapRoot(_ shape: Int, key: String?, name: String, table: String?) {
        let entity = entity(named: name, table: table)
        for member in shapes[shape].keys {
            if let child = member.child { add(child, to: entity, isRoot: true) }
        }
        entities[entity].mapKeyType = memberNameType(shape)
        roots.append((key, entity))
        let place = key.map { ModelProblem.quote($0) } ?? "the input"
        note("\(place) is an object used as a map (\(shapes[shape].keys.count + shapes[shape].droppedKeys) members whose values "
            + "are objects): its members are \(name) records, each member's name in \(name)'s map attribute")
    }

    /// The attribute of a map entity that takes the member names: its identity when it found
    /// one among the members' keys, else a new one (`id`, or `key` when the records hold an
    /// `id` of their own), which becomes the identity.
    mutating func addMapAttributes() {
        for index in entities.indices {
            guard let type = entities[index].mapKeyType else { continue }
            if let identity = entities[index].identityAttribute {
                entities[index].mapAttribute = identity
                continue
            }
            var names = entities[index].names
            let name = names.isFree("id") ? names.claim("id") : names.claim("key")
            entities[index].names = names
            entities[index].attributes.insert(Model.Attribute(name: name, type: type), at: 0)
            entities[index].identityAttribute = name
            entities[index].mapAttribute = name
        }
        // Relationships to a map's members name the attribute their names go to.
        for index in entities.indices {
            for number in entities[index].relationships.indices where entities[index].relationships[number].map == "" {
                let target = entities.firstIndex { $0.name == entities[index].relationships[number].entity }
                entities[index].relationships[number].map = target.flatMap { entities[$0].mapAttribute }
            }
        }
    }
}
