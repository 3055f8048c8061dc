/// Turns what `SampleReader` counted into a starter model: which places are entities, their
/// identities, attributes and relationships, and the names of it all. Pure: no I/O.
///
/// The decisions, in order (`docs/cli.md`, "sluice infer", says the same for users):
/// 1. Where records are: the top-level records are one entity, unless the input is a single
///    object (and no `--entity` was given) with no id of its own whose members hold arrays
///    of objects: an envelope, each such array its own root entity (`root` maps the keys).
/// 2. Places with the same entity name are one entity (`author` under posts and under
///    comments): objects under a key are named after it (`line_items` → `LineItem`).
/// 3. Identity: the best id-like key (`IdentityCandidate`) present, non-null, a string or an
///    integer in every sampled record of the entity, and, for root entities, unique.
/// 4. A nested place whose entity has an identity is a relationship (to-many when arrays
///    appear). Arrays of objects without one, under one key of one entity, are an entity
///    identified through that parent and a sequence-like key or their position in the array
///    (`ModelDesigner+Positions`). Other objects without one are flattened into key-path
///    attributes when small (`location.lat` → `location_lat`), or else kept as `json`, since
///    without an identity a re-import could only add their rows again.
/// 5. Relationships by id: a key that is another entity's identity key (`trip_id` in
///    stop times, Trip's identity) becomes a to-one to it, beside the attribute.
struct ModelDesigner {
    let shapes: [ObjectShape]
    let reader: (topLevelValues: Int, records: Int, nonObjectRecords: Int)
    /// `--entity`, or the name made from the file's name.
    let rootName: String
    /// The table of the top-level records' entity; nil leaves it the entity's name.
    let rootTable: String?
    /// `--entity` was given: the top-level values are records, never an envelope.
    let entityGiven: Bool

    /// The objects inside records that are maps (`nestedMapShapes`).
    var nestedMaps: Set<Int> = []
    /// The input is a table (`TabularSniffer`): its records location and header.
    var table: (path: JSONKeyPath, header: TabularHeader)?

    private(set) var notes: [String] = []
    var entities: [ProposedEntity] = []
    private var entityIndex: [String: Int] = [:]
    /// Each root location: its key in the envelope (nil for top-level records) and entity.
    /// Each root location: its key path in the envelope (`data.stations`; nil for top-level
    /// records) and entity.
    var roots: [(key: String?, entity: Int)] = []
    /// One-to-many relationships waiting for their inverse to-one in the child entity.
    var pendingInverses: [(entity: Int, relationship: Int, target: Int)] = []

    /// A flattened object holds at most this many keys (more is a map, kept as `json`)…
    static let maxFlattenedKeys = 20
    /// … and is at most this many levels below its entity.
    static let maxFlattenDepth = 3

    init(reader: SampleReader, rootName: String, rootTable: String?, entityGiven: Bool) {
        shapes = reader.shapes
        self.reader = (reader.topLevelValues, reader.records, reader.nonObjectRecords)
        self.rootName = rootName
        self.rootTable = rootTable
        self.entityGiven = entityGiven
    }

    mutating func note(_ text: String) { notes.append(text) }

    /// A note said too early, corrected in its place.
    mutating func replaceNote(at index: Int, with text: String) { notes[index] = text }

    /// The model, and notes on every choice that was a fallback.
    mutating func design() -> Model {
        findRoots()
        discoverNestedEntities()
        for index in entities.indices { chooseIdentity(of: index) }
        chooseParentIdentities()
        for index in entities.indices where entities[index].isEntity { buildMembers(of: index) }
        addMapAttributes()
        addInverses()
        addParentIdentities()
        addReferencesByID()
        for index in entities.indices where entities[index].isEntity && entities[index].identity.isEmpty {
            addCompositeIdentity(to: index)
            if entities[index].identity.isEmpty { noteAppendOnly(entities[index].name) }
        }
        dropIdentitiesThroughUnidentifiedParents()
        fitColumnLimit()
        nameTables()
        return assemble()
    }

    // MARK: Roots

    private mutating func findRoots() {
        if !entityGiven, reader.topLevelValues == 1, reader.records == 1, reader.nonObjectRecords == 0,
           !shapes[0].keys.contains(where: { $0.identityRank != nil && $0.values.scalars > 0 }), isMap(0) {
            addMapRoot(0, key: nil, name: rootName, table: rootTable)
        } else if let locations = envelopeLocations() {
            addEnvelopeRoots(locations)
        } else {
            let entity = entity(named: rootName, table: rootTable)
            add(0, to: entity, isRoot: true)
            roots.append((nil, entity))
        }
        if reader.nonObjectRecords > 0 {
            note("\(reader.nonObjectRecords) of the \(reader.records) sampled records are not objects: an import rejects them (--on-error skip skips them)")
        }
    }

    /// A key a model's key path can name: not empty, and no dot (a dot separates keys).
    static func isAddressable(_ key: String) -> Bool {
        !key.isEmpty && !key.contains(".")
    }

    // MARK: Entities

    /// The entity of that name, made when new.
    mutating func entity(named name: String, table: String?) -> Int {
        if let index = entityIndex[name] { return index }
        entities.append(ProposedEntity(name: name, table: table))
        entityIndex[name] = entities.count - 1
        return entities.count - 1
    }

