extension Model {
    /// Parses (comments allowed) and validates the bytes of a model file (`docs/model.md`).
    ///
    /// - Throws: `SluiceError` of kind `.usage` when the file is not JSON, with the position of
    ///   the syntax error; `ModelError` listing every problem when it is JSON but not a valid model.
    public static func parse(_ bytes: some Collection<UInt8>, sourceName: String) throws -> Model {
        let value: JSONValue
        do {
            value = try JSONValue.parse(bytes, sourceName: sourceName, allowComments: true)
        } catch {
            // A bad model is a usage error (exit 64), not bad input data.
            var error = error
            error.kind = .usage
            throw error
        }
        return try Model(decoding: value, sourceName: sourceName)
    }

    /// Decodes and validates a model from its JSON tree, reporting every problem at once.
    /// `sourceName` only names the file in the thrown `ModelError`.
    public init(decoding value: JSONValue, sourceName: String = "model") throws(ModelError) {
        var decoder = ModelDecoder()
        let draft = decoder.decodeDocument(value)
        var problems = decoder.problems
        if let draft {
            ModelValidator(draft: draft).validate(into: &problems)
        }
        guard let draft, problems.isEmpty else {
            throw ModelError(source: sourceName, problems: problems.problems)
        }
        self = draft.model
    }
}

// MARK: - Drafts

/// A decoded model that still knows where each part was written, for validation. Parts that
/// could not be decoded hold placeholders; a draft with problems never becomes a `Model`.
struct ModelDraft {
    struct RootEntry {
        var path: JSONKeyPath
        var entity: String
        var location: ModelLocation
        /// `{"entity": …, "map": attribute}`: the location is an object used as a map.
        var map: String?
        var mapLocation: ModelLocation?
        /// `{"entity": …, "header": "first" | KEY}`: the records are rows of a table.
        var header: TabularHeader?
    }

    /// nil: no `root`. `isPaths` tells the object form from the string form.
    var root: (isPaths: Bool, entries: [RootEntry])?
    var entities: [EntityDraft]

    var model: Model {
        let modelRoot: Model.Root? = root.map { root in
            root.isPaths ? .paths(root.entries.map { ($0.path, $0.entity) }) : .entity(root.entries[0].entity)
        }
        var maps: [JSONKeyPath: String] = [:]
        var table: (path: JSONKeyPath, header: TabularHeader)?
        for entry in root?.entries ?? [] {
            if let map = entry.map { maps[entry.path] = map }
            if let header = entry.header { table = (entry.path, header) }
        }
        return Model(root: modelRoot, entities: entities.map(\.entity), rootMaps: maps, rootTable: table)
    }
}

struct EntityDraft {
    var name: String
    var location: ModelLocation
    /// False when the entity was not an object: it exists, but nothing is checked against it.
    var isObject = true
    var table: String
    var tableLocation: ModelLocation
    var identity: [String] = []
    var identityLocation: ModelLocation
    var attributes: [AttributeDraft] = []
    var relationships: [RelationshipDraft] = []
    var parent: String?
    var parentLocation: ModelLocation
    var hasTable = false
    var isAbstract = false
    var entityBy: Model.EntityBy?
    /// Where each `entityBy` value is written, in the order of `entityBy.values`.
    var entityByLocations: [ModelLocation] = []

    var entity: Model.Entity {
        Model.Entity(name: name, table: table, identity: identity,
                     attributes: attributes.map(\.attribute), relationships: relationships.map(\.relationship),
                     parent: parent, isAbstract: isAbstract, entityBy: entityBy)
    }
}

struct AttributeDraft {
    var attribute: Model.Attribute
    var location: ModelLocation
    /// The `column` field, or the attribute when the column is its name.
    var columnLocation: ModelLocation
}

struct RelationshipDraft {
    var relationship: Model.Relationship
    /// False when `entity` is missing or not a string (`relationship.entity` is then empty).
    var hasEntity = false
    var location: ModelLocation
    var entityLocation: ModelLocation
    var relatedByLocation: ModelLocation?
    var inverseLocation: ModelLocation?
    /// The `column` field, or the relationship when the column is derived from its name.
    var columnLocation: ModelLocation
    var mapLocation: ModelLocation?
    var positionLocation: ModelLocation?
    var orderedLocation: ModelLocation?
}

// MARK: - Decoder

/// Walks the model's JSON tree in document order, checking the shape of every field and
/// collecting a problem for each mistake; it never stops at the first.
struct ModelDecoder {
    private(set) var problems = ModelProblemCollector()

