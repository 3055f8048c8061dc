/// The notes of an import with a model (`ImportReport.notes`, `docs/import-semantics.md`):
/// results that are legal but most likely not what was meant, each with its likely fix.
///
/// * an input that held no record at all (the model's `root` expects an envelope, the input
///   is a bare array, or the other way round);
/// * an entity none of whose records held any of its keys (an envelope read as one record);
/// * an attribute none of whose keys any record held (a typo in `key`), with the nearest key
///   the records did hold;
/// * the same for an identity attribute, whose records are then inserted again on every import.
///
/// Gathered after each input from the stream's `KeyMatcher` and the first bytes of the input,
/// never per record.
struct ImportNotes {
    let plan: MappingPlan
    let model: Model
    let options: ImportOptions
    private var sightings: KeySightings
    private var notes: [String] = []
    /// The shape of the first input that held records, for the hint of an entity without keys.
    private var firstShape: InputShape?

    init(plan: MappingPlan, model: Model, options: ImportOptions) {
        self.plan = plan
        self.model = model
        self.options = options
        sightings = KeySightings(keyCount: plan.keyCount)
    }

    /// What one input showed: `records` read from it, its first bytes (`InputShape.headLimit`).
    /// `head`: the input's first bytes when it is JSON (nil for CSV, whose shape is rows).
    mutating func input(named name: String, records: Int, keys: borrowing KeyMatcher, head: [UInt8]?) {
        sightings.add(keys)
        guard let head else { return }
        let shape = InputShape.sniff(head)
        if firstShape == nil { firstShape = shape }
        if records == 0, let note = noRecordNote(input: name, shape: shape, head: head) { notes.append(note) }
    }

    /// Every note, given each storage entity's counts.
    func notes(counts: [ImportReport.EntityCounts]) -> [String] {
        var result = notes
        let firstKeys = plan.firstKeyIndexes
        let filledOtherwiseByShape = attributesFilledOtherwise()
        for (index, entity) in plan.entities.enumerated() where index < counts.count && counts[index].records > 0 {
            // A family's members read keys of their own, which another member's records lack.
            guard let declared = model.entity(named: entity.name), declared.parent == nil,
                  !model.hasDescendants(entity.name) else { continue }
            let shape = plan.shapes[index]
            let records = counts[index].records
            let all = plan.keyIndexes(below: shape.rootNode, firstKeyIndexes: firstKeys)
            guard !all.isEmpty else { continue }
            let filledOtherwise = filledOtherwiseByShape[index] ?? []
            // Records that take a map member's name or a place hold that value at least.
            if filledOtherwise.isEmpty, !all.contains(where: { sightings.seen[$0] }) {
                result.append(noKeysNote(entity: index, records: records, declared: declared))
                continue
            }
            if options.keyNotes == .unmappedKeys {
                if let held = sightings.unmapped[shape.rootNode], !held.isEmpty {
                    result.append(unmappedKeysNote(entity.name, keys: held, records: records))
                }
                continue
            }
            for (attributeIndex, attribute) in declared.attributes.enumerated()
            where !attribute.keys.isEmpty && !filledOtherwise.contains(attribute.name) {
                let walks = attribute.keys.map { walk($0, from: shape.rootNode, firstKeys: firstKeys) }
                guard !walks.contains(where: \.seen) else { continue }
                let keys = attribute.keys.map { ModelProblem.quote($0.description) }.joined(separator: ", ")
                let suggestion = walks.lazy.compactMap(\.suggestion).first.map { "; did you mean \(ModelProblem.quote($0))?" } ?? ""
                let what = attribute.keys.count == 1 ? "key \(keys)" : "keys \(keys)"
                let counted = Self.records(records, of: entity.name)
                // A default used when the key is missing completes the identity all the same.
                if shape.identity.contains(attributeIndex), attribute.defaultValue == nil || !attribute.defaultWhenMissing {
                    result.append("\(entity.name).\(attribute.name): the identity's \(what) is in none of the \(counted), "
                        + "so each was inserted as a new row, and a re-import inserts it again\(suggestion)")
                } else {
                    result.append("\(entity.name).\(attribute.name): \(what) is in none of the \(counted)\(suggestion)")
                }
            }
        }
        return result
    }

