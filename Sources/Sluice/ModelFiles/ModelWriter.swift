/// Writes a `Model` as a model file (`docs/model.md`): pretty JSON in a stable order, with every
/// field that holds its default left out and the shorthand `"name": "type"` where it says
/// everything. `Model.parse` of the text gives the same model back.
///
/// Layout: the document, `root`, the entities and their `attributes`/`relationships` one
/// member per line; each attribute or relationship on one line, as in `docs/model.md`.
enum ModelWriter {
    static func text(of model: Model) -> String {
        var text = ""
        write(document(model), depth: 0, indent: "", into: &text)
        return text + "\n"
    }

    // MARK: The model as JSON values

    static func document(_ model: Model) -> JSONValue {
        var members: [JSONValue.Member] = []
        // A location that is a map is written `{"entity": …, "map": …}` (the top-level one under
        // the empty key path).
        func location(_ path: JSONKeyPath, _ entity: String) -> JSONValue {
            if let map = model.rootMaps[path] {
                return .object([.init("entity", .string(entity)), .init("map", .string(map))])
            }
            if let table = model.rootTable, table.path == path {
                return .object([.init("entity", .string(entity)), .init("header", .string(table.header.text))])
            }
            return .string(entity)
        }
        switch model.root {
        case .entity(let name)? where model.rootMaps[JSONKeyPath([])] != nil || model.rootTable?.path == JSONKeyPath([]):
            members.append(.init("root", .object([.init("", location(JSONKeyPath([]), name))])))
        case .entity(let name)?:
            members.append(.init("root", .string(name)))
        case .paths(let paths)?:
            members.append(.init("root", .object(paths.map { .init($0.path.description, location($0.path, $0.entity)) })))
        case nil:
            break
        }
        members.append(.init("entities", .object(model.entities.map { .init($0.name, entity($0)) })))
        return .object(members)
    }

    private static func entity(_ entity: Model.Entity) -> JSONValue {
        var members: [JSONValue.Member] = []
        if let parent = entity.parent { members.append(.init("parent", .string(parent))) }
        if entity.isAbstract { members.append(.init("abstract", .bool(true))) }
        // A child's rows are in its family's table: it names none.
        if entity.table != entity.name && entity.parent == nil { members.append(.init("table", .string(entity.table))) }
        if !entity.identity.isEmpty { members.append(.init("identity", names(entity.identity))) }
        members.append(.init("attributes", .object(entity.attributes.map { .init($0.name, attribute($0)) })))
        if !entity.relationships.isEmpty {
            members.append(.init("relationships", .object(entity.relationships.map { .init($0.name, relationship($0)) })))
        }
        if let entityBy = entity.entityBy {
            members.append(.init("entityBy", .object([
                .init("key", .string(entityBy.key.description)),
                .init("values", .object(entityBy.values.map { .init($0.value, .string($0.entity)) })),
            ])))
        }
        return .object(members)
    }

    private static func attribute(_ attribute: Model.Attribute) -> JSONValue {
        var members: [JSONValue.Member] = [.init("type", .string(attribute.type.rawValue))]
        if attribute.keys != [JSONKeyPath(parsing: attribute.name)] { members.append(.init("key", keys(attribute.keys))) }
        if attribute.column != attribute.name { members.append(.init("column", .string(attribute.column))) }
        if !attribute.optional { members.append(.init("optional", .bool(false))) }
        if let value = attribute.defaultValue { members.append(.init("default", value)) }
        if attribute.defaultWhenMissing { members.append(.init("defaultWhenMissing", .bool(true))) }
        if let format = attribute.dateFormat { members.append(.init("dateFormat", .string(format))) }
        if let bits = attribute.bits { members.append(.init("bits", .number(String(bits)))) }
        return members.count == 1 ? .string(attribute.type.rawValue) : .object(members)
    }

    private static func relationship(_ relationship: Model.Relationship) -> JSONValue {
        var members: [JSONValue.Member] = [.init("entity", .string(relationship.entity))]
        if relationship.toMany { members.append(.init("toMany", .bool(true))) }
        if relationship.keys != [JSONKeyPath(parsing: relationship.name)] { members.append(.init("key", keys(relationship.keys))) }
        if let relatedBy = relationship.relatedBy { members.append(.init("relatedBy", .string(relatedBy))) }
        if let inverse = relationship.inverse { members.append(.init("inverse", .string(inverse))) }
        if !relationship.toMany, relationship.column != "\(relationship.name)_pk" {
            members.append(.init("column", .string(relationship.column)))
        }
        if let map = relationship.map { members.append(.init("map", .string(map))) }
        if let position = relationship.position { members.append(.init("position", .string(position))) }
        if relationship.ordered { members.append(.init("ordered", .bool(true))) }
        if relationship.merge != .add { members.append(.init("merge", .string(relationship.merge.rawValue))) }
        if relationship.unresolved != .null { members.append(.init("unresolved", .string(relationship.unresolved.rawValue))) }
        if relationship.deleteRule != .nullify { members.append(.init("deleteRule", .string(relationship.deleteRule.rawValue))) }
        return .object(members)
    }

    private static func keys(_ paths: [JSONKeyPath]) -> JSONValue {
        paths.count == 1 ? .string(paths[0].description) : .array(paths.map { .string($0.description) })
    }

    private static func names(_ names: [String]) -> JSONValue {
        names.count == 1 ? .string(names[0]) : .array(names.map(JSONValue.string))
    }

    // MARK: Text

    /// Objects above this depth get one member per line; deeper ones (an attribute's fields)
    /// and all arrays are written on one line.
    private static let inlineDepth = 4

    private static func write(_ value: JSONValue, depth: Int, indent: String, into text: inout String) {
        switch value {
        case .null: text += "null"
        case .bool(let flag): text += flag ? "true" : "false"
        case .number(let digits): text += digits
        case .string(let string): appendQuoted(string, to: &text)
        case .array(let elements):
            text += "["
            for (index, element) in elements.enumerated() {
                if index > 0 { text += ", " }
                write(element, depth: inlineDepth, indent: indent, into: &text)
            }
            text += "]"
        case .object(let members) where members.isEmpty:
            text += "{}"
        case .object(let members) where depth >= inlineDepth:
            text += "{ "
            for (index, member) in members.enumerated() {
                if index > 0 { text += ", " }
                appendQuoted(member.key, to: &text)
                text += ": "
                write(member.value, depth: depth + 1, indent: indent, into: &text)
            }
            text += " }"
        case .object(let members):
            let inner = indent + "  "
            text += "{\n"
            for (index, member) in members.enumerated() {
                text += inner
                appendQuoted(member.key, to: &text)
                text += ": "
                write(member.value, depth: depth + 1, indent: inner, into: &text)
                text += index < members.count - 1 ? ",\n" : "\n"
            }
            text += indent + "}"
        }
    }

    /// A JSON string: quotes, backslashes and control characters escaped, the rest as is.
    static func appendQuoted(_ string: String, to text: inout String) {
        text += "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: text.unicodeScalars.append(scalar)
            }
        }
        text += "\""
    }
}