    private mutating func report(_ message: String, at location: ModelLocation) {
        problems.report(message, at: location)
    }

    mutating func decodeDocument(_ value: JSONValue) -> ModelDraft? {
        guard let fields = fields(of: value, at: .document, allowed: ["root", "entities"]) else { return nil }
        var draft = ModelDraft(root: nil, entities: [])
        if let root = fields["root"] {
            draft.root = decodeRoot(root.value, at: root.location)
        }
        if let entities = fields["entities"] {
            draft.entities = decodeEntities(entities.value, at: entities.location)
        } else {
            report("missing", at: ModelLocation.document.member("entities", at: .max))
        }
        return draft
    }

    private mutating func decodeRoot(_ value: JSONValue, at location: ModelLocation)
        -> (isPaths: Bool, entries: [ModelDraft.RootEntry])?
    {
        switch value {
        case .string(let name):
            return (false, [.init(path: JSONKeyPath([]), entity: name, location: location)])
        case .object(let members):
            var entries: [ModelDraft.RootEntry] = []
            for member in uniqueMembers(members, at: location) {
                if case .object = member.value {
                    // `{"entity": "User", "map": "userID"}`; the empty key path is the top-level value.
                    let path = member.key.isEmpty ? JSONKeyPath([]) : keyPath(member.key, at: member.location)
                    guard let path, let fields = fields(of: member.value, at: member.location, allowed: ["entity", "map", "header"])
                    else { continue }
                    guard let entityField = fields["entity"] else {
                        report("missing", at: member.location.member("entity", at: .max))
                        continue
                    }
                    guard let name = string(entityField.value, at: entityField.location, expected: "expected an entity name")
                    else { continue }
                    var entry = ModelDraft.RootEntry(path: path, entity: name, location: entityField.location)
                    if let mapField = fields["map"] {
                        entry.map = string(mapField.value, at: mapField.location, expected: "expected an attribute name")
                        entry.mapLocation = mapField.location
                    }
                    if let headerField = fields["header"],
                       let text = string(headerField.value, at: headerField.location, expected: "expected \"first\" or a key") {
                        if entries.contains(where: { $0.header != nil }) {
                            report("only one location can be a table", at: headerField.location)
                        } else if text.isEmpty || text.contains(".") {
                            report("expected \"first\" or a key of the object holding the records", at: headerField.location)
                        } else if entry.map != nil {
                            report("a location is a map or a table, not both", at: headerField.location)
                        } else if text != "first", path.keys.isEmpty {
                            report("a header under a key needs records under a key (the top-level value has no siblings)",
                                   at: headerField.location)
                        } else {
                            entry.header = TabularHeader(text)
                        }
                    }
                    entries.append(entry)
                    continue
                }
                guard let path = keyPath(member.key, at: member.location),
                      let name = string(member.value, at: member.location, expected: "expected an entity name or an object")
                else { continue }
                entries.append(.init(path: path, entity: name, location: member.location))
            }
            if members.isEmpty {
                report("expected at least one key path", at: location)
            }
            return entries.isEmpty ? nil : (true, entries)
        default:
            report("expected an entity name or an object", at: location)
            return nil
        }
    }

    private mutating func decodeEntities(_ value: JSONValue, at location: ModelLocation) -> [EntityDraft] {
        guard case .object(let members) = value else {
            report("expected an object", at: location)
            return []
        }
        if members.isEmpty {
            report("expected at least one entity", at: location)
        }
        return uniqueMembers(members, at: location).map { decodeEntity(named: $0.key, $0.value, at: $0.location) }
    }

    private mutating func decodeEntity(named name: String, _ value: JSONValue, at location: ModelLocation)
        -> EntityDraft
    {
        var draft = EntityDraft(name: name, location: location, table: name, tableLocation: location,
                                identityLocation: location, parentLocation: location)
        if name.isEmpty {
            report("an entity name must not be empty", at: location)
        } else if name.utf8.contains(0) {
            report("an entity name must not contain U+0000: SQL names end at it", at: location)
        }
        guard let fields = fields(of: value, at: location,
                                  allowed: ["table", "identity", "attributes", "relationships",
                                            "parent", "abstract", "entityBy"])
        else {
            draft.isObject = false
            return draft
        }
        if let table = fields["table"], let text = identifier(table.value, at: table.location) {
            draft.table = text
            draft.tableLocation = table.location
            draft.hasTable = true
        }
        if let parent = fields["parent"] {
            draft.parentLocation = parent.location
            draft.parent = string(parent.value, at: parent.location, expected: "expected an entity name")
        }
        if let abstract = fields["abstract"], let flag = bool(abstract.value, at: abstract.location) {
            draft.isAbstract = flag
        }
        if let entityBy = fields["entityBy"] {
            decodeEntityBy(entityBy.value, at: entityBy.location, into: &draft)
        }
        if let identity = fields["identity"] {
            draft.identityLocation = identity.location
            draft.identity = names(identity.value, at: identity.location) ?? []
        }
        if let attributes = fields["attributes"], let members = object(attributes.value, at: attributes.location) {
            draft.attributes = uniqueMembers(members, at: attributes.location).map {
                decodeAttribute(named: $0.key, $0.value, at: $0.location)
            }
        }
        if let relationships = fields["relationships"],
           let members = object(relationships.value, at: relationships.location)
        {
            draft.relationships = uniqueMembers(members, at: relationships.location).map {
                decodeRelationship(named: $0.key, $0.value, at: $0.location)
            }
        }
        return draft
    }

