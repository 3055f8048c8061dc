/// An inferred entity must fit in one SQLite table (`Model.maxColumns`, with its `pk` and
/// to-one columns): `sluice check` refuses a wider one, so `infer` never proposes it.
extension ModelDesigner {
    /// Narrows each entity too wide for its table: first its flattened objects go back to one
    /// `json` attribute each, then the last keys are left out; a note says which and why.
    mutating func fitColumnLimit() {
        for index in entities.indices where entities[index].isEntity {
            let maxColumns = Model.maxColumns(hasIdentity: !entities[index].identity.isEmpty)
            let toOnes = entities[index].relationships.filter { !$0.toMany }.count
            let room = maxColumns - 1 - toOnes
            let before = entities[index].attributes.count
            guard before > room else { continue }
            let identity = Set(entities[index].identity)
            var names = entities[index].names
            var attributes: [Model.Attribute] = []
            var regrouped: [String] = []
            for attribute in entities[index].attributes {
                let path = attribute.keys.first?.keys ?? []
                guard path.count > 1, !identity.contains(attribute.name) else {
                    attributes.append(attribute)
                    continue
                }
                if !regrouped.contains(path[0]) {
                    regrouped.append(path[0])
                    attributes.append(Model.Attribute(name: names.claim(InferenceNaming.identifier(path[0])), type: .json,
                                                      keys: [JSONKeyPath([path[0]])]))
                }
            }
            var leftOut: [String] = []
            if attributes.count > room {
                // The identity stays; the keys seen last go first.
                var surplus = attributes.count - room
                for position in attributes.indices.reversed() where surplus > 0 && !identity.contains(attributes[position].name) {
                    leftOut.insert(attributes[position].keys.first?.description ?? attributes[position].name, at: 0)
                    attributes.remove(at: position)
                    surplus -= 1
                }
            }
            entities[index].attributes = attributes
            entities[index].names = names
            var text = "\(entities[index].name): \(before) attributes and \(toOnes) to-one relationships would make "
                + "\(before + toOnes + 1) columns, more than the \(maxColumns) "
                + (entities[index].identity.isEmpty ? "SQLite allows in a table" : "a table of an entity with identity may have")
            if !regrouped.isEmpty {
                text += "; \(regrouped.count) \(regrouped.count == 1 ? "object is" : "objects are") kept as json "
                    + "instead of one column per key (\(Self.list(regrouped)))"
            }
            if !leftOut.isEmpty {
                text += "; \(leftOut.count) \(leftOut.count == 1 ? "key is" : "keys are") left out (\(Self.list(leftOut)))"
            }
            note(text)
        }
    }

    /// The first few of `keys`, quoted.
    private static func list(_ keys: [String]) -> String {
        keys.prefix(5).map(ModelProblem.quote).joined(separator: ", ") + (keys.count > 5 ? ", …" : "")
    }
}
