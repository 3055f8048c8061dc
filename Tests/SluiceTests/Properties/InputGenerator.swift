// The fuzz target compiles this file with PropertyRandom in its own module (Fuzz/README.md).
#if canImport(SluiceTestSupport)
import SluiceTestSupport
#endif

/// Random input for a generated model: valid records and records with missing keys, nulls,
/// values of the wrong kind, numbers as strings, repeated identities, ids of records that come
/// later or never, Unicode (astral too, raw or escaped), nested records, empty objects, deep
/// unmapped values and things that are not records at all; a location of `root` holding one
/// record instead of an array, maps and tables as the model says. Each top-level record is written
/// on a line of its own, so the oracle knows the line the rejects file names.
struct InputGenerator {
    let model: PropertyModel
    let maximumDepth = 3

    struct Input {
        var text: String
        var records: [Oracle.TopLevelRecord]
    }

    func input(_ random: inout PropertyRandom) -> Input {
        switch model.root {
        case .entity:
            let values = (0..<random.int(0...8)).map { _ in topLevel(entity: 0, &random) }
            let style = values.count == 1 && random.chance(30) ? 2 : random.below(2)
            var lines: [String] = []
            var records: [Oracle.TopLevelRecord] = []
            for value in values {
                records.append(Oracle.TopLevelRecord(value: value, entity: 0, line: lines.count + (style == 0 ? 2 : 1)))
                lines.append(render(value, &random))
            }
            switch style {
            case 0: return Input(text: "[\n" + lines.joined(separator: ",\n") + "\n]\n", records: records)
            default: return Input(text: lines.joined(separator: "\n") + (random.chance(50) ? "\n" : ""), records: records)
            }
        case .table(let header):
            // The header names every key a record's first level may hold; rows take the
            // header's names as keys, and a short row lacks the last ones.
            var names: [String] = []
            let entity = model.entities[0]
            let keys = entity.attributes.flatMap(\.lookupKeys) + entity.relationships.filter { !$0.isInverseSide }.map(\.lookupKey)
            for key in keys + ["loc", "zz"] {
                let first = String(key.split(separator: ".", omittingEmptySubsequences: false)[0])
                if !names.contains(first), random.chance(90) { names.append(first) }
            }
            for index in names.indices.reversed() { names.swapAt(index, random.below(index + 1)) }
            var rows: [String] = []
            var records: [Oracle.TopLevelRecord] = []
            let style = header == "first" ? random.below(2) : 2
            let firstLine = [3, 2, 3][style]
            for index in 0..<random.int(0...6) {
                let record = record(entity: 0, depth: 0, &random)
                var row = names.map { record.member($0) ?? .null }
                if random.chance(20) { row.removeLast(random.int(0...row.count)) }
                records.append(Oracle.TopLevelRecord(value: .object(Array(zip(names, row))), entity: 0, line: firstLine + index))
                rows.append(render(.array(row), &random))
            }
            let headerText = render(.array(names.map { .string($0) }), &random)
            switch style {
            case 0: return Input(text: "[\n" + ([headerText] + rows).joined(separator: ",\n") + "\n]\n", records: records)
            case 1: return Input(text: ([headerText] + rows).joined(separator: "\n") + "\n", records: records)
            default:
                return Input(text: "{\"columns\": " + headerText + ",\n\"data\": [\n" + rows.joined(separator: ",\n") + "\n]}\n",
                             records: records)
            }
        case .paths(let paths) where paths.count == 1 && paths[0].key == "":
            // The top-level object is the map.
            var text = "{\n"
            var records: [Oracle.TopLevelRecord] = []
            let count = random.int(0...6)
            for index in 0..<count {
                let (name, value) = mapMember(entity: paths[0].entity, map: paths[0].map!, &random)
                if value != .null {
                    records.append(Oracle.TopLevelRecord(value: value, entity: paths[0].entity, line: index + 2, mapped: .init(attribute: paths[0].map!, name: name)))
                }
                text += render(.string(name), &random) + ": " + render(value, &random) + (index < count - 1 ? ",\n" : "\n")
            }
            return Input(text: text + "}\n", records: records)
        case .paths(let paths):
            var text = "{\n"
            var line = 2
            var records: [Oracle.TopLevelRecord] = []
            for (number, path) in paths.enumerated() {
                let separator = number < paths.count - 1 ? ",\n" : "\n"
                if path.map == nil, random.chance(15) {
                    // One record instead of an array of them.
                    let value = record(entity: path.entity, depth: 0, &random)
                    records.append(Oracle.TopLevelRecord(value: value, entity: path.entity, line: line))
                    text += "\"\(path.key)\": " + render(value, &random) + separator
                    line += 1
                    continue
                }
                text += "\"\(path.key)\": " + (path.map == nil ? "[" : "{") + "\n"
                line += 1
                let count = random.int(0...5)
                for index in 0..<count {
                    let separator = index < count - 1 ? ",\n" : "\n"
                    if let map = path.map {
                        let (name, value) = mapMember(entity: path.entity, map: map, &random)
                        if value != .null {
                            records.append(Oracle.TopLevelRecord(value: value, entity: path.entity, line: line, mapped: .init(attribute: map, name: name)))
                        }
                        text += render(.string(name), &random) + ": " + render(value, &random) + separator
                    } else {
                        let value = topLevel(entity: path.entity, &random)
                        records.append(Oracle.TopLevelRecord(value: value, entity: path.entity, line: line))
                        text += render(value, &random) + separator
                    }
                    line += 1
                }
                text += (path.map == nil ? "]" : "}") + (number < paths.count - 1 ? ",\n" : "\n")
                line += 1
            }
            return Input(text: text + "}\n", records: records)
        }
    }

