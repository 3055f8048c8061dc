// The fuzz target compiles this file with PropertyRandom in its own module (Fuzz/README.md).
#if canImport(SluiceTestSupport)
import SluiceTestSupport
#endif

/// Random models that `sluice check` accepts, from a seed.
///
/// Covered: one to three entities; zero to five attributes of every type (dates with
/// `dateFormat` patterns, `unix` and `unix-ms`; integers of 16 and 32 `bits`), with key paths,
/// fallback keys, columns of their own, defaults, `defaultWhenMissing` and `optional: false`;
/// identities single, composite (string and integer attributes) or none; to-one
/// relationships (nested or by id), to-many through a join table (nested or by id, `merge`
/// add or replace) and to-many stored by their inverse to-one (nested); `unresolved` null,
/// stub or fail; `root` as one entity or as a map of keys to entities; objects used as maps
/// (a location of `root`, the top-level object itself, and to-manys with `map`); tabular
/// input (`header` `first`, as one array or as a stream, and `columns`).
/// Identity through the parent by position: a to-many by inverse with `position`, its
/// target identified by the inverse to-one and that attribute.
/// Ordered to-manys (`replace` and `add`), by join table and by inverse.
/// Inheritance: one entity may have one or two children with attributes of their own, chosen by
/// `entityBy` (`"kind"`), the parent sometimes `abstract`.
/// Not covered (the oracle does not model them): identity through a to-one given by id or
/// nested object, `position` without identity, children with relationships or defaults of their own,
/// `relatedBy`, self-references.
struct ModelGenerator {
    /// Entities without attributes (SPEC section 4: legal, a record that only exists or links).
    var allowsEntitiesWithoutAttributes = true

    func model(_ random: inout PropertyRandom) -> PropertyModel {
        let count = random.int(1...3)
        var entities: [PropertyModel.Entity] = (0..<count).map { index in entity(index, &random) }
        for index in 0..<count {
            for target in (index + 1)..<max(index + 1, count) where random.chance(60) {
                addRelationship(from: index, to: target, in: &entities, &random)
            }
        }
        // A bare id needs the target's single identity attribute; `stub` and `fail` only
        // follow ids.
        for index in entities.indices {
            for number in entities[index].relationships.indices
            where entities[entities[index].relationships[number].target].relatedBy == nil {
                entities[index].relationships[number].unresolved = .null
            }
        }
        let root: PropertyModel.Root
        if random.chance(8) {
            root = .table(header: random.pick(["first", "columns"]))
        } else if random.chance(10), let map = mapAttribute(entities[0]) {
            root = .paths([(key: "", entity: 0, map: map)])
        } else if count > 1, random.chance(40) {
            var paths: [(key: String, entity: Int, map: String?)] = [(key: "r0", entity: 0, map: nil)]
            for index in 1..<count where random.chance(50) {
                paths.append((key: "r\(index)", entity: index, map: nil))
            }
            for index in paths.indices where random.chance(30) { paths[index].map = mapAttribute(entities[paths[index].entity]) }
            root = .paths(paths)
        } else {
            root = .entity
        }
        // A family: children chosen by `entityBy`, in the parent's table. Not for tabular
        // input, whose header the generator draws from the placed entity's keys only.
        if random.chance(20) {
            let parent = random.below(count)
            if case .table = root, parent == 0 {} else {
                for number in 0..<random.int(1...2) {
                    var attributes: [PropertyModel.Attribute] = []
                    for index in 0..<random.int(0...2) {
                        var attribute = attribute(named: "c\(parent)_\(number)_\(index)", &random)
                        // A descendant's default is the mapping's, not the column's: left out.
                        attribute.defaultValue = nil
                        attribute.defaultWhenMissing = false
                        attributes.append(attribute)
                    }
                    entities[parent].children.append(.init(name: "E\(parent)_\(number)", attributes: attributes))
                }
                entities[parent].abstract = random.chance(30)
            }
        }
        return PropertyModel(entities: entities, root: root)
    }

