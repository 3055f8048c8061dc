/// The import keys a Core Data model cannot carry when it is not the app's `.xcdatamodeld`: a
/// store's own model (`Z_MODELCACHE`: a SwiftData app's, whose `@Model` classes have no
/// userInfo) or a compiled one. `--mapping FILE` gives them as the userInfo entries
/// MagicalRecord reads from a model (`docs/coming-from-magicalrecord.md`), per entity, so that
/// they mean exactly what they mean there and nothing new is to learn or to document twice:
///
/// ```json
/// { "Item": { "relatedByAttribute": "name",
///             "attributes": { "name": { "mappedKeyName": "title" } },
///             "relationships": { "recipe": { "mappedKeyName": "recipeName", "relatedByAttribute": "name" } } } }
/// ```
///
/// An entry replaces the model's own entry of that key. Every name must be the model's and
/// every value a string: a mistake is a usage error naming its place, never skipped.
enum CoreDataMapping {
    static func apply(_ bytes: [UInt8], sourceName: String, to model: inout CoreDataModel) throws(SluiceError) {
        func fail(_ path: String, _ message: String) -> SluiceError {
            SluiceError(.usage, "\(sourceName): \(path): \(message)")
        }
        guard case .object(let entities) = try JSONValue.parse(bytes, sourceName: sourceName, allowComments: true) else {
            throw fail("(document)", "a mapping is an object of entities")
        }
        for member in entities {
            guard let index = model.entities.firstIndex(where: { $0.name == member.key }) else {
                throw fail(member.key, "the model has no entity \(ModelProblem.quote(member.key))")
            }
            guard case .object(let keys) = member.value else { throw fail(member.key, "an entity's mapping is an object") }
            var entity = model.entities[index]
            for key in keys {
                let path = member.key + "." + key.key
                switch key.key {
                case "attributes", "relationships":
                    guard case .object(let properties) = key.value else { throw fail(path, "an object of properties") }
                    for property in properties {
                        let place = path + "." + property.key
                        let entries = try Self.entries(property.value, path: place, fail: fail)
                        if key.key == "attributes", let at = entity.attributes.firstIndex(where: { $0.name == property.key }) {
                            Self.merge(entries, into: &entity.attributes[at].userInfo, at: entity.attributes[at].location)
                        } else if key.key == "relationships", let at = entity.relationships.firstIndex(where: { $0.name == property.key }) {
                            Self.merge(entries, into: &entity.relationships[at].userInfo, at: entity.relationships[at].location)
                        } else {
                            throw fail(place, "\(member.key) has no \(key.key == "attributes" ? "attribute" : "relationship") "
                                        + ModelProblem.quote(property.key))
                        }
                    }
                default:
                    Self.merge(try Self.entries(.object([key]), path: member.key, fail: fail), into: &entity.userInfo, at: entity.location)
                }
            }
            model.entities[index] = entity
        }
    }

    /// The string members of a property's (or an entity's) mapping.
    private static func entries(_ value: JSONValue, path: String, fail: (String, String) -> SluiceError)
        throws(SluiceError) -> [(key: String, value: String)] {
        guard case .object(let members) = value else { throw fail(path, "a property's mapping is an object of userInfo keys") }
        var entries: [(key: String, value: String)] = []
        for member in members {
            guard case .string(let text) = member.value else { throw fail(path + "." + member.key, "the value is a string") }
            entries.append((member.key, text))
        }
        return entries
    }

    private static func merge(_ entries: [(key: String, value: String)], into userInfo: inout [CoreDataModel.UserInfoEntry],
                              at location: ModelLocation) {
        for (key, value) in entries {
            userInfo.removeAll { $0.key == key }
            userInfo.append(.init(key: key, value: value, location: location.member("userInfo", at: 1).member(key, at: userInfo.count)))
        }
    }
}