    /// Keys the records held that the model does not know (`ImportOptions.KeyNotes.unmappedKeys`):
    /// a sample (`KeyMatcher.unmappedSampleLimit` keys an input), sorted.
    private func unmappedKeysNote(_ entity: String, keys: Set<String>, records: Int) -> String {
        let sorted = keys.sorted()
        let shown = sorted.prefix(NameSuggestion.listLimit).map(ModelProblem.quote).joined(separator: ", ")
        let more = sorted.count > NameSuggestion.listLimit ? " and \(sorted.count - NameSuggestion.listLimit) more" : ""
        return "\(entity): the \(Self.records(records, of: entity)) held \(sorted.count == 1 ? "a key" : "keys") the model does not know, "
            + "not imported: \(shown)\(more); to keep \(sorted.count == 1 ? "it" : "them"), add attributes to a copy of the model"
    }

    /// `1 Stop record`, `12 Stop records`.
    private static func records(_ count: Int, of entity: String) -> String {
        "\(count) \(entity) \(count == 1 ? "record" : "records")"
    }

    /// Attributes of each shape that take a value without a key of their own: a map member's
    /// name, a place in an array (a relationship's `map` and `position`, a location's map).
    /// For all shapes in one pass over the plan: a model may have thousands (a feed's files).
    private func attributesFilledOtherwise() -> [Int: Set<String>] {
        var names: [Int: Set<String>] = [:]
        for location in plan.locationNodes {
            if let shape = location.entity, let map = location.mapAttribute {
                names[shape, default: []].insert(plan.shapes[shape].attributes[map].name)
            }
        }
        for source in plan.shapes {
            for relationship in source.relationships {
                let attributes = plan.shapes[relationship.target].attributes
                if let map = relationship.mapAttribute { names[relationship.target, default: []].insert(attributes[map].name) }
                if let position = relationship.positionAttribute {
                    names[relationship.target, default: []].insert(attributes[position].name)
                }
            }
        }
        return names
    }

    /// Whether the records held `path`; if not, the nearest key they held where it stops, as
    /// the whole key path it would make.
    private func walk(_ path: JSONKeyPath, from node: Int, firstKeys: [Int]) -> (seen: Bool, suggestion: String?) {
        guard let steps = plan.keySteps(path, from: node, firstKeyIndexes: firstKeys) else { return (false, nil) }
        var parent = node
        for (depth, step) in steps.enumerated() {
            if !sightings.seen[step.key] {
                let held = sightings.unmapped[parent] ?? []
                let nearest = NameSuggestion.nearest(to: path.keys[depth], among: held)
                return (false, nearest.map { (path.keys[..<depth] + [$0]).joined(separator: ".") })
            }
            parent = step.node
        }
        return (true, nil)
    }

    /// An entity whose records held none of its keys: most often an envelope read as one record.
    private func noKeysNote(entity: Int, records: Int, declared: Model.Entity) -> String {
        let name = plan.entities[entity].name
        var text = "\(name): none of the \(Self.records(records, of: name)) held any of its keys, "
            + "so each was imported with no values"
        let atTop = plan.recordLocations.contains { $0.path.isEmpty && plan.shapes[$0.entity].storage == entity }
        if atTop, case .object(_, let arrays)? = firstShape, !arrays.isEmpty {
            text += "; the input is an object holding \(Self.arrays(arrays)): to import the elements of one as \(name) records, "
                + "add --entity \(name) --path \(Self.pathArgument(arrays[0]))"
        } else {
            text += "; check its attributes' keys in the model, and where the records are (--path)"
        }
        return text
    }

