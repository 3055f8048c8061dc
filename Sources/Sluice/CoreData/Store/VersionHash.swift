/// Core Data's version hashes (hash style 0, what a store records as
/// `NSStoreModelVersionHashesVersion` 3): the 32 bytes per entity by which Core Data decides
/// whether a model opens a store without migration, and the model's checksum and digest.
/// The rules are those of `docs/coredata-store.md#version-hashes`, checked against every
/// fixture store (`VersionHashTests`). Strings are hashed as their UTF-8 bytes, integers
/// little-endian.
enum VersionHash {
    /// `NSAttributeType` of each attribute type Xcode writes.
    static let attributeTypeCodes: [String: UInt32] = [
        "Undefined": 0, "Integer 16": 100, "Integer 32": 200, "Integer 64": 300, "Decimal": 400, "Double": 500,
        "Float": 600, "String": 700, "Boolean": 800, "Date": 900, "Binary": 1000, "UUID": 1100, "URI": 1200,
        "Transformable": 1800,
    ]

    /// What every property's hash starts from: its name, a 16-bit flag word (optional,
    /// transient, read-only) and its `versionHashModifier`.
    static func propertyBase(name: String, isOptional: Bool, isTransient: Bool, isReadOnly: Bool = false,
                             modifier: String?) -> [UInt8]
    {
        let flags: UInt16 = (isOptional ? 1 : 0) | (isTransient ? 2 : 0) | (isReadOnly ? 4 : 0)
        return sha256(Array(name.utf8) + littleEndian(flags) + Array((modifier ?? "").utf8))
    }

    /// An attribute's hash; nil when its type is not one Core Data has. A derived attribute's
    /// hash is its derivation expression's alone (Core Data drops the attribute's own).
    static func attribute(_ attribute: CoreDataModel.Attribute) -> [UInt8]? {
        if attribute.isDerived, let expression = attribute.derivationExpression {
            return sha256(Array(predicateFormat(ofDerivation: expression).utf8))
        }
        guard let code = attributeTypeCodes[attribute.attributeType?.value ?? "Undefined"] else { return nil }
        let base = propertyBase(name: attribute.name, isOptional: attribute.isOptional, isTransient: attribute.isTransient,
                                modifier: attribute.versionHashModifier)
        return sha256(base + littleEndian(code) + (attribute.allowsExternalStorage ? [1] : [])
                        + (attribute.preservesValueInHistoryOnDeletion ? [1] : []))
    }

    /// A relationship's hash. The inverse's name is left out when there is none and when the
    /// relationship is its own inverse; the delete rule is not hashed.
    static func relationship(_ relationship: CoreDataModel.Relationship, of entity: String) -> [UInt8] {
        let base = propertyBase(name: relationship.name, isOptional: relationship.isOptional,
                                isTransient: relationship.isTransient, modifier: relationship.versionHashModifier)
        var inverse = relationship.inverseName?.value ?? ""
        if inverse == relationship.name && (relationship.inverseEntity?.value ?? relationship.destinationEntity?.value) == entity {
            inverse = ""
        }
        return sha256(base + Array((relationship.destinationEntity?.value ?? "").utf8) + Array(inverse.utf8)
                        + littleEndian(UInt32(truncatingIfNeeded: relationship.maxCount))
                        + littleEndian(UInt32(truncatingIfNeeded: relationship.minCount))
                        + (relationship.ordered != nil && relationship.isToMany ? [1, 0] : []))
    }

