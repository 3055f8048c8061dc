/// Envelopes: one top-level object with no id of its own, holding record arrays (or maps) at
/// any depth (`{"last_updated": …, "data": {"stations": [...]}}`, `response.items`). Each is a
/// root location at its key path; the envelope's other members (its metadata) are left out.
extension ModelDesigner {
    /// Objects of an envelope are searched this many levels deep for record arrays.
    static let maxEnvelopeDepth = 4

    /// The record locations of an envelope: key paths and what stands there; nil when the input
    /// is not an envelope.
    func envelopeLocations() -> [(path: [String], key: KeyStatistics)]? {
        guard !entityGiven, reader.topLevelValues == 1, reader.records == 1, reader.nonObjectRecords == 0,
              !hasOwnID(0)
        else { return nil }
        var found: [(path: [String], key: KeyStatistics)] = []
        collectLocations(in: 0, path: [], into: &found)
        return found.isEmpty ? nil : found
    }

    /// An object with an id of its own is one record, whatever it holds.
    private func hasOwnID(_ shape: Int) -> Bool {
        shapes[shape].keys.contains { $0.identityRank != nil && $0.values.scalars > 0 }
    }

    private func collectLocations(in shape: Int, path: [String], into found: inout [(path: [String], key: KeyStatistics)]) {
        for key in shapes[shape].keys where Self.isAddressable(key.key) {
            guard let child = key.child else { continue }
            let onlyObjects = key.values.objects == key.present && key.values.arrays == 0 && key.values.scalars == 0
            if onlyObjects && isMap(child) || isRecordArray(key) {
                found.append((path + [key.key], key))
            } else if onlyObjects, path.count + 1 < Self.maxEnvelopeDepth, !hasOwnID(child) {
                collectLocations(in: child, path: path + [key.key], into: &found)
            }
        }
    }

    private func isRecordArray(_ key: KeyStatistics) -> Bool {
        key.values.arrays == key.present && key.elements.objects > 0 && key.elements.scalars == 0 && key.elements.arrays == 0
    }

    /// Makes each location a root, named after its last key (a split table's rows after the
    /// input), and notes the envelope's members left out.
    mutating func addEnvelopeRoots(_ locations: [(path: [String], key: KeyStatistics)]) {
        for (path, key) in locations {
            guard let child = key.child else { continue }
            let last = path[path.count - 1]
            let joined = path.joined(separator: ".")
            if key.values.arrays == 0, isMap(child) {
                addMapRoot(child, key: joined, name: InferenceNaming.entityName(fromKey: last),
                           table: InferenceNaming.identifier(last))
                continue
            }
            let isTable = table?.path == JSONKeyPath(path)
            let entity = isTable ? entity(named: rootName, table: rootTable)
                : entity(named: InferenceNaming.entityName(fromKey: last), table: InferenceNaming.identifier(last))
            add(child, to: entity, isRoot: true)
            roots.append((joined, entity))
        }
        var skipped: [String] = []
        collectSkipped(in: 0, path: [], locations: locations.map(\.path), into: &skipped)
        if !skipped.isEmpty {
            let shown = skipped.prefix(10).map(ModelProblem.quote).joined(separator: ", ") + (skipped.count > 10 ? ", …" : "")
            note("the input is one object holding record arrays; its other keys are left out: \(shown)")
        }
    }

    /// The envelope's members that are neither a location nor on the way to one.
    private func collectSkipped(in shape: Int, path: [String], locations: [[String]], into skipped: inout [String]) {
        for key in shapes[shape].keys {
            let here = path + [key.key]
            if locations.contains(here) { continue }
            if let child = key.child, locations.contains(where: { $0.starts(with: here) }) {
                collectSkipped(in: child, path: here, locations: locations, into: &skipped)
            } else {
                skipped.append(here.joined(separator: "."))
            }
        }
    }
}