    /// `"entityBy": {"key": "type", "values": {"bus": "BusStop"}}`.
    private mutating func decodeEntityBy(_ value: JSONValue, at location: ModelLocation, into draft: inout EntityDraft) {
        guard let fields = fields(of: value, at: location, allowed: ["key", "values"]) else { return }
        var key: JSONKeyPath?
        if let field = fields["key"] {
            if let text = string(field.value, at: field.location) { key = keyPath(text, at: field.location) }
        } else {
            report("missing", at: location.member("key", at: .max))
        }
        var choices: [Model.EntityBy.Choice] = []
        if let field = fields["values"] {
            if let members = object(field.value, at: field.location) {
                if members.isEmpty { report("expected at least one value", at: field.location) }
                for member in uniqueMembers(members, at: field.location) {
                    guard let entity = string(member.value, at: member.location, expected: "expected an entity name")
                    else { continue }
                    choices.append(.init(value: member.key, entity: entity))
                    draft.entityByLocations.append(member.location)
                }
            }
        } else {
            report("missing", at: location.member("values", at: .max))
        }
        if let key {
            draft.entityBy = Model.EntityBy(key: key, values: choices)
        }
    }

    private mutating func decodeAttribute(named name: String, _ value: JSONValue, at location: ModelLocation)
        -> AttributeDraft
    {
        // The placeholder type is never seen: an attribute without a valid type is a problem.
        var attribute = Model.Attribute(name: name, type: .json)
        var draft = AttributeDraft(attribute: attribute, location: location, columnLocation: location)
        if name.isEmpty {
            report("an attribute name must not be empty", at: location)
        } else if name.utf8.contains(0) {
            report("an attribute name must not contain U+0000: SQL names end at it", at: location)
        }
        switch value {
        case .string(let typeName):
            // Shorthand: the type only.
            if let type = attributeType(typeName, at: location) { attribute.type = type }
        case .object:
            guard let fields = fields(of: value, at: location, allowed: [
                "type", "key", "column", "optional", "default", "defaultWhenMissing", "dateFormat", "bits",
            ]) else { break }
            var type: AttributeType?
            if let field = fields["type"] {
                if let typeName = string(field.value, at: field.location) {
                    type = attributeType(typeName, at: field.location)
                }
            } else {
                report("missing", at: location.member("type", at: .max))
            }
            attribute.type = type ?? .json
            if let field = fields["key"], let keys = keyPaths(field.value, at: field.location) {
                attribute.keys = keys
            }
            if let field = fields["column"], let column = identifier(field.value, at: field.location) {
                attribute.column = column
                draft.columnLocation = field.location
            }
            if let field = fields["optional"], let flag = bool(field.value, at: field.location) {
                attribute.optional = flag
            }
            if let field = fields["default"] {
                attribute.defaultValue = field.value
            }
            if let field = fields["defaultWhenMissing"], let flag = bool(field.value, at: field.location) {
                attribute.defaultWhenMissing = flag
            }
            if let field = fields["dateFormat"], let format = string(field.value, at: field.location) {
                attribute.dateFormat = format
                if let type, type != .date {
                    report("only date attributes take a dateFormat", at: field.location)
                }
            }
            if let field = fields["bits"] {
                if case .number(let text) = field.value, let bits = Int(text), Model.Attribute.integerWidths.contains(bits) {
                    attribute.bits = bits
                    if let type, type != .integer {
                        report("only integer attributes take bits", at: field.location)
                    }
                } else {
                    report("expected 16, 32 or 64", at: field.location)
                }
            }
        default:
            report("expected a type name or an object", at: location)
        }
        draft.attribute = attribute
        return draft
    }