    /// Every entity's hash, by name: its name, whether it is abstract, its parent's hash, the
    /// hashes of its stored properties (inherited ones too) in name order, its modifier and its
    /// own uniqueness constraints. Throws naming the first attribute whose type Core Data does
    /// not have, or a parent the model does not hold.
    static func entityHashes(of model: CoreDataModel, sourceName: String) throws(ModelError) -> [String: [UInt8]] {
        let byName = Dictionary(model.entities.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var hashes: [String: [UInt8]] = [:]
        var problems: [ModelProblem] = []
        func hash(of entity: CoreDataModel.Entity, depth: Int) -> [UInt8] {
            if let known = hashes[entity.name] { return known }
            var parentHash: [UInt8] = []
            var properties: [String: [UInt8]] = [:]
            if let parentName = entity.parentEntity?.value {
                guard let parent = byName[parentName], depth < model.entities.count else {
                    problems.append(ModelProblem(path: entity.parentEntity!.location.path,
                                                 message: "names no entity \(ModelProblem.quote(parentName)) (or a cycle of parents)"))
                    return []
                }
                parentHash = hash(of: parent, depth: depth + 1)
                properties = inheritedProperties(of: parent, in: byName)
            }
            for (name, value) in ownProperties(of: entity, problems: &problems) { properties[name] = value }
            var bytes = Array(entity.name.utf8) + [entity.isAbstract != nil ? 1 : 0] + parentHash
            for name in properties.keys.sorted(by: codeUnitOrder) { bytes += properties[name]! }
            bytes += Array((entity.versionHashModifier ?? "").utf8)
            for constraint in entity.uniquenessConstraints.map({ $0.joined(separator: ".") }).sorted(by: codeUnitOrder) {
                bytes += Array(constraint.utf8)
            }
            let result = sha256(bytes)
            hashes[entity.name] = result
            return result
        }
        for entity in model.entities { _ = hash(of: entity, depth: 0) }
        guard problems.isEmpty else { throw ModelError(source: sourceName, problems: problems) }
        return hashes
    }

    /// `NSStoreModelVersionChecksumKey`: base64 of the SHA-256 of the entity hashes in name order.
    static func checksum(_ hashes: [String: [UInt8]]) -> String {
        Base64Encoding.encode(sha256(hashes.keys.sorted(by: codeUnitOrder).flatMap { hashes[$0]! }))
    }

    /// `NSStoreModelVersionHashesDigest`: base64 of the SHA-512 of each entity's name and hash, in name order.
    static func digest(_ hashes: [String: [UInt8]]) -> String {
        Base64Encoding.encode(SHA512.digest(of: hashes.keys.sorted(by: codeUnitOrder).flatMap { Array($0.utf8) + hashes[$0]! }))
    }

    /// A derivation as `NSExpression.predicateFormat` prints it: a key path ending in `.@count`
    /// or `.@sum` is the function `count:(path)` or `sum:(path)`; anything else as written.
    static func predicateFormat(ofDerivation expression: String) -> String {
        for function in ["count", "sum"] where expression.hasSuffix(".@" + function) {
            return "\(function):(\(expression.dropLast(function.count + 2)))"
        }
        return expression
    }

    /// `NSString compare:` without options: UTF-16 code unit order.
    static func codeUnitOrder(_ left: String, _ right: String) -> Bool {
        left.utf16.lexicographicallyPrecedes(right.utf16)
    }

    // MARK: Parts

    private static func ownProperties(of entity: CoreDataModel.Entity, problems: inout [ModelProblem]) -> [String: [UInt8]] {
        var properties: [String: [UInt8]] = [:]
        for attribute in entity.attributes where !attribute.isTransient {
            guard let hash = self.attribute(attribute) else {
                problems.append(ModelProblem(path: (attribute.attributeType?.location ?? attribute.location).path,
                                             message: "Core Data has no attribute type "
                                                + ModelProblem.quote(attribute.attributeType?.value ?? "")))
                continue
            }
            properties[attribute.name] = hash
        }
        for relationship in entity.relationships where !relationship.isTransient {
            properties[relationship.name] = self.relationship(relationship, of: entity.name)
        }
        return properties
    }

    /// The stored properties `entity` and its ancestors declare, each hashed as its declaring entity's.
    private static func inheritedProperties(of entity: CoreDataModel.Entity, in byName: [String: CoreDataModel.Entity])
        -> [String: [UInt8]]
    {
        var chain = [entity]
        while let parent = chain.last!.parentEntity.flatMap({ byName[$0.value] }), chain.count <= byName.count {
            chain.append(parent)
        }
        var ignored: [ModelProblem] = []
        var properties: [String: [UInt8]] = [:]
        for ancestor in chain.reversed() {
            for (name, value) in ownProperties(of: ancestor, problems: &ignored) { properties[name] = value }
        }
        return properties
    }

    static func sha256(_ bytes: [UInt8]) -> [UInt8] {
        SHA256.digest(of: bytes)
    }

    private static func littleEndian<Integer: FixedWidthInteger>(_ value: Integer) -> [UInt8] {
        (0..<Integer.bitWidth / 8).map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) }
    }
}

/// Base64 with the standard alphabet and padding (RFC 4648 §4), as Core Data writes the
/// checksum and digest.
enum Base64Encoding {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    static func encode(_ bytes: [UInt8]) -> String {
        var output: [UInt8] = []
        output.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index < bytes.count {
            let count = min(3, bytes.count - index)
            var group = UInt32(bytes[index]) << 16
            if count > 1 { group |= UInt32(bytes[index + 1]) << 8 }
            if count > 2 { group |= UInt32(bytes[index + 2]) }
            for position in 0..<4 {
                output.append(position <= count ? alphabet[Int(group >> UInt32(18 - 6 * position) & 63)] : UInt8(ascii: "="))
            }
            index += 3
        }
        return String(decoding: output, as: UTF8.self)
    }
}