    private func render(_ value: PropertyJSON, _ random: inout PropertyRandom) -> String {
        var out = ""
        value.write(to: &out, escapeNonASCII: random.chance(30), spaced: random.chance(50))
        return out
    }

    /// A member of an object used as a map: a name for the attribute `map` (few, so names
    /// repeat; some do not convert) and a record, sometimes `null` (skipped) or not a record.
    private func mapMember(entity: Int, map: String, depth: Int = 0, _ random: inout PropertyRandom) -> (String, PropertyJSON) {
        let type = model.entities[entity].attribute(map)!.type
        let name: String
        switch identityValue(type, &random) {
        case .string(let text), .number(let text): name = text
        default: name = "?"
        }
        if random.chance(8) { return (name, .null) }
        if random.chance(3) { return (name, random.pick([.number("42"), .string("not a record"), .array([])])) }
        return (name, record(entity: entity, depth: depth, &random))
    }

    private func topLevel(entity: Int, _ random: inout PropertyRandom) -> PropertyJSON {
        if random.chance(3) { return random.pick([.number("42"), .string("not a record"), .bool(true)]) }
        return record(entity: entity, depth: 0, &random)
    }

    /// Identity values: few, so records repeat each other; integers also as strings and `3.0`.
    private func identityValue(_ type: PropertyModel.AttributeType, _ random: inout PropertyRandom) -> PropertyJSON {
        if type == .integer {
            return random.pick([.number("1"), .number("2"), .string("2"), .number("3.0"), .number("4"), .string("x")])
        }
        return random.pick([.string("a"), .string("b"), .string("é😀"), .number("5"), .string("")])
    }

