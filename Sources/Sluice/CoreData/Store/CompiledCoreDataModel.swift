/// A compiled Core Data model (`.momd`, what Xcode builds from a `.xcdatamodeld`), read into
/// the same `CoreDataModel` as the XML: its `VersionInfo.plist` names the current version, whose
/// `.mom` is a keyed archive (a binary property list of objects that refer to each other).
///
/// Only what the archives seen hold is read; any other key of an entity or property, another
/// kind of property (fetched, derived, composite) or flags not seen is an error, never
/// skipped. And the entity hashes computed from what was read must equal those the compiler
/// wrote in `VersionInfo.plist`: what Sluice cannot read faithfully is refused, not guessed.
enum CompiledCoreDataModel {
    /// Whether `path` names a compiled model: a `.momd` bundle, one `.mom` in it or alone, or a
    /// Core Data store carrying its model (`CoreDataModelCache`).
    static func isCompiledModel(_ path: String) -> Bool {
        let path = trimmed(path)
        return path.hasSuffix(".momd") || path.hasSuffix(".mom") || CoreDataModelCache.isStore(path)
    }

    /// The current version of the `.momd` bundle `path` names, or the `.mom` it names. The
    /// current version is the one `VersionInfo.plist` (binary or XML) names, or its only one
    /// when it names none (a bundle of one version, as some build tools write it). A `.mom` in a
    /// `.momd` is checked against its bundle's `VersionInfo.plist`; a `.mom` alone has no
    /// recorded hashes to check, only the keys it holds (`ArchiveReader`). A Core Data store's
    /// own model is read from the store (`CoreDataModelCache`).
    static func read(momd path: String) throws -> (model: CoreDataModel, bytes: [UInt8]) {
        let path = trimmed(path)
        if !path.hasSuffix(".momd"), !path.hasSuffix(".mom") { return try CoreDataModelCache.read(store: path) }
        if path.hasSuffix(".mom") {
            let bytes = try CoreDataBundle.bytes(of: path)
            let model = try read(mom: bytes, source: path)
            let parts = path.split(separator: "/", omittingEmptySubsequences: false)
            let folder = parts.dropLast().joined(separator: "/")
            let infoPath = folder + "/VersionInfo.plist"
            if folder.hasSuffix(".momd"), SystemCalls.status(ofPath: infoPath)?.isRegularFile == true {
                let version = String(parts[parts.count - 1].dropLast(".mom".count))
                try check(model, version: version, info: PropertyList.read(CoreDataBundle.bytes(of: infoPath), sourceName: infoPath),
                          infoPath: infoPath, path: path)
            }
            return (model, bytes)
        }
        let infoPath = path + "/VersionInfo.plist"
        let info = try PropertyList.read(CoreDataBundle.bytes(of: infoPath), sourceName: infoPath)
        let version = try currentVersion(info, folder: path, infoPath: infoPath)
        let bytes = try CoreDataBundle.bytes(of: path + "/" + version + ".mom")
        let model = try read(mom: bytes, source: path + "/" + version + ".mom")
        try check(model, version: version, info: info, infoPath: infoPath, path: path)
        return (model, bytes)
    }

    /// `NSManagedObjectModel_CurrentVersionName`, or else the one version the bundle has.
    private static func currentVersion(_ info: PropertyList, folder: String, infoPath: String) throws(SluiceError) -> String {
        if let version = info["NSManagedObjectModel_CurrentVersionName"]?.string {
            guard !version.contains("/") else { throw SluiceError(.usage, "'\(infoPath)' names no version of the bundle") }
            return version
        }
        let versions = (info["NSManagedObjectModel_VersionHashes"]?.dictionary ?? []).map(\.key)
        let files = SystemCalls.fileNames(inDirectory: folder).filter { $0.hasSuffix(".mom") }.map { String($0.dropLast(".mom".count)) }
        let candidates = Set(versions.isEmpty ? files : versions)
        guard candidates.count == 1, let only = candidates.first, !only.contains("/") else {
            throw SluiceError(.usage, "'\(infoPath)' names no current version (NSManagedObjectModel_CurrentVersionName) and the "
                                + "bundle holds \(candidates.count) (\(candidates.sorted().joined(separator: ", "))): give the "
                                + "version's .mom, or the .xcdatamodeld")
        }
        return only
    }