    /// An input that held no record: what the model looks for, what the input is, and the option
    /// that most likely reads it. Nil when the input was empty (`[]`, nothing, or an envelope
    /// whose record keys are there but hold none).
    private func noRecordNote(input: String, shape: InputShape, head: [UInt8]) -> String? {
        let locations = plan.recordLocations
        let names = Array(Set(locations.map { plan.shapes[$0.entity].name })).sorted()
        let entity = names.count == 1 ? names[0] : "ENTITY"
        let expected = locations.map { location in
            let name = plan.shapes[location.entity].name
            return location.path.isEmpty ? "at the top level (\(name))"
                : "under \(ModelProblem.quote(location.path.joined(separator: "."))) (\(name))"
        }.joined(separator: ", ")
        let source = options.entity != nil ? "--entity and --path read" : "the model's root reads"
        var text = "\(input): no record found: \(source) records \(expected)"
        switch shape {
        case .empty, .emptyArray:
            return nil
        case .object(let keys, let arrays):
            let firstKeys = Set(locations.compactMap(\.path.first))
            if keys.contains(where: firstKeys.contains) {
                // The records' first key is there; a longer path may still break off below it.
                return brokenPath(locations.map(\.path), in: head).map { text + $0 }
            }
            if let first = arrays.first {
                text += "; the input is an object holding \(Self.arrays(arrays)): to import the elements of one, "
                    + "add --entity \(entity) --path \(Self.pathArgument(first))"
            } else {
                text += "; the input's records are at its top level: to import them, add --entity \(entity)"
            }
        case .array:
            text += "; the input is an array: to import its elements, add --entity \(entity)"
        case .scalar:
            break
        }
        if names.count > 1 { text += " (one of \(names.joined(separator: ", ")))" }
        return text
    }

    /// Where each of `paths` breaks off below the top level of `head` (a mistyped `--path
    /// data.itemz`): the key missing, and the nearest one held there; nil when any path is
    /// there, or the first bytes cannot say.
    private func brokenPath(_ paths: [[String]], in head: [UInt8]) -> String? {
        var broken: (path: [String], depth: Int, keys: [String])?
        for path in paths {
            guard let missing = InputShape.missingKey(of: path, in: head), missing.depth > 0 else { return nil }
            if broken == nil { broken = (path, missing.depth, missing.keys) }
        }
        guard let (path, depth, keys) = broken else { return nil }
        let held = ModelProblem.quote(path[..<depth].joined(separator: "."))
        var text = "; \(held) holds no key \(ModelProblem.quote(path[depth]))"
        if let nearest = NameSuggestion.nearest(to: path[depth], among: keys) {
            let suggested = (path[..<depth] + [nearest] + path[(depth + 1)...]).joined(separator: ".")
            text += "; did you mean \(ModelProblem.quote(suggested))?"
        } else if !keys.isEmpty {
            text += " (it holds " + keys.prefix(5).map(ModelProblem.quote).joined(separator: ", ") + (keys.count > 5 ? ", …)" : ")")
        }
        return text
    }

    /// `an array under "stops"`, `arrays under "stops", "trips"`.
    private static func arrays(_ keys: [String]) -> String {
        let shown = keys.prefix(5).map(ModelProblem.quote).joined(separator: ", ")
        return (keys.count == 1 ? "an array under " : "arrays under ") + shown + (keys.count > 5 ? ", …" : "")
    }

    /// A key as a `--path` argument: quoted for the shell when it is not a plain word.
    private static func pathArgument(_ key: String) -> String {
        let plain = !key.isEmpty && key.utf8.allSatisfy { byte in
            (48...57).contains(byte) || (65...90).contains(byte) || (97...122).contains(byte) || byte == 95 || byte == 45
        }
        return plain ? key : "'" + key.split(separator: "'", omittingEmptySubsequences: false).joined(separator: #"'\''"#) + "'"
    }
}