    private mutating func decodeRelationship(named name: String, _ value: JSONValue, at location: ModelLocation)
        -> RelationshipDraft
    {
        var relationship = Model.Relationship(name: name, entity: "")
        var draft = RelationshipDraft(relationship: relationship, location: location, entityLocation: location,
                                      columnLocation: location)
        if name.isEmpty {
            report("a relationship name must not be empty", at: location)
        } else if name.utf8.contains(0) {
            report("a relationship name must not contain U+0000: SQL names end at it", at: location)
        }
        guard let fields = fields(of: value, at: location, allowed: [
            "entity", "toMany", "key", "relatedBy", "inverse", "column", "merge", "unresolved", "map", "position",
            "ordered", "deleteRule",
        ]) else { return draft }
        if let field = fields["entity"] {
            draft.entityLocation = field.location
            if let entity = string(field.value, at: field.location, expected: "expected an entity name") {
                relationship.entity = entity
                draft.hasEntity = true
            }
        } else {
            report("missing", at: location.member("entity", at: .max))
        }
        if let field = fields["toMany"], let flag = bool(field.value, at: field.location) {
            relationship.toMany = flag
        }
        if let field = fields["key"], let keys = keyPaths(field.value, at: field.location) {
            relationship.keys = keys
        }
        // The destination's properties it names, checked once every entity is decoded.
        let attribute = "expected an attribute name"
        decodeName(fields["relatedBy"], expected: attribute, into: &relationship.relatedBy, at: &draft.relatedByLocation)
        decodeName(fields["map"], expected: attribute, into: &relationship.map, at: &draft.mapLocation)
        decodeName(fields["position"], expected: attribute, into: &relationship.position, at: &draft.positionLocation)
        decodeName(fields["inverse"], expected: "expected a relationship name", into: &relationship.inverse,
                   at: &draft.inverseLocation)
        if let field = fields["column"] {
            if relationship.toMany {
                report("only to-one relationships take a column", at: field.location)
            } else if let column = identifier(field.value, at: field.location) {
                relationship.column = column
                draft.columnLocation = field.location
            }
        }
        if let field = fields["merge"], let text = string(field.value, at: field.location) {
            if let policy: Model.MergePolicy = namedPolicy(text, kind: "merge", expected: "add or replace", at: field.location) {
                relationship.merge = policy
            }
            if !relationship.toMany {
                report("only to-many relationships take a merge policy", at: field.location)
            }
        }
        if let field = fields["ordered"], let flag = bool(field.value, at: field.location) {
            relationship.ordered = flag
            draft.orderedLocation = field.location
            if flag && !relationship.toMany {
                report("only a to-many relationship can be ordered (a to-one has one target)", at: field.location)
            }
        }
        if let field = fields["unresolved"], let text = string(field.value, at: field.location) {
            if let policy: Model.UnresolvedPolicy = namedPolicy(text, kind: "unresolved", expected: "null, stub or fail",
                                                                at: field.location) {
                relationship.unresolved = policy
            }
        }
        if let field = fields["deleteRule"], let text = string(field.value, at: field.location) {
            if let rule: Model.DeleteRule = namedPolicy(text, kind: "deleteRule", expected: "nullify, cascade, deny or noAction",
                                                        at: field.location) {
                relationship.deleteRule = rule
            }
        }
        draft.relationship = relationship
        return draft
    }

    // MARK: Fields and values

    private struct Field {
        var value: JSONValue
        var location: ModelLocation
    }

    /// The members of an object in order, each key once: a repeated key is a problem, and its
    /// later occurrences are not decoded.
    private mutating func uniqueMembers(_ members: [JSONValue.Member], at location: ModelLocation)
        -> [(key: String, value: JSONValue, location: ModelLocation)]
    {
        var seen: Set<String> = []
        var result: [(key: String, value: JSONValue, location: ModelLocation)] = []
        for (index, member) in members.enumerated() {
            guard seen.insert(member.key).inserted else {
                report("duplicate field \(ModelProblem.quote(member.key))", at: location.inside(at: index))
                continue
            }
            result.append((member.key, member.value, location.member(member.key, at: index)))
        }
        return result
    }