    /// The entity hashes computed from `model` must be those `info` records for `version`.
    private static func check(_ model: CoreDataModel, version: String, info: PropertyList, infoPath: String,
                              path: String) throws {
        guard let recorded = info["NSManagedObjectModel_VersionHashes"]?[version]?.dictionary else {
            throw SluiceError(.usage, "'\(infoPath)' holds no version hashes of \(version)")
        }
        let hashes = try VersionHash.entityHashes(of: model, sourceName: path)
        let differing = recorded.first { hashes[$0.key] != $0.value.data }?.key
            ?? hashes.keys.sorted().first { name in !recorded.contains { $0.key == name } }
        if let differing {
            throw SluiceError(.usage, "'\(path)': the version hash of \(differing) computed from \(version).mom differs from the "
                                + "one its VersionInfo.plist records: the compiled model holds what Sluice does not read; "
                                + "give the .xcdatamodeld instead")
        }
    }

    private static func trimmed(_ path: String) -> String {
        var path = Substring(path)
        while path.count > 1, path.hasSuffix("/") { path = path.dropLast() }
        return String(path)
    }

    /// One `.mom`: a keyed archive whose root is the `NSManagedObjectModel`.
    static func read(mom bytes: [UInt8], source: String) throws(SluiceError) -> CoreDataModel {
        let archive = try PropertyList.read(bytes, sourceName: source)
        guard let objects = archive["$objects"]?.array, case .uid(let root)? = archive["$top"]?["root"],
              Int(exactly: root).map({ $0 > 0 && $0 < objects.count }) == true
        else {
            throw SluiceError(.usage, "'\(source)' is not a keyed archive of a Core Data model")
        }
        var reader = ArchiveReader(objects: objects, source: source)
        return try reader.model(objects[Int(root)])
    }

    private struct ArchiveReader {
        let objects: [PropertyList]
        let source: String

        static let modelKeys: Set<String> = ["$class", "NSEntities", "CDMCompilerToolVersion", "CDMCompilerXcodeVersion",
                                             "NSFetchRequestTemplates", "NSVersionIdentifiers",
                                             // SwiftData's model names its configuration: which store holds which
                                             // entities, nothing the store's tables or hashes depend on.
                                             "NSConfigurations"]
        static let entityKeys: Set<String> = ["$class", "NSEntityName", "NSClassNameForEntity", "NSUserInfo", "NSSubentities",
                                              "NSVersionHashModifier", "NSProperties", "NSRenamingIdentifier",
                                              "NSManagedObjectModel", "NSSuperentity", "NSUniqueTuples",
                                              "NSCompoundIndexes", "NSFetchIndexDescriptions"]
        static let attributeKeys: Set<String> = ["$class", "_P", "NSDefaultValue", "NSAttributeType", "NSAttributeValueClassName",
                                                 "NSEntity", "NSValueTransformerName", "NSPropertyName", "NSFlagsKey",
                                                 "NSRenamingIdentifier", "NSIsOptional"]
        static let relationshipKeys: Set<String> = ["$class", "_P", "NSDestinationEntity", "NSEntity", "NSDeleteRule",
                                                    "NSInverseRelationship", "_NSInverseRelationshipName", "NSIsOptional",
                                                    "NSMaxCount", "NSPropertyName", "NSRenamingIdentifier", "NSMinCount",
                                                    "_NSDestinationEntityName"]
        /// The property flags (`_P`) seen: a required and an optional stored property.
        static let knownFlags: Set<Int64> = [241, 243]

        func fail(_ message: String) -> SluiceError {
            SluiceError(.usage, "'\(source)': \(message); Sluice reads only what it knows of a compiled model: "
                            + "give the .xcdatamodeld instead")
        }

