/// The model compiled for the hot path: entities and attributes by index, converters built
/// once, and tries of keys so that each key event is one short lookup.
///
/// Built once per import from a `Model` and the record locations (the model's `root`, or
/// `--entity`/`--path`); `sluice check` builds it too, so every problem it can find is a
/// model problem reported before any input is read.
struct MappingPlan {
    struct EntityPlan {
        var name: String
        var table: String
        var attributes: [AttributePlan]
        /// Indexes into `attributes` of the identity, in model order; empty for append-only.
        var identity: [Int]
        /// Indexes into `relationships` of the identity's to-ones, in model order: their
        /// columns are filled before the records are looked up (`ParentIdentity`).
        var identityRelationships: [Int] = []
        var relationships: [RelationshipPlan] = []
        /// The key trie node of the record object itself.
        var rootNode: Int
        /// For a shape: the index in `entities` of its family's storage entity.
        var storage: Int
        /// For a shape of a family: which attributes and relationships are its own (inherited
        /// included); the others are read only to be chosen by `entityBy`. Empty: all are.
        var attributeMembers: [Bool] = []
        var relationshipMembers: [Bool] = []
        var entityBy: EntityByPlan?
        /// Relationships a hook imports itself (`EntityHooks.relationships`), by index: their
        /// raw JSON is read, as JSON text, into extra attributes after the family's, one per
        /// entry. A shape has them (every shape of the family alike, so that `entityBy` may
        /// choose any); a storage entity's `attributes` do not, since they are no columns.
        var rawLinks: [Int] = []
    }

    /// `entityBy` compiled: the discriminating value is read into the `"entity"` attribute's
    /// slot, and its text chooses the shape the record is completed as.
    struct EntityByPlan {
        var attribute: Int
        var choices: [(value: [UInt8], shape: Int)]
    }

    struct AttributePlan {
        var name: String
        var column: String
        var type: AttributeType
        var converter: ValueConverter
        var optional: Bool
        /// The model's `default`, converted; nil when it has none.
        var defaultValue: ColumnValue?
        var defaultWhenMissing: Bool
    }

    struct RelationshipPlan {
        var name: String
        /// The entity index of the target.
        var target: Int
        var toMany: Bool
        /// Converts a bare id to the target's `relatedBy` attribute; nil when the target has
        /// neither `relatedBy` nor a single identity (only nested objects can be linked then).
        var relatedBy: (attribute: Int, converter: ValueConverter)?
        /// `Target.attribute` of `relatedBy`, or the target's name: for messages.
        var relatedByName: String
        /// A to-many given as an object used as a map: the target attribute of the member names.
        var mapAttribute: Int?
        /// A to-many whose elements' positions (from 0) go to this target attribute.
        var positionAttribute: Int?

        /// A bare id converted to the target's `relatedBy` attribute.
        func key(_ value: Scalar) throws(ConversionError) -> ColumnValue {
            guard let (_, converter) = relatedBy else {
                throw ConversionError(message: "a bare id needs relatedBy: \(relatedByName) has no single identity attribute")
            }
            do {
                return try converter.convert(value)
            } catch {
                throw ConversionError(message: "\(error.message) (\(relatedByName))")
            }
        }
    }

    /// Where a key path inside a record leads: attributes to fill, and deeper keys.
    /// A node of one of the plan's key tries (`keyNodes`, `locationNodes`).
    protocol TrieNode {
        init()
        var children: KeyTable { get set }
    }

    struct KeyNode: TrieNode {
        /// Attributes whose value is the value at this path. `priority` is the fallback index
        /// (0 = the first key listed), so the first listed key present in a record wins.
        var targets: [(attribute: Int, priority: Int)] = []
        /// Relationships whose value is the value at this path.
        var links: [(relationship: Int, priority: Int)] = []
        var children = KeyTable()
        var hasJSONTarget = false
        var hasScalarTarget = false
    }

    /// Where records are, above them: an envelope's keys, or the records themselves.
    struct LocationNode: TrieNode {
        /// The shape of the records here.
        var entity: Int?
        /// The records here are the members of an object used as a map: the entity's attribute
        /// that takes each member's name.
        var mapAttribute: Int?
        var children = KeyTable()
    }

    /// The entities the engine writes, one per family (`Model.storageModel`), indexed as the
    /// storage model's entities; a record's `entity` is one of these.
    var entities: [EntityPlan] = []
    /// The entities the assembler reads records as, one per model entity: first those of
    /// `entities` (a family's root), then the other members. Each has its family's attributes
    /// and relationships, in the storage entity's order. Without inheritance, `entities`.
    var shapes: [EntityPlan] = []
    /// Each name's first shape, so that a feed's thousands of root entries each find theirs in
    /// one lookup (`shapeIndex`).
    var shapeIndexes: [String: Int] = [:]
    /// The model as the store sees it (`Model.storageModel`).
    var storageModel = Model(entities: [])
    /// How the store's layout keeps values, and names a family row's entity.
    var storeValues = StoreValues.sluice
    /// The model's `root` location whose records are rows of a table, and their header; the
    /// import reads it through `TabularRows`.
    var table: (path: JSONKeyPath, header: TabularHeader)?
    var keyNodes: [KeyNode] = []
    var locationNodes: [LocationNode] = [LocationNode()]
    /// Where the top-level values go.
    static let rootLocation = 0

    /// The shape of an entity of the model.
    func shapeIndex(named name: String) -> Int? { shapeIndexes[name] }

    /// The record location at the end of `path` from the top; nil when no record stands there
    /// or below.
    func location(at path: [String]) -> Int? {
        var node = Self.rootLocation
        for key in path {
            guard let child = locationNodes[node].children.lookup(key) else { return nil }
            node = child
        }
        return node
    }

    /// The storage entities whose records stand at record locations (the model's `root`,
    /// `--entity`).
    var rootEntities: [Int] {
        var seen = Set<Int>()
        return locationNodes.compactMap { $0.entity.map { shapes[$0].storage } }.filter { seen.insert($0).inserted }
    }
}

/// A node's child keys while the plan is built, in the order added; the assembler looks keys
/// up in the flat copy `EventPlan` makes of it. By name too: a record has a handful of keys,
/// but the root of a feed has one per file, and a zip may hold thousands.
struct KeyTable {
    private(set) var keys: [(bytes: [UInt8], node: Int)] = []
    /// By their bytes, as the assembler compares keys (not as `String` compares: `é` written as
    /// one scalar or as two are two keys).
    private var nodes: [[UInt8]: Int] = [:]

    var isEmpty: Bool { keys.isEmpty }

    func lookup(_ key: String) -> Int? {
        nodes[Array(key.utf8)]
    }

    mutating func insert(_ key: String, node: Int) {
        let bytes = Array(key.utf8)
        keys.append((bytes, node))
        if nodes[bytes] == nil { nodes[bytes] = node }
    }
}