    func record(entity index: Int, depth: Int, _ random: inout PropertyRandom) -> PropertyJSON {
        let entity = model.entities[index]
        var members: [(String, PropertyJSON)] = []
        if random.chance(5) { members.append(("loc", .string("not an object"))) }
        for attribute in entity.attributes {
            let roll = random.below(100)
            if roll < 15 { continue }
            let value: PropertyJSON
            if roll < 22 {
                value = .null
            } else if entity.identity.contains(attribute.name) {
                value = identityValue(attribute.type, &random)
            } else {
                value = PropertyValues.value(for: attribute, valid: roll >= 27, &random)
            }
            let keys = attribute.lookupKeys
            insert(value, at: random.pick(keys), into: &members)
            if keys.count > 1, random.chance(15) {
                insert(PropertyValues.value(for: attribute, valid: true, &random), at: random.pick(keys), into: &members)
            }
        }
        if !entity.children.isEmpty {
            // The kind: a child's value (as a string or a number), one no child has, or none.
            if random.chance(75) {
                members.append((PropertyModel.Entity.kindKey,
                                random.pick([.number("1"), .string("1"), .string("b"), .string("b"), .string("zz"), .null])))
            }
            for attribute in entity.children.flatMap(\.attributes) where random.chance(60) {
                insert(PropertyValues.value(for: attribute, valid: random.chance(90), &random), at: random.pick(attribute.lookupKeys), into: &members)
            }
        }
        for relationship in entity.relationships where !relationship.isInverseSide {
            if let value = relationshipValue(relationship, depth: depth, &random) {
                members.append((relationship.lookupKey, value))
            }
        }
        if random.chance(15) { members.append(("zz", unmapped(&random))) }
        // Any order: an identity may come after the records nested in it.
        for index in members.indices.reversed() {
            members.swapAt(index, random.below(index + 1))
        }
        return .object(members)
    }

    private func relationshipValue(_ relationship: PropertyModel.Relationship, depth: Int,
                                   _ random: inout PropertyRandom) -> PropertyJSON?
    {
        let target = model.entities[relationship.target]
        let byID = relationship.inverse == nil && target.relatedBy != nil
        func one() -> PropertyJSON {
            if byID, depth >= maximumDepth || random.chance(40) {
                return identityValue(target.relatedBy!.type, &random)
            }
            if depth >= maximumDepth { return .object([]) }
            return record(entity: relationship.target, depth: depth + 1, &random)
        }
        switch random.below(10) {
        case 0, 1, 2: return nil
        case 3: return .null
        default:
            if let map = relationship.map {
                if depth >= maximumDepth { return .object([]) }
                return .object((0..<random.int(0...3)).map { _ in
                    mapMember(entity: relationship.target, map: map, depth: depth + 1, &random)
                })
            }
            guard relationship.toMany else { return one() }
            if random.chance(15) { return one() }
            return .array((0..<random.int(0...3)).map { _ in random.chance(10) ? .null : one() })
        }
    }

    /// A value no attribute maps: nested deep, or text of every kind.
    private func unmapped(_ random: inout PropertyRandom) -> PropertyJSON {
        if random.chance(30) {
            var value = PropertyJSON.string("bottom 😀")
            for level in 0..<random.int(20...200) {
                value = level % 2 == 0 ? .array([value]) : .object([("d", value)])
            }
            return value
        }
        return .object([("t", .string(random.pick(PropertyValues.texts))), ("n", .number(random.pick(PropertyValues.numbers)))])
    }

    /// Puts `value` at a dotted key path, unless the path is already taken.
    private func insert(_ value: PropertyJSON, at path: String, into members: inout [(String, PropertyJSON)]) {
        let parts = path.split(separator: ".", maxSplits: 1).map(String.init)
        guard let existing = members.firstIndex(where: { $0.0 == parts[0] }) else {
            if parts.count == 1 {
                members.append((parts[0], value))
            } else {
                var inner: [(String, PropertyJSON)] = []
                insert(value, at: parts[1], into: &inner)
                members.append((parts[0], .object(inner)))
            }
            return
        }
        guard parts.count == 2, case .object(var inner) = members[existing].1 else { return }
        insert(value, at: parts[1], into: &inner)
        members[existing].1 = .object(inner)
    }
}