        /// The object a reference names; nil for `$null` (reference 0).
        func resolve(_ value: PropertyList?) throws(SluiceError) -> PropertyList? {
            guard case .uid(let index)? = value else { return value }
            guard let index = Int(exactly: index), index < objects.count else { throw fail("a reference leads nowhere") }
            return index == 0 ? nil : objects[index]
        }

        func string(_ value: PropertyList?) throws(SluiceError) -> String? {
            try resolve(value)?.string
        }

        /// An archived `NSArray`'s elements (references); empty for `$null` or no value.
        func array(_ value: PropertyList?) throws(SluiceError) -> [PropertyList] {
            guard let object = try resolve(value) else { return [] }
            guard let elements = object["NS.objects"]?.array else { throw fail("an array is not one") }
            return elements
        }

        func className(_ object: PropertyList) throws(SluiceError) -> String? {
            try resolve(object["$class"])?["$classname"]?.string
        }

        /// An archived `NSDictionary`: its keys (strings) and values, in the archive's order. A
        /// model Core Data archived at run time (a store's `Z_MODELCACHE`) holds its entities in
        /// an `NSKnownKeysDictionary1`: the keys in its `searchMapping`, the values in the same
        /// order, a slot holding `emptyToken` empty.
        func dictionary(_ value: PropertyList?) throws(SluiceError) -> [(key: String, value: PropertyList)] {
            guard let object = try resolve(value) else { return [] }
            var (keys, values, empty) = (object["NS.keys"]?.array, object["NS.objects"]?.array, String?.none)
            if keys == nil, values == nil, let mapping = try resolve(object["searchMapping"]) {
                (keys, values, empty) = (try array(mapping["keys"]), try array(object["values"]), try string(object["emptyToken"]))
            }
            guard let keys, let values, keys.count == values.count else { throw fail("a dictionary is not one") }
            var members: [(key: String, value: PropertyList)] = []
            for (key, value) in zip(keys, values) {
                guard let name = try string(key), let resolved = try resolve(value) else { throw fail("a dictionary key is not a string") }
                if let empty, resolved.string == empty { continue }
                members.append((name, resolved))
            }
            return members
        }

        func checkKeys(_ object: PropertyList, _ known: Set<String>, of what: String) throws(SluiceError) {
            guard let members = object.dictionary else { throw fail("\(what) is not an object") }
            if let unknown = members.first(where: { !known.contains($0.key) }) {
                throw fail("\(what) holds \(unknown.key)")
            }
        }

        mutating func model(_ root: PropertyList) throws(SluiceError) -> CoreDataModel {
            try checkKeys(root, Self.modelKeys, of: "the model")
            var identifiers: [String] = []
            if let set = try resolve(root["NSVersionIdentifiers"]) {
                for element in set["NS.objects"]?.array ?? [] {
                    guard let identifier = try string(element) else { throw fail("a version identifier is not a string") }
                    identifiers.append(identifier)
                }
            }
            guard identifiers.count <= 1 else { throw fail("the model has \(identifiers.count) version identifiers") }
            let entities = try dictionary(root["NSEntities"]).sorted { VersionHash.codeUnitOrder($0.key, $1.key) }
            let location = ModelLocation.document.member("entities", at: 0)
            var model = CoreDataModel(entities: [], versionIdentifier: identifiers.first)
            for (index, (name, object)) in entities.enumerated() {
                model.entities.append(try entity(object, named: name, at: location.member(name, at: index)))
            }
            return model
        }

