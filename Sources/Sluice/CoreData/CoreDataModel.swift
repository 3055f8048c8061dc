/// A Core Data model as Xcode's model editor writes it (the `contents` XML of a
/// `.xcdatamodel`), reduced to what an import can use. `CoreDataConversion` turns it into a
/// Sluice `Model` (`docs/coming-from-magicalrecord.md`).
///
/// Every part keeps its place (`ModelLocation`), so notes about it carry the path `sluice
/// check` prints (`entities.MappedEntity.userInfo.relatedByAttribute`) and come out in
/// document order.
struct CoreDataModel: Sendable {
    var entities: [Entity]
    /// The model's `userDefinedModelVersionIdentifier`: nil when the XML has none, which Core
    /// Data records as no identifier at all (an empty one is still one).
    var versionIdentifier: String?

    struct Entity: Sendable {
        var name: String
        var location: ModelLocation
        var parentEntity: Field?
        /// `isAbstract="YES"`; nil otherwise.
        var isAbstract: Field?
        var attributes: [Attribute] = []
        var relationships: [Relationship] = []
        var userInfo: [UserInfoEntry] = []
        /// What Core Data's store and version hash read beyond the import (`CoreDataStoreLayout`,
        /// `VersionHash`).
        var versionHashModifier: String?
        /// Each `<uniquenessConstraint>`: the names of its properties, in the order written.
        var uniquenessConstraints: [[String]] = []
        /// Where `<uniquenessConstraints>` is, for the note when it does not give the identity.
        var uniquenessConstraintsLocation: ModelLocation?
        var fetchIndexes: [FetchIndex] = []
        /// Each old-style `<compoundIndex>`: the names of its properties.
        var compoundIndexes: [[String]] = []

        func attribute(named name: String) -> Attribute? {
            attributes.first { $0.name == name }
        }
    }

    struct Attribute: Sendable {
        var name: String
        var location: ModelLocation
        /// `Integer 16`, `String`, …; nil when the element has none.
        var attributeType: Field?
        var isOptional: Bool
        var isTransient: Bool
        var defaultValueString: Field?
        /// A Date attribute's default: seconds since 2001-01-01T00:00:00Z.
        var defaultDateTimeInterval: Field?
        var userInfo: [UserInfoEntry] = []
        var versionHashModifier: String?
        /// `allowsExternalBinaryDataStorage="YES"`.
        var allowsExternalStorage = false
        /// `preserveAfterDeletion="YES"` (`preservesValueInHistoryOnDeletion`).
        var preservesValueInHistoryOnDeletion = false
        /// `derivationExpression` of a `derived="YES"` attribute.
        var derivationExpression: String?
        var isDerived = false
        var valueTransformerName: String?
        /// `indexed="YES"`.
        var isIndexed = false
    }

    struct Relationship: Sendable {
        var name: String
        var location: ModelLocation
        var destinationEntity: Field?
        var inverseName: Field?
        var inverseEntity: Field?
        var isToMany: Bool
        /// `ordered="YES"`; nil otherwise.
        var ordered: Field?
        var isTransient: Bool
        var userInfo: [UserInfoEntry] = []
        var isOptional = false
        /// As written; absent is 0 (Core Data's "no minimum" and, on a to-many, "no maximum").
        var minCount = 0
        var maxCount = 0
        var versionHashModifier: String?
        /// `deletionRule` as Xcode writes it (`Nullify`, `Cascade`, `Deny`, `No Action`); nil:
        /// absent, which Core Data takes for Nullify.
        var deletionRule: Field?
    }

    /// A `<fetchIndex>`: its name and elements (property name, `Binary` or `RTree`, ascending).
    struct FetchIndex: Sendable {
        var name: String
        var elements: [Element]

        struct Element: Sendable {
            var property: String
            var type: String
            var ascending: Bool
        }
    }

    /// An XML attribute's value and its place.
    struct Field: Sendable {
        var value: String
        var location: ModelLocation
    }

    /// One `<entry key=… value=…/>` of a `userInfo` dictionary.
    struct UserInfoEntry: Sendable {
        var key: String
        var value: String
        var location: ModelLocation
    }
}

extension Array where Element == CoreDataModel.UserInfoEntry {
    subscript(key: String) -> CoreDataModel.UserInfoEntry? {
        first { $0.key == key }
    }
}
