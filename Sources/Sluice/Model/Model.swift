/// A validated model (`docs/model.md`): which entities the JSON holds, how keys map to columns and
/// how records relate. Pure values: loading and validating live in `Model+Decoding.swift`.
///
/// Arrays keep the order of the model file, so the DDL and reports are deterministic.
public struct Model: Sendable, Equatable {
    public var root: Root?
    public var entities: [Entity]
    /// Record locations of `root` that are objects used as maps (`{"u1": {...}, "u2": {...}}`):
    /// each member's value is a record, and its name goes to this attribute of the entity.
    /// The empty key path is the top-level value.
    public var rootMaps: [JSONKeyPath: String] = [:]
    /// The record location of `root` whose records are rows of a table (arrays), and where
    /// their header is (`TabularHeader`): at most one.
    public var rootTable: (path: JSONKeyPath, header: TabularHeader)?

    public init(root: Root? = nil, entities: [Entity], rootMaps: [JSONKeyPath: String] = [:],
                rootTable: (path: JSONKeyPath, header: TabularHeader)? = nil) {
        self.root = root
        self.entities = entities
        self.rootMaps = rootMaps
        self.rootTable = rootTable
    }

    public static func == (lhs: Model, rhs: Model) -> Bool {
        lhs.root == rhs.root && lhs.entities == rhs.entities && lhs.rootMaps == rhs.rootMaps
            && lhs.rootTable?.path == rhs.rootTable?.path && lhs.rootTable?.header == rhs.rootTable?.header
    }

    public func entity(named name: String) -> Entity? {
        entities.first { $0.name == name }
    }
}

/// A dotted key path into a JSON record such as `location.lat`, split into its keys. (Not
/// named `KeyPath`, which would hide Swift's own.)
public struct JSONKeyPath: Hashable, Sendable, CustomStringConvertible {
    public var keys: [String]

    public init(_ keys: [String]) { self.keys = keys }

    /// Splits on dots; an empty string is the path of the value itself.
    public init(parsing text: String) {
        keys = text.isEmpty ? [] : text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    }

    public var description: String { keys.joined(separator: ".") }
}

extension Model {
    /// Where records are: the entity of the top-level records, or key paths of a top-level
    /// object mapped to entities.
    public enum Root: Sendable, Equatable {
        case entity(String)
        case paths([(path: JSONKeyPath, entity: String)])

        public static func == (lhs: Root, rhs: Root) -> Bool {
            switch (lhs, rhs) {
            case let (.entity(a), .entity(b)): return a == b
            case let (.paths(a), .paths(b)):
                return a.count == b.count && zip(a, b).allSatisfy { $0.path == $1.path && $0.entity == $1.entity }
            default: return false
            }
        }
    }

    public struct Entity: Sendable, Equatable {
        public var name: String
        public var table: String
        /// Names of the identity's parts, in order: attributes, and to-one relationships (the row
        /// a record hangs under, `docs/model.md#identity-through-the-parent`); empty means
        /// append-only.
        public var identity: [String]
        public var attributes: [Attribute]
        public var relationships: [Relationship]
        /// The entity it inherits attributes, relationships and identity from; its family is
        /// stored in the root ancestor's table (`docs/model.md#inheritance`).
        public var parent: String?
        /// Documents that records are normally created as descendants; a record placed as an
        /// abstract entity is still created as it (MagicalRecord's rule).
        public var isAbstract: Bool
        /// Which descendant a record placed as this entity is created as.
        public var entityBy: EntityBy?

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

        public func attribute(named name: String) -> Attribute? {
            attributes.first { $0.name == name }
        }
    }

    public struct Attribute: Sendable, Equatable {
        /// The widths an integer attribute's `bits` may give.
        public static let integerWidths = [16, 32, 64]

        public var name: String
        public var type: AttributeType
        /// Key paths tried in order; the first one present in a record wins, even when null.
        public var keys: [JSONKeyPath]
        public var column: String
        public var optional: Bool
        /// The `default` as written in the model file; the mapping plan converts it to the
        /// attribute's type (and reports a model problem when it cannot).
        public var defaultValue: JSONValue?
        public var defaultWhenMissing: Bool
        public var dateFormat: String?
        /// `integer` only: the signed width values must fit, 16 or 32 (Core Data's Integer 16
        /// and 32; `docs/model.md#attribute`); a value outside it is a record error. nil is 64.
        public var bits: Int?

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
        public var key: JSONKeyPath
        /// Key values (as text) and the entity each one names, in the model's order.
        public var values: [Choice]

        public struct Choice: Sendable, Equatable {
            public var value: String
            public var entity: String

            public init(value: String, entity: String) {
                self.value = value
                self.entity = entity
            }
        }

        public init(key: JSONKeyPath, values: [Choice]) {
            self.key = key
            self.values = values
        }
    }

    public enum MergePolicy: String, Sendable { case add, replace }
    public enum UnresolvedPolicy: String, Sendable, CaseIterable { case null, stub, fail }

    public struct Relationship: Sendable, Equatable {
        public var name: String
        public var entity: String
        public var toMany: Bool
        public var keys: [JSONKeyPath]
        /// The target attribute a bare id refers to; nil means the target's single identity.
        public var relatedBy: String?
        public var inverse: String?
        /// The column of a to-one (default `<name>_pk`).
        public var column: String
        public var merge: MergePolicy
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
        /// In a `storageModel`, where `entity` is the target's family root: the entity the
        /// relationship names, whose name a row made for one of its ids (a stub) takes in the
        /// family's `"entity"` column. nil when the target's table has no such column.
        var storedEntityName: String?

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
