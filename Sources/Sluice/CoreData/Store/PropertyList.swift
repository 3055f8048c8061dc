/// A property list value as Core Data's store metadata (`Z_METADATA.Z_PLIST`), a compiled
/// model's `VersionInfo.plist` and its keyed archives hold them. A dictionary keeps its keys in
/// the order read or built (a binary plist's order), so a written plist is the same bytes each time.
enum PropertyList: Equatable, Sendable {
    case bool(Bool)
    case integer(Int64)
    case real(Double)
    /// Seconds since 2001-01-01T00:00:00Z.
    case date(Double)
    case data([UInt8])
    case string(String)
    /// A keyed archive's reference to another object (`CF$UID`).
    case uid(UInt64)
    case array([PropertyList])
    case dictionary([(key: String, value: PropertyList)])

    static func == (left: PropertyList, right: PropertyList) -> Bool {
        switch (left, right) {
        case let (.bool(a), .bool(b)): return a == b
        case let (.integer(a), .integer(b)): return a == b
        case let (.real(a), .real(b)), let (.date(a), .date(b)): return a == b
        case let (.data(a), .data(b)): return a == b
        case let (.string(a), .string(b)): return a == b
        case let (.uid(a), .uid(b)): return a == b
        case let (.array(a), .array(b)): return a == b
        case let (.dictionary(a), .dictionary(b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: return false
        }
    }

    /// A dictionary's value for `key`.
    subscript(key: String) -> PropertyList? {
        guard case .dictionary(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    var string: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    var data: [UInt8]? {
        if case .data(let value) = self { return value }
        return nil
    }

    var integer: Int64? {
        if case .integer(let value) = self { return value }
        return nil
    }

    var dictionary: [(key: String, value: PropertyList)]? {
        if case .dictionary(let members) = self { return members }
        return nil
    }

    var array: [PropertyList]? {
        if case .array(let elements) = self { return elements }
        return nil
    }
}
