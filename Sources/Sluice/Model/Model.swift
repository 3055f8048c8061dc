/// A validated model (`docs/model.md`): which entities the JSON holds, how keys map to columns and
/// how records relate. Pure values: loading and validating live in `Model+Decoding.swift`.
///
/// Arrays keep the order of the model file, so the DDL and reports are deterministic.
public struct Model: Sendable, Equatable {
    /// Where the records are: the entity of the top-level records, or which top-level key holds
    /// which entity's records. nil when each import names its entity (a Core Data model).
    public var root: Root?
    /// The entities, in the model file's order.
    public var entities: [Entity] {
        // Without reading `oldValue`: an element is then changed in place, not in a copy.
        didSet { entityIndexCache = EntityIndexCache() }
    }
    /// `entities` by name and parent, made when first needed (`EntityIndex`).
    private var entityIndexCache = EntityIndexCache()
    /// `entities` by name and parent.
    var entityIndex: EntityIndex { entityIndexCache.index(of: entities) }
    /// Record locations of `root` that are objects used as maps (`{"u1": {...}, "u2": {...}}`):
    /// each member's value is a record, and its name goes to this attribute of the entity.
    /// The empty key path is the top-level value.
    public var rootMaps: [JSONKeyPath: String] = [:]
    /// The record location of `root` whose records are rows of a table (arrays), and where
    /// their header is (`TabularHeader`): at most one.
    public var rootTable: (path: JSONKeyPath, header: TabularHeader)?

    /// A model built in code; ``ModelFile/load(path:)`` and ``Model/parse(_:sourceName:)`` read
    /// and validate one from a model file.
    public init(root: Root? = nil, entities: [Entity], rootMaps: [JSONKeyPath: String] = [:],
                rootTable: (path: JSONKeyPath, header: TabularHeader)? = nil) {
        self.root = root
        self.entities = entities
        self.rootMaps = rootMaps
        self.rootTable = rootTable
    }

    /// Whether two models are the same: root, entities, maps and table.
    public static func == (lhs: Model, rhs: Model) -> Bool {
        lhs.root == rhs.root && lhs.entities == rhs.entities && lhs.rootMaps == rhs.rootMaps
            && lhs.rootTable?.path == rhs.rootTable?.path && lhs.rootTable?.header == rhs.rootTable?.header
    }

    /// The entity called `name`, or nil.
    public func entity(named name: String) -> Entity? {
        position(ofEntity: name).map { entities[$0] }
    }
}

/// A dotted key path into a JSON record such as `location.lat`, split into its keys. (Not
/// named `KeyPath`, which would hide Swift's own.)
public struct JSONKeyPath: Hashable, Sendable, CustomStringConvertible {
    /// The keys, from the outermost; empty for the value itself.
    public var keys: [String]

    /// The path of these keys, from the outermost.
    public init(_ keys: [String]) { self.keys = keys }

    /// Splits on dots; an empty string is the path of the value itself.
    public init(parsing text: String) {
        keys = text.isEmpty ? [] : text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    }

    /// The path as written, its keys joined with dots (`location.lat`).
    public var description: String { keys.joined(separator: ".") }
}

extension Model {
    /// Where records are: the entity of the top-level records, or key paths of a top-level
    /// object mapped to entities.
    public enum Root: Sendable, Equatable {
        /// Every top-level record (or each value of a stream) is a record of this entity.
        case entity(String)
        /// The top-level value is an object; the records under each key path are of its entity.
        case paths([(path: JSONKeyPath, entity: String)])

        /// Whether two roots name the same entities at the same places, in the same order.
        public static func == (lhs: Root, rhs: Root) -> Bool {
            switch (lhs, rhs) {
            case let (.entity(a), .entity(b)): return a == b
            case let (.paths(a), .paths(b)):
                return a.count == b.count && zip(a, b).allSatisfy { $0.path == $1.path && $0.entity == $1.entity }
            default: return false
            }
        }
    }

