/// A Core Data model as Xcode's model editor writes it (the `contents` XML of a
/// `.xcdatamodel`), reduced to what an import can use. `CoreDataConversion` turns it into a
/// Sluice `Model` (`docs/coming-from-magicalrecord.md`).
///
/// Every part keeps its place (`ModelLocation`), so notes about it carry the path `sluice
/// check` prints (`entities.MappedEntity.userInfo.relatedByAttribute`) and come out in
/// document order.
struct CoreDataModel: Sendable {
    var entities: [Entity]

    struct Entity: Sendable {
        var name: String
        var location: ModelLocation
        var parentEntity: Field?
        /// `isAbstract="YES"`; nil otherwise.
        var isAbstract: Field?
        var attributes: [Attribute] = []
        var relationships: [Relationship] = []
        var userInfo: [UserInfoEntry] = []

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
