/// A generated model, in the terms the generator and the oracle share; `modelText` is the
/// Sluice model file that says the same.
struct PropertyModel {
    enum AttributeType: String, CaseIterable {
        case string, integer, double, decimal, boolean, date, uuid, binary, json
    }

    struct Attribute {
        var name: String
        var type: AttributeType
        /// Key paths tried in order; empty: the attribute's name.
        var keys: [String] = []
        var column: String?
        var optional = true
        var defaultValue: PropertyJSON?
        var defaultWhenMissing = false
        /// `date` only: a pattern, `unix`, `unix-ms` or `UnixTime` (nil: ISO 8601).
        var dateFormat: String?
        /// `integer` only: 16 or 32 (nil: 64).
        var bits: Int?

        var lookupKeys: [String] { keys.isEmpty ? [name] : keys }
        var columnName: String { column ?? name }
    }

    enum Unresolved: String { case null, stub, fail }

    struct Relationship {
        var name: String
        /// Index of the target entity; always a later entity, so nesting ends.
        var target: Int
        var toMany = false
        /// The key in a record; nil: the relationship's name.
        var key: String?
        /// For a to-many: the target's to-one that stores the link (declared on the target,
        /// never given a value in the input). nil: a join table.
        var inverse: String?
        var replace = false
        var unresolved = Unresolved.null
        /// The to-one on the target side of an inverse pair (no key of its own in the input).
        var isInverseSide = false
        /// To-many only: the value is an object used as a map, each member's name the value
        /// of this attribute of the target.
        var map: String?
        /// To-many by inverse only: the target's integer attribute each element's place in
        /// the array goes to (the target's identity is then the inverse to-one and it).
        var position: String?
        /// To-many only: the links keep their places in the list.
        var ordered = false

        var lookupKey: String { key ?? name }
    }

    /// A descendant of an entity (`parent`), with attributes of its own and nothing else: its
    /// records are those placed as the parent whose `entityBy` key names it.
    struct Child {
        var name: String
        var attributes: [Attribute]
    }

    struct Entity {
        var name: String
        var table: String
        var identity: [String]
        var attributes: [Attribute]
        var relationships: [Relationship]
        /// Descendants chosen by `entityBy` at the key `kindKey`: the first by `"1"`, the
        /// second by `"b"` (`kindValues`).
        var children: [Child] = []
        var abstract = false

        static let kindKey = "kind"
        static let kindValues = ["1", "b"]

        /// Every column of the entity's table that holds an attribute: its own, then its
        /// children's.
        var storedAttributes: [Attribute] { attributes + children.flatMap(\.attributes) }

        func attribute(_ name: String) -> Attribute? { attributes.first { $0.name == name } }
        /// The attribute a bare id names: the single identity attribute, if there is one.
        var relatedBy: Attribute? { identity.count == 1 ? attribute(identity[0]) : nil }
        /// Whether the identity goes through a to-one (the parent's).
        var identityThroughParent: Bool { identity.contains { attribute($0) == nil } }

        func relationship(_ name: String) -> Relationship? { relationships.first { $0.name == name } }
    }

    enum Root {
        /// Top-level records are of entity 0.
        case entity
        /// A top-level object maps each key to an array of records of an entity, or (`map`)
        /// to an object used as a map; the key "" (alone) is the top-level object itself.
        case paths([(key: String, entity: Int, map: String?)])
        /// Tabular input of entity 0: `first` (the location "" holds the header, then the
        /// rows) or `columns` (`{"columns": header, "data": rows}`).
        case table(header: String)
    }

    var entities: [Entity]
    var root: Root

    /// The model file's text.
    var modelText: String {
        var entityMembers: [(String, PropertyJSON)] = []
        for entity in entities {
            var fields: [(String, PropertyJSON)] = [("table", .string(entity.table))]
            if entity.identity.count == 1 {
                fields.append(("identity", .string(entity.identity[0])))
            } else if !entity.identity.isEmpty {
                fields.append(("identity", .array(entity.identity.map { .string($0) })))
            }
            fields.append(("attributes", .object(entity.attributes.map { ($0.name, Self.attributeJSON($0)) })))
            if !entity.relationships.isEmpty {
                fields.append(("relationships", .object(entity.relationships.map { ($0.name, relationshipJSON($0)) })))
            }
            if !entity.children.isEmpty {
                if entity.abstract { fields.append(("abstract", .bool(true))) }
                let values = zip(Entity.kindValues, entity.children).map { ($0, PropertyJSON.string($1.name)) }
                fields.append(("entityBy", .object([("key", .string(Entity.kindKey)), ("values", .object(values))])))
            }
            entityMembers.append((entity.name, .object(fields)))
        }
        for entity in entities {
            for child in entity.children {
                entityMembers.append((child.name, .object([
                    ("parent", .string(entity.name)),
                    ("attributes", .object(child.attributes.map { ($0.name, Self.attributeJSON($0)) })),
                ])))
            }
        }
        let rootJSON: PropertyJSON
        switch root {
        case .entity: rootJSON = .string(entities[0].name)
        case .table(let header):
            rootJSON = .object([(header == "first" ? "" : "data",
                                 .object([("entity", .string(entities[0].name)), ("header", .string(header))]))])
        case .paths(let paths):
            rootJSON = .object(paths.map { path in
                let entity = PropertyJSON.string(entities[path.entity].name)
                guard let map = path.map else { return (path.key, entity) }
                return (path.key, .object([("entity", entity), ("map", .string(map))]))
            })
        }
        var out = ""
        PropertyJSON.object([("root", rootJSON), ("entities", .object(entityMembers))])
            .write(to: &out, escapeNonASCII: false, spaced: true)
        return out
    }