    /// A kind of record: its table, identity, attributes and relationships (`docs/model.md#entity`).
    public struct Entity: Sendable, Equatable {
        /// The entity's name, as the model file and `--entity` spell it.
        public var name: String
        /// The table its rows go to (default: the entity's name).
        public var table: String
        /// Names of the identity's parts, in order: attributes, and to-one relationships (the row
        /// a record hangs under, `docs/model.md#identity-through-the-parent`); empty means
        /// append-only.
        public var identity: [String]
        /// Its attributes, in the model's order: one column each.
        public var attributes: [Attribute]
        /// Its relationships to other entities, in the model's order.
        public var relationships: [Relationship]
        /// The entity it inherits attributes, relationships and identity from; its family is
        /// stored in the root ancestor's table (`docs/model.md#inheritance`).
        public var parent: String?
        /// Documents that records are normally created as descendants; a record placed as an
        /// abstract entity is still created as it (MagicalRecord's rule).
        public var isAbstract: Bool
        /// Which descendant a record placed as this entity is created as.
        public var entityBy: EntityBy?

        /// An entity built in code; `table` defaults to `name`.
        public init(name: String, table: String? = nil, identity: [String] = [],
                    attributes: [Attribute], relationships: [Relationship] = [],
                    parent: String? = nil, isAbstract: Bool = false, entityBy: EntityBy? = nil) {
            self.name = name
            self.table = table ?? name
            self.identity = identity
            self.attributes = attributes
            self.relationships = relationships
            self.parent = parent
            self.isAbstract = isAbstract
            self.entityBy = entityBy
        }

        /// The attribute called `name`, or nil.
        public func attribute(named name: String) -> Attribute? {
            attributes.first { $0.name == name }
        }
    }

    /// A value of a record stored in one column, converted to its type
    /// (`docs/model.md#attribute`).
    public struct Attribute: Sendable, Equatable {
        /// The widths an integer attribute's `bits` may give.
        public static let integerWidths = [16, 32, 64]

        /// The attribute's name, unique in its entity.
        public var name: String
        /// What the value is converted to, and the column's type.
        public var type: AttributeType
        /// Key paths tried in order; the first one present in a record wins, even when null.
        public var keys: [JSONKeyPath]
        /// The column it is stored in (default: the attribute's name).
        public var column: String
        /// `false`: `null`, or a missing key with no default, is a record error.
        public var optional: Bool
        /// The `default` as written in the model file; the mapping plan converts it to the
        /// attribute's type (and reports a model problem when it cannot).
        public var defaultValue: JSONValue?
        /// Also use the default when an update lacks the key (otherwise the column is left alone),
        /// as MagicalRecord's `useDefaultValueWhenNotPresent`.
        public var defaultWhenMissing: Bool
        /// `date` only: how strings are read, a pattern as NSDateFormatter's, `unix` (seconds) or
        /// `unix-ms` (milliseconds); nil reads ISO 8601.
        public var dateFormat: String?
        /// `integer` only: the signed width values must fit, 16 or 32 (Core Data's Integer 16
        /// and 32; `docs/model.md#attribute`); a value outside it is a record error. nil is 64.
        public var bits: Int?
        /// A Core Data Transformable attribute's value transformer of the app's own (not one of
        /// Core Data's defaults, whose keyed archive Sluice writes): in Core Data's store a
        /// value for it is a record error, as only the app can run it. Set by the conversion
        /// of a Core Data model; nil otherwise.
        var customTransformer: String?

        /// An attribute built in code; `keys` defaults to the name as a key path, `column` to the name.
        public init(name: String, type: AttributeType, keys: [JSONKeyPath]? = nil, column: String? = nil,
                    optional: Bool = true, defaultValue: JSONValue? = nil,
                    defaultWhenMissing: Bool = false, dateFormat: String? = nil, bits: Int? = nil) {
            self.name = name
            self.type = type
            self.keys = keys ?? [JSONKeyPath(parsing: name)]
            self.column = column ?? name
            self.optional = optional
            self.defaultValue = defaultValue
            self.defaultWhenMissing = defaultWhenMissing
            self.dateFormat = dateFormat
            self.bits = bits
        }
    }

    /// A discriminating key: a record whose value at `key` is one of `values` is created as the
    /// entity named there (a descendant); any other value, or none, leaves it as placed.
    public struct EntityBy: Sendable, Equatable {
        /// The key path of the discriminating value in a record.
        public var key: JSONKeyPath
        /// Key values (as text) and the entity each one names, in the model's order.
        public var values: [Choice]