    mutating func add(_ shape: Int, to entity: Int, isRoot: Bool) {
        if !entities[entity].shapes.contains(shape) { entities[entity].shapes.append(shape) }
        if isRoot {
            entities[entity].rootShapes.insert(shape)
            entities[entity].isEntity = true
        }
    }

    /// Every nested place, breadth first from the roots, joins the entity named after its key.
    private mutating func discoverNestedEntities() {
        nestedMaps = nestedMapShapes()
        var queue = entities.flatMap(\.shapes)
        var visited = Set(queue)
        var next = 0
        while next < queue.count {
            let shape = queue[next]
            next += 1
            for key in shapes[shape].keys {
                guard let child = key.child else { continue }
                let entity = entity(named: InferenceNaming.entityName(fromKey: key.key), table: InferenceNaming.identifier(key.key))
                // A map's members are the entity's records, not the map itself.
                if nestedMaps.contains(child) {
                    let type = memberNameType(child)
                    entities[entity].mapKeyType = entities[entity].mapKeyType == .string ? .string : type
                    for member in shapes[child].keys.compactMap(\.child) {
                        add(member, to: entity, isRoot: false)
                        if visited.insert(member).inserted { queue.append(member) }
                    }
                    continue
                }
                add(child, to: entity, isRoot: false)
                if visited.insert(child).inserted { queue.append(child) }
            }
        }
    }

    func entity(of shape: Int) -> Int? {
        entities.firstIndex { $0.shapes.contains(shape) }
    }

    // MARK: Identity

    /// The best id-like key that holds a string or integer in every sampled record of the
    /// entity, unique among its root records. Nested entities may repeat an id: the same
    /// object named twice is found, not duplicated.
    private mutating func chooseIdentity(of index: Int) {
        let entity = entities[index]
        // A map's members are records by their names, whatever else they hold.
        if entity.mapKeyType != nil { entities[index].isEntity = true }
        var candidates: [(rank: Int, order: Int, key: String)] = []
        for shape in entity.shapes {
            for key in shapes[shape].keys {
                guard let rank = key.identityRank, !candidates.contains(where: { $0.key == key.key }) else { continue }
                candidates.append((rank, candidates.count, key.key))
            }
        }
        candidates.sort { ($0.rank, $0.order) < ($1.rank, $1.order) }
        for candidate in candidates where Self.isAddressable(candidate.key) {
            var everywhere = true
            var kinds = ValueKinds()
            var rootValues: Set<String> = []
            var rootCount = 0
            for shape in entity.shapes {
                guard let statistics = shapes[shape].statistics(of: candidate.key),
                      statistics.present >= shapes[shape].records, !statistics.identityRefused
                else {
                    everywhere = false
                    break
                }
                kinds.merge(statistics.values)
                if entity.rootShapes.contains(shape) {
                    rootValues.formUnion(statistics.identityValues)
                    rootCount += statistics.identityCount
                }
            }
            guard everywhere, rootValues.count == rootCount else { continue }
            let type: AttributeType
            switch kinds.attributeType().type {
            case .integer: type = .integer
            case .uuid: type = .uuid
            default: type = .string
            }
            entities[index].identityKey = candidate.key
            entities[index].identityType = type
            entities[index].isEntity = true
            return
        }
    }

    private mutating func noteAppendOnly(_ name: String) {
        let words = InferenceNaming.words(name)
        let snake = words.map { $0.lowercased() }.joined(separator: "_")
        let camel = InferenceNaming.lowerFirst(words.joined())
        note("\(name): no id-like key (id, \(snake)_id, \(camel)Id, uuid) holds a unique string or integer in every sampled record, "
            + "so it has no identity and is append-only: importing the same input again adds its rows again")
    }
}

/// An entity being proposed: the places it merges, and its model parts as they are decided.
struct ProposedEntity {
    var name: String
    var table: String?
    var shapes: [Int] = []
    /// The places that are record locations (top-level records or an envelope's arrays).
    var rootShapes: Set<Int> = []
    /// Root entities are entities; a nested place becomes one only with an identity.
    var isEntity = false
    var identityKey: String?
    var identityType: AttributeType?
    /// The identity's attribute, once named.
    var identityAttribute: String?
    /// The entity's records are the members of objects used as maps, whose names are of this
    /// type; `mapAttribute` takes them (`ModelDesigner+Maps`).
    var mapKeyType: AttributeType?
    var mapAttribute: String?
    /// A composite identity (`CompositeIdentity`, or through the parent), when there is no
    /// single one.
    var compositeIdentity: [String] = []
    /// A nested place without an id of its own, identified through the entity it hangs under
    /// (`ModelDesigner+Positions`) …
    var parentEntity: Int?
    /// … and this sequence-like key, or else its place in the parent's array.
    var sequenceKey: String?
    /// The index in `ModelDesigner.notes` of the note on its identity through the parent.
    var parentIdentityNote: Int?
    /// The identity's attributes.
    var identity: [String] { identityAttribute.map { [$0] } ?? compositeIdentity }
    var attributes: [Model.Attribute] = []
    var relationships: [Model.Relationship] = []
    /// Attribute and relationship names and the columns they take (`pk` is the table's).
    var names = NameScope(reserved: [Model.primaryKeyColumn])

    init(name: String, table: String?) {
        self.name = name
        self.table = table
    }
}