    /// The attribute member names of a map go to: the first identity attribute (always a
    /// string or an integer), else none.
    private func mapAttribute(_ entity: PropertyModel.Entity) -> String? {
        entity.identity.first { entity.attribute($0) != nil }
    }

    private func entity(_ index: Int, _ random: inout PropertyRandom) -> PropertyModel.Entity {
        let minimum = allowsEntitiesWithoutAttributes ? 0 : 1
        let attributeCount = random.chance(10) ? minimum : random.int(max(1, minimum)...5)
        var attributes: [PropertyModel.Attribute] = []
        for number in 0..<attributeCount {
            attributes.append(attribute(named: "a\(number)", &random))
        }
        var identity: [String] = []
        let roll = random.below(100)
        let wanted = roll < 30 ? 0 : (roll < 80 ? 1 : 2)
        if attributes.count >= wanted {
            for number in 0..<wanted {
                // An identity attribute is plain: no default (a record without it is new), and
                // of a type whose values compare exactly.
                attributes[number] = PropertyModel.Attribute(
                    name: attributes[number].name, type: random.chance(50) ? .integer : .string,
                    keys: attributes[number].keys, column: attributes[number].column)
                identity.append(attributes[number].name)
            }
        }
        let table = random.chance(20) ? "T \(index) é" : "tab\(index)"
        return PropertyModel.Entity(name: "E\(index)", table: table, identity: identity,
                                    attributes: attributes, relationships: [])
    }

    private func attribute(named name: String, _ random: inout PropertyRandom) -> PropertyModel.Attribute {
        var attribute = PropertyModel.Attribute(name: name, type: random.pick(PropertyModel.AttributeType.allCases))
        switch random.below(8) {
        case 0: attribute.keys = ["k_\(name)"]
        case 1: attribute.keys = ["loc.\(name)"]
        case 2: attribute.keys = ["f_\(name)", name]
        case 3: attribute.keys = ["deep.x.\(name)", "loc.\(name)", "g_\(name)"]
        default: break
        }
        if random.chance(20) { attribute.column = "c_\(name)" }
        if attribute.type == .date, random.chance(50) { attribute.dateFormat = random.pick(PropertyValues.dateFormats).format }
        if attribute.type == .integer, random.chance(30) { attribute.bits = random.pick([16, 32]) }
        if random.chance(25) {
            attribute.defaultValue = PropertyValues.defaultValue(for: attribute)
            attribute.defaultWhenMissing = random.chance(50)
        }
        if random.chance(12) { attribute.optional = false }
        return attribute
    }

    private func addRelationship(from source: Int, to target: Int, in entities: inout [PropertyModel.Entity],
                                 _ random: inout PropertyRandom)
    {
        let name = "r\(entities[source].relationships.count)"
        var relationship = PropertyModel.Relationship(name: name, target: target)
        if random.chance(30) { relationship.key = "k_\(name)" }
        switch random.below(4) {
        case 0, 1: break
        case 2:
            relationship.toMany = true
            relationship.replace = random.chance(50)
            if random.chance(25) { relationship.map = mapAttribute(entities[target]) }
            relationship.ordered = relationship.map == nil && random.chance(40)
        default:
            relationship.toMany = true
            relationship.replace = random.chance(50)
            if random.chance(25) { relationship.map = mapAttribute(entities[target]) }
            let inverse = "inv_\(source)_\(name)"
            relationship.inverse = inverse
            entities[target].relationships.append(PropertyModel.Relationship(
                name: inverse, target: source, inverse: name, isInverseSide: true))
            // Records nested without ids of their own: identified by their parent and place.
            if relationship.map == nil, !entities[target].identityThroughParent, random.chance(35) {
                let position = "p_\(inverse)"
                entities[target].attributes.append(PropertyModel.Attribute(name: position, type: .integer))
                entities[target].identity = [inverse, position]
                relationship.position = position
            }
            relationship.ordered = relationship.map == nil && relationship.position == nil && random.chance(40)
        }
        if relationship.inverse == nil {
            switch random.below(10) {
            case 0, 1: relationship.unresolved = .stub
            case 2: relationship.unresolved = .fail
            default: break
            }
        }
        entities[source].relationships.append(relationship)
    }
}