        /// One value of the discriminating key and the entity it names.
        public struct Choice: Sendable, Equatable {
            /// The key's value, as text.
            public var value: String
            /// The entity created for a record whose key holds `value`.
            public var entity: String

            /// The choice of `entity` for records whose key holds `value`.
            public init(value: String, entity: String) {
                self.value = value
                self.entity = entity
            }
        }

        /// A discriminating key and its choices, in order.
        public init(key: JSONKeyPath, values: [Choice]) {
            self.key = key
            self.values = values
        }
    }

    /// What an update does with a to-many's links that the record had before.
    public enum MergePolicy: String, Sendable {
        /// Keep the old links and add those the record lists.
        case add
        /// Leave exactly the links the record lists.
        case replace
    }

    /// What deleting a row (`--delete-missing`) does to the rows a relationship of it links
    /// (`docs/import-semantics.md`, deleting): Core Data's deletion rules, a relationship's
    /// `deleteRule` in a model file (`docs/model.md`), a Core Data model's `deletionRule`.
    public enum DeleteRule: String, Sendable {
        /// The links to the deleted row are removed (its targets' columns or join rows).
        case nullify
        /// The rows it links are deleted too, and theirs, by their own rules.
        case cascade
        /// A row that still links a row the import keeps is not deleted: the import is refused.
        case deny
        /// The other side is left as it is, still naming the deleted row's key.
        case noAction
    }

    /// What a reference still missing at the end of the import does (`--unresolved`).
    public enum UnresolvedPolicy: String, Sendable, CaseIterable {
        /// The link is left empty, and counted as unresolved in the report.
        case null
        /// A row of the target is created with its id only (a stub), and linked.
        case stub
        /// The import fails (and rolls back).
        case fail
    }

    /// A link from a record to records of another entity, found from a nested object or a bare id
    /// (`docs/model.md#relationship`).
    public struct Relationship: Sendable, Equatable {
        /// The relationship's name, unique in its entity.
        public var name: String
        /// The entity it links to.
        public var entity: String
        /// Whether a record links to many targets (an array), stored in a join table or the target's
        /// column, rather than to one, stored in a column of its own.
        public var toMany: Bool
        /// Key paths tried in order; the first one present in a record wins.
        public var keys: [JSONKeyPath]
        /// The target attribute a bare id refers to; nil means the target's single identity.
        public var relatedBy: String?
        /// The target's relationship that is this one seen from the other side, if any.
        public var inverse: String?
        /// The column of a to-one (default `<name>_pk`).
        public var column: String
        /// To-many only: what an update does with the links a record had before.
        public var merge: MergePolicy
        /// What a reference still missing at the end of the import does.
        public var unresolved: UnresolvedPolicy
        /// A to-many whose value is an object used as a map: each member's value is a target
        /// record, and its name goes to this attribute of the target.
        public var map: String?
        /// A to-many whose elements' place in their array (from 0) goes to this attribute of the
        /// target, so that nested records without ids of their own have an identity.
        public var position: String?
        /// A to-many whose links keep the order of the input's array, in a position column
        /// (`docs/model.md`, ordered relationships).
        public var ordered: Bool
        /// What deleting a row of this entity does to the rows this relationship links.
        public var deleteRule: DeleteRule = .nullify
        /// In a `storageModel`, where `entity` is the target's family root: the entity the
        /// relationship names, whose name a row made for one of its ids (a stub) takes in the
        /// family's `"entity"` column. nil when the target's table has no such column.
        var storedEntityName: String?

        /// A relationship built in code; `keys` defaults to the name as a key path.
        public init(name: String, entity: String, toMany: Bool = false, keys: [JSONKeyPath]? = nil,
                    relatedBy: String? = nil, inverse: String? = nil, column: String? = nil,
                    merge: MergePolicy = .add, unresolved: UnresolvedPolicy = .null, map: String? = nil,
                    position: String? = nil, ordered: Bool = false) {
            self.map = map
            self.ordered = ordered
            self.position = position
            self.name = name
            self.entity = entity
            self.toMany = toMany
            self.keys = keys ?? [JSONKeyPath(parsing: name)]
            self.relatedBy = relatedBy
            self.inverse = inverse
            self.column = column ?? "\(name)_pk"
            self.merge = merge
            self.unresolved = unresolved
        }
    }
}