    /// The fields of an object by name; unknown fields and repeated ones are problems. nil (and
    /// a problem) when the value is not an object.
    private mutating func fields(of value: JSONValue, at location: ModelLocation, allowed: Set<String>)
        -> [String: Field]?
    {
        guard let members = object(value, at: location) else { return nil }
        var fields: [String: Field] = [:]
        for member in uniqueMembers(members, at: location) {
            if allowed.contains(member.key) {
                fields[member.key] = Field(value: member.value, location: member.location)
            } else {
                report("unknown field" + NameSuggestion.didYouMean(member.key, among: allowed), at: member.location)
            }
        }
        return fields
    }

    private mutating func object(_ value: JSONValue, at location: ModelLocation) -> [JSONValue.Member]? {
        guard case .object(let members) = value else {
            report("expected an object", at: location)
            return nil
        }
        return members
    }

    private mutating func string(_ value: JSONValue, at location: ModelLocation,
                                 expected: String = "expected a string") -> String?
    {
        guard case .string(let text) = value else {
            report(expected, at: location)
            return nil
        }
        return text
    }

    /// A field naming a property of another entity: its text into `name`, and where it was
    /// written into `location`, for the checks made once every entity is decoded.
    private mutating func decodeName(_ field: Field?, expected: String, into name: inout String?,
                                     at location: inout ModelLocation?) {
        guard let field else { return }
        location = field.location
        name = string(field.value, at: field.location, expected: expected)
    }

    /// A table or column name: a non-empty string.
    private mutating func identifier(_ value: JSONValue, at location: ModelLocation) -> String? {
        guard let text = string(value, at: location) else { return nil }
        guard !text.isEmpty else {
            report("must not be empty", at: location)
            return nil
        }
        guard !text.utf8.contains(0) else {
            report("must not contain U+0000: SQL names end at it", at: location)
            return nil
        }
        return text
    }

    private mutating func bool(_ value: JSONValue, at location: ModelLocation) -> Bool? {
        guard case .bool(let flag) = value else {
            report("expected a boolean", at: location)
            return nil
        }
        return flag
    }

    /// The policy `text` names; nil, and a problem listing the `expected` names, when it names none.
    private mutating func namedPolicy<Policy: RawRepresentable<String>>(_ text: String, kind: String, expected: String,
                                                                   at location: ModelLocation) -> Policy? {
        guard let policy = Policy(rawValue: text) else {
            report("unknown \(kind) policy \(ModelProblem.quote(text)) (expected \(expected))", at: location)
            return nil
        }
        return policy
    }

    private mutating func attributeType(_ name: String, at location: ModelLocation) -> AttributeType? {
        guard let type = AttributeType(rawValue: name) else {
            report("unknown type \(ModelProblem.quote(name))", at: location)
            return nil
        }
        return type
    }

    /// A dotted key path; empty keys (`a..b`, a trailing dot, an empty string) are problems.
    private mutating func keyPath(_ text: String, at location: ModelLocation) -> JSONKeyPath? {
        let path = JSONKeyPath(parsing: text)
        guard !path.keys.isEmpty, !path.keys.contains(where: \.isEmpty) else {
            report("\(ModelProblem.quote(text)) is not a valid key path", at: location)
            return nil
        }
        return path
    }

    /// `key`: one key path, or fallback key paths in order.
    private mutating func keyPaths(_ value: JSONValue, at location: ModelLocation) -> [JSONKeyPath]? {
        guard let texts = strings(value, at: location, expected: "expected a string or an array of strings",
                                  empty: "expected at least one key path")
        else { return nil }
        var paths: [JSONKeyPath] = []
        for text in texts {
            guard let path = keyPath(text, at: location) else { return nil }
            paths.append(path)
        }
        return paths
    }

    /// `identity`: one attribute name or a list of them, each once.
    private mutating func names(_ value: JSONValue, at location: ModelLocation) -> [String]? {
        guard let names = strings(value, at: location,
                                  expected: "expected an attribute name or an array of attribute names",
                                  empty: "expected at least one attribute name")
        else { return nil }
        var seen: Set<String> = []
        for name in names where !seen.insert(name).inserted {
            report("\(ModelProblem.quote(name)) is listed twice", at: location)
        }
        return names
    }

    /// A string or a non-empty array of strings.
    private mutating func strings(_ value: JSONValue, at location: ModelLocation, expected: String,
                                  empty: String) -> [String]?
    {
        switch value {
        case .string(let text):
            return [text]
        case .array(let elements):
            var texts: [String] = []
            for element in elements {
                guard case .string(let text) = element else {
                    report(expected, at: location)
                    return nil
                }
                texts.append(text)
            }
            guard !texts.isEmpty else {
                report(empty, at: location)
                return nil
            }
            return texts
        default:
            report(expected, at: location)
            return nil
        }
    }
}