    private static func attributeJSON(_ attribute: Attribute) -> PropertyJSON {
        var fields: [(String, PropertyJSON)] = [("type", .string(attribute.type.rawValue))]
        if attribute.keys.count == 1 {
            fields.append(("key", .string(attribute.keys[0])))
        } else if !attribute.keys.isEmpty {
            fields.append(("key", .array(attribute.keys.map { .string($0) })))
        }
        if let column = attribute.column { fields.append(("column", .string(column))) }
        if !attribute.optional { fields.append(("optional", .bool(false))) }
        if let value = attribute.defaultValue { fields.append(("default", value)) }
        if attribute.defaultWhenMissing { fields.append(("defaultWhenMissing", .bool(true))) }
        if let format = attribute.dateFormat { fields.append(("dateFormat", .string(format))) }
        if let bits = attribute.bits { fields.append(("bits", .number(String(bits)))) }
        if fields.count == 1 { return .string(attribute.type.rawValue) }
        return .object(fields)
    }

    private func relationshipJSON(_ relationship: Relationship) -> PropertyJSON {
        var fields: [(String, PropertyJSON)] = [("entity", .string(entities[relationship.target].name))]
        if relationship.toMany { fields.append(("toMany", .bool(true))) }
        if let key = relationship.key { fields.append(("key", .string(key))) }
        if let inverse = relationship.inverse { fields.append(("inverse", .string(inverse))) }
        if relationship.replace { fields.append(("merge", .string("replace"))) }
        if relationship.unresolved != .null { fields.append(("unresolved", .string(relationship.unresolved.rawValue))) }
        if let map = relationship.map { fields.append(("map", .string(map))) }
        if let position = relationship.position { fields.append(("position", .string(position))) }
        if relationship.ordered { fields.append(("ordered", .bool(true))) }
        return .object(fields)
    }
}

extension PropertyModel {
    /// The features of `check`'s model space this model uses, so the tests can say that the
    /// generator reaches each of them.
    var features: Set<String> {
        var features = Set<String>()
        switch root {
        case .entity: features.insert("root entity")
        case .table(let header): features.insert("table \(header)")
        case .paths(let paths):
            features.insert(paths.count == 1 && paths[0].key == "" ? "root map of the top-level object" : "root paths")
            if paths.contains(where: { $0.map != nil && $0.key != "" }) { features.insert("root map") }
        }
        for entity in entities {
            features.insert("identity of \(entity.identity.count)")
            if !entity.children.isEmpty { features.insert("inheritance with entityBy") }
            if entity.attributes.isEmpty { features.insert("entity without attributes") }
            for attribute in entity.attributes {
                features.insert("type \(attribute.type.rawValue)")
                if let format = attribute.dateFormat { features.insert("dateFormat \(format)") }
                if let bits = attribute.bits { features.insert("bits \(bits)") }
                if attribute.defaultValue != nil { features.insert("default") }
                if attribute.defaultWhenMissing { features.insert("defaultWhenMissing") }
                if !attribute.optional { features.insert("required") }
                if attribute.keys.count > 1 { features.insert("fallback keys") }
                if attribute.keys.contains(where: { $0.contains(".") }) { features.insert("key path") }
            }
            for relationship in entity.relationships where !relationship.isInverseSide {
                let kind = relationship.toMany ? (relationship.inverse == nil ? "to-many by join table" : "to-many by inverse") : "to-one"
                features.insert(kind)
                if relationship.toMany { features.insert("merge \(relationship.replace ? "replace" : "add")") }
                features.insert("unresolved \(relationship.unresolved.rawValue)")
                if relationship.map != nil { features.insert("map \(kind)") }
                if relationship.position != nil { features.insert("identity through the parent by position") }
                if relationship.ordered { features.insert("ordered \(kind)"); features.insert("ordered merge \(relationship.replace ? "replace" : "add")") }
            }
        }
        return features
    }
}
