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
        var relationships: [RelationshipPlan] = []
        /// The key trie node of the record object itself.
        var rootNode: Int
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
    struct KeyNode {
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
    struct LocationNode {
        var entity: Int?
        /// The records here are the members of an object used as a map: the entity's attribute
        /// that takes each member's name.
        var mapAttribute: Int?
        var children = KeyTable()
    }

    var entities: [EntityPlan] = []
    /// The model's `root` location whose records are rows of a table, and their header; the
    /// import reads it through `TabularRows`.
    var table: (path: JSONKeyPath, header: TabularHeader)?
    var keyNodes: [KeyNode] = []
    var locationNodes: [LocationNode] = [LocationNode()]
    /// Where the top-level values go.
    static let rootLocation = 0

    func entityIndex(named name: String) -> Int? { entities.firstIndex { $0.name == name } }

    /// The entities whose records stand at record locations (the model's `root`, `--entity`).
    var rootEntities: [Int] {
        var seen = Set<Int>()
        return locationNodes.compactMap(\.entity).filter { seen.insert($0).inserted }
    }
}

/// A node's child keys while the plan is built. Records have a handful of keys, so a list
/// is enough; the assembler looks keys up in the flat copy `EventPlan` makes of it.
struct KeyTable {
    private(set) var keys: [(bytes: [UInt8], node: Int)] = []

    var isEmpty: Bool { keys.isEmpty }

    func lookup(_ key: String) -> Int? {
        keys.first { $0.bytes.elementsEqual(key.utf8) }?.node
    }

    mutating func insert(_ key: String, node: Int) {
        keys.append((Array(key.utf8), node))
    }
}