        func entity(_ object: PropertyList, named name: String, at location: ModelLocation) throws(SluiceError) -> CoreDataModel.Entity {
            try checkKeys(object, Self.entityKeys, of: "the entity \(name)")
            var entity = CoreDataModel.Entity(name: name, location: location)
            var inherited: Set<String> = []
            if let parent = try resolve(object["NSSuperentity"]) {
                inherited = Set(try dictionary(parent["NSProperties"]).map(\.key))
                guard let parentName = try string(parent["NSEntityName"]) else { throw fail("\(name)'s parent has no name") }
                entity.parentEntity = .init(value: parentName, location: location.member("parentEntity", at: 0))
            }
            entity.versionHashModifier = try string(object["NSVersionHashModifier"])
            // Uniqueness constraints: an array of arrays of property names.
            for tuple in try array(object["NSUniqueTuples"]) {
                var names: [String] = []
                for element in try array(tuple) {
                    guard let name = try string(element) else { throw fail("a uniqueness constraint of \(name) names no property") }
                    names.append(name)
                }
                entity.uniquenessConstraints.append(names)
            }
            // Their forms are not known from a real archive: refused rather than guessed.
            for (key, kind) in [("NSCompoundIndexes", "compound"), ("NSFetchIndexDescriptions", "fetch")] {
                if try !array(object[key]).isEmpty { throw fail("the entity \(name) has \(kind) indexes") }
            }
            entity.userInfo = try dictionary(object["NSUserInfo"]).enumerated().map { index, member in
                .init(key: member.key, value: member.value.string ?? "", location: location.member("userInfo", at: 1).member(member.key, at: index))
            }
            for (index, (propertyName, property)) in try dictionary(object["NSProperties"])
                .sorted(by: { VersionHash.codeUnitOrder($0.key, $1.key) }).enumerated()
            {
                let what = "\(name).\(propertyName)"
                // A model archived at run time lists a sub-entity's inherited properties too: each
                // is read once, in the entity that declares it.
                if inherited.contains(propertyName) { continue }
                guard case .integer(let flags)? = property["_P"], Self.knownFlags.contains(flags) else {
                    throw fail("\(what) has property flags Sluice does not know")
                }
                let isOptional = property["NSIsOptional"] == .bool(true)
                switch try className(property) {
                case "NSAttributeDescription":
                    try checkKeys(property, Self.attributeKeys, of: what)
                    guard case .integer(let code)? = property["NSAttributeType"],
                          let type = VersionHash.attributeTypeCodes.first(where: { Int64($0.value) == code })?.key
                    else { throw fail("\(what) has an attribute type Sluice does not know") }
                    let place = location.member("attributes", at: 2 + index).member(propertyName, at: 0)
                    var attribute = CoreDataModel.Attribute(name: propertyName, location: place,
                                                            attributeType: .init(value: type, location: place.member("attributeType", at: 0)),
                                                            isOptional: isOptional, isTransient: false)
                    attribute.valueTransformerName = try string(property["NSValueTransformerName"])
                    entity.attributes.append(attribute)
                case "NSRelationshipDescription":
                    try checkKeys(property, Self.relationshipKeys, of: what)
                    guard let destination = try string(property["_NSDestinationEntityName"]),
                          case .integer(let minCount)? = property["NSMinCount"], case .integer(let maxCount)? = property["NSMaxCount"]
                    else { throw fail("\(what) has no destination or counts") }
                    let place = location.member("relationships", at: 2 + index).member(propertyName, at: 0)
                    var relationship = CoreDataModel.Relationship(
                        name: propertyName, location: place, destinationEntity: .init(value: destination, location: place),
                        isToMany: maxCount != 1, isTransient: false)
                    if let inverse = try string(property["_NSInverseRelationshipName"]) {
                        relationship.inverseName = .init(value: inverse, location: place)
                        relationship.inverseEntity = .init(value: destination, location: place)
                    }
                    (relationship.isOptional, relationship.minCount, relationship.maxCount) = (isOptional, Int(minCount), Int(maxCount))
                    // The raw value of `NSDeleteRule`, named as the XML names it.
                    if case .integer(let rule)? = property["NSDeleteRule"] {
                        let names = [0: "No Action", 1: "Nullify", 2: "Cascade", 3: "Deny"]
                        relationship.deletionRule = .init(value: names[Int(rule)] ?? String(rule), location: place)
                    }
                    entity.relationships.append(relationship)
                default:
                    throw fail("\(what) is a kind of property Sluice does not read")
                }
            }
            return entity
        }
    }
}
