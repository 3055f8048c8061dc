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

        var lookupKey: String { key ?? name }
    }

    struct Entity {
        var name: String
        var table: String
        var identity: [String]
        var attributes: [Attribute]
        var relationships: [Relationship]

        func attribute(_ name: String) -> Attribute? { attributes.first { $0.name == name } }
        /// The attribute a bare id names: the single identity attribute, if there is one.
        var relatedBy: Attribute? { identity.count == 1 ? attribute(identity[0]) : nil }
    }

    enum Root {
        /// Top-level records are of entity 0.
        case entity
        /// A top-level object maps each key to an array of records of an entity.
        case paths([(key: String, entity: Int)])
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
            entityMembers.append((entity.name, .object(fields)))
        }
        let rootJSON: PropertyJSON
        switch root {
        case .entity: rootJSON = .string(entities[0].name)
        case .paths(let paths): rootJSON = .object(paths.map { ($0.key, .string(entities[$0.entity].name)) })
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
        return .object(fields)
    }
}
