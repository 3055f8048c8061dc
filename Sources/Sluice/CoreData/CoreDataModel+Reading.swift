extension CoreDataModel {
    /// Whether `path` names a Core Data model (`.xcdatamodeld`, `.xcdatamodel`, or a
    /// `.xcdatamodel`'s `contents`, or a compiled `.momd` or `.mom`).
    static func isModel(path: String) -> Bool {
        CoreDataBundle.names(path) || CompiledCoreDataModel.isCompiledModel(path)
    }

    /// Reads the `contents` XML of a `.xcdatamodel`. A document whose root is not `<model>` is
    /// a usage error; anything inside it that Sluice does not read and that could change what
    /// an import does (an XML attribute or element it does not know, a validation rule) is a
    /// note in `notes`, never silently skipped. What only concerns Xcode, code generation or
    /// Core Data's own store (class names, indexes, delete rules, the diagram's layout) is
    /// skipped without a note.
    init(_ root: XMLTree.Element, sourceName: String, notes: inout ModelProblemCollector) throws(ModelError) {
        guard root.name == "model" else {
            throw ModelError(source: sourceName, problems: [
                ModelProblem(path: "", message: "not a Core Data model: the document is <\(root.name)>, not <model>"),
            ])
        }
        var reader = CoreDataModelReader(notes: notes)
        entities = reader.entities(of: root)
        versionIdentifier = root[attribute: "userDefinedModelVersionIdentifier"]
        notes = reader.notes
    }
}

/// Walks the XML of a Core Data model in document order, collecting notes.
private struct CoreDataModelReader {
    var notes: ModelProblemCollector

    // MARK: What is read, and what is skipped without a note

    private static let skippedModelChildren: Set<String> = ["elements", "configuration", "fetchRequest"]
    private static let skippedEntityAttributes: Set<String> = [
        "representedClassName", "syncable", "codeGenerationType", "elementID", "versionHashModifier",
        "renamingIdentifier",
    ]
    private static let skippedEntityChildren: Set<String> = ["fetchedProperty", "compoundIndexes", "fetchIndex"]
    private static let skippedAttributeAttributes: Set<String> = [
        "syncable", "indexed", "indexedBySpotlight", "spotlightIndexingEnabled", "usesScalarValueType",
        "storedInTruthFile", "storedInExternalRecord", "allowsExternalBinaryDataStorage", "allowsCloudEncryption",
        "preserveAfterDeletion", "elementID", "versionHashModifier", "renamingIdentifier", "customClassName",
    ]
    private static let skippedRelationshipAttributes: Set<String> = [
        "optional", "minCount", "maxCount", "syncable", "spotlightIndexingEnabled",
        "storedInTruthFile", "storedInExternalRecord", "elementID", "versionHashModifier", "renamingIdentifier",
    ]
    /// Core Data rules an import does not apply, each with its note.
    private static let notedAttributeAttributes: [String: String] = [
        "minValueString": "not checked: Sluice does not apply Core Data's validation",
        "maxValueString": "not checked: Sluice does not apply Core Data's validation",
        "minDateTimeInterval": "not checked: Sluice does not apply Core Data's validation",
        "maxDateTimeInterval": "not checked: Sluice does not apply Core Data's validation",
        "regularExpressionString": "not checked: Sluice does not apply Core Data's validation",
        "valueTransformerName": "not applied: Sluice's layout stores the value as JSON text; in Core Data's store "
            + "(--layout coredata) the column is there and a value for it is a record error, as only the app runs the transformer",
        "derived": "not derived: the attribute is read from the JSON like any other",
        "derivationExpression": "not derived: the attribute is read from the JSON like any other",
    ]
    /// The same, for an attribute whose transformer is one of Core Data's defaults, whose
    /// archive Sluice writes.
    private static let notedAttributeAttributesWithDefaultTransformer = notedAttributeAttributes.merging([
        "valueTransformerName": "not applied: Sluice's layout stores the value as JSON text; in Core Data's store "
            + "(--layout coredata) the value is written as the keyed archive this transformer reads",
    ]) { $1 }

    // MARK: Elements

    mutating func entities(of model: XMLTree.Element) -> [CoreDataModel.Entity] {
        let location = ModelLocation.document.member("entities", at: 0)
        var entities: [CoreDataModel.Entity] = []
        for (index, child) in model.children.enumerated() {
            switch child.name {
            case "entity":
                guard let name = child[attribute: "name"], !name.isEmpty else {
                    notes.report("an <entity> without a name is not read", at: location.inside(at: index))
                    continue
                }
                entities.append(entity(child, named: name, at: location.member(name, at: index)))
            case _ where Self.skippedModelChildren.contains(child.name):
                continue
            default:
                notes.report("not read: Sluice does not know <\(child.name)>",
                             at: ModelLocation.document.member(child.name, at: index + 1))
            }
        }
        return entities
    }

    private mutating func entity(_ element: XMLTree.Element, named name: String, at location: ModelLocation)
        -> CoreDataModel.Entity
    {
        var entity = CoreDataModel.Entity(name: name, location: location)
        fields(of: element, at: location, skipped: Self.skippedEntityAttributes) { name, field in
            switch name {
            case "parentEntity": entity.parentEntity = field
            case "isAbstract": if field.value == "YES" { entity.isAbstract = field }
            case "versionHashModifier": entity.versionHashModifier = field.value
            default: return false
            }
            return true
        }
        let first = element.attributes.count
        for (index, child) in element.children.enumerated() {
            switch child.name {
            case "attribute":
                let members = location.member("attributes", at: first + index)
                if let name = requiredName(of: child, kind: "attribute", at: members) {
                    entity.attributes.append(attribute(child, named: name, at: members.member(name, at: 0)))
                }
            case "relationship":
                let members = location.member("relationships", at: first + index)
                if let name = requiredName(of: child, kind: "relationship", at: members) {
                    entity.relationships.append(relationship(child, named: name, at: members.member(name, at: 0)))
                }
            case "userInfo":
                entity.userInfo += userInfo(child, at: location.member("userInfo", at: first + index))
            case "uniquenessConstraints":
                entity.uniquenessConstraints = Self.uniquenessConstraints(child)
                entity.uniquenessConstraintsLocation = location.member(child.name, at: first + index)
            case "fetchIndex":
                entity.fetchIndexes.append(Self.fetchIndex(child))
            case "compoundIndexes":
                entity.compoundIndexes += Self.compoundIndexes(child)
            case _ where Self.skippedEntityChildren.contains(child.name):
                continue
            default:
                notes.report("not read: Sluice does not know <\(child.name)>", at: location.member(child.name, at: first + index))
            }
        }
        return entity
    }

    private mutating func attribute(_ element: XMLTree.Element, named name: String, at location: ModelLocation)
        -> CoreDataModel.Attribute
    {
        // Core Data writes `optional="YES"` and `transient="YES"`; a missing one means NO.
        var attribute = CoreDataModel.Attribute(name: name, location: location, isOptional: false, isTransient: false)
        let transformer = element.attributes.first { $0.name == "valueTransformerName" }?.value
        let noted = transformer.map(KeyedArchive.defaultTransformers.contains) == true
            ? Self.notedAttributeAttributesWithDefaultTransformer : Self.notedAttributeAttributes
        fields(of: element, at: location, skipped: Self.skippedAttributeAttributes, noted: noted) { name, field in
            switch name {
            case "attributeType": attribute.attributeType = field
            case "optional": attribute.isOptional = field.value == "YES"
            case "transient": attribute.isTransient = field.value == "YES"
            case "defaultValueString": attribute.defaultValueString = field
            case "defaultDateTimeInterval": attribute.defaultDateTimeInterval = field
            case "versionHashModifier": attribute.versionHashModifier = field.value
            case "allowsExternalBinaryDataStorage": attribute.allowsExternalStorage = field.value == "YES"
            case "preserveAfterDeletion": attribute.preservesValueInHistoryOnDeletion = field.value == "YES"
            case "indexed": attribute.isIndexed = field.value == "YES"
            // Read for Core Data's store, and still noted: an import in Sluice's layout ignores them.
            case "derived": attribute.isDerived = field.value == "YES"; return false
            case "derivationExpression": attribute.derivationExpression = field.value; return false
            case "valueTransformerName": attribute.valueTransformerName = field.value; return false
            default: return false
            }
            return true
        }
        attribute.userInfo = userInfo(in: element, at: location, after: element.attributes.count)
        return attribute
    }

    private mutating func relationship(_ element: XMLTree.Element, named name: String, at location: ModelLocation)
        -> CoreDataModel.Relationship
    {
        var relationship = CoreDataModel.Relationship(name: name, location: location, isToMany: false, isTransient: false)
        fields(of: element, at: location, skipped: Self.skippedRelationshipAttributes) { name, field in
            switch name {
            case "destinationEntity": relationship.destinationEntity = field
            case "inverseName": relationship.inverseName = field
            case "inverseEntity": relationship.inverseEntity = field
            case "toMany": relationship.isToMany = field.value == "YES"
            case "ordered": if field.value == "YES" { relationship.ordered = field }
            case "transient": relationship.isTransient = field.value == "YES"
            case "optional": relationship.isOptional = field.value == "YES"
            case "minCount": relationship.minCount = Int(field.value) ?? 0
            case "maxCount": relationship.maxCount = Int(field.value) ?? 0
            case "versionHashModifier": relationship.versionHashModifier = field.value
            case "deletionRule": relationship.deletionRule = field
            default: return false
            }
            return true
        }
        // Xcode writes `maxCount="1"` on every to-one; one without it is still a to-one.
        if !relationship.isToMany && element[attribute: "maxCount"] == nil { relationship.maxCount = 1 }
        relationship.userInfo = userInfo(in: element, at: location, after: element.attributes.count)
        return relationship
    }

    /// The `userInfo` children of an attribute or relationship; other children are noted.
    private mutating func userInfo(in element: XMLTree.Element, at location: ModelLocation, after first: Int)
        -> [CoreDataModel.UserInfoEntry]
    {
        var entries: [CoreDataModel.UserInfoEntry] = []
        for (index, child) in element.children.enumerated() {
            let place = location.member(child.name, at: first + index)
            if child.name == "userInfo" {
                entries += userInfo(child, at: place)
            } else {
                notes.report("not read: Sluice does not know <\(child.name)>", at: place)
            }
        }
        return entries
    }

    /// The entries of one `<userInfo>`; a key given twice keeps its first value.
    private mutating func userInfo(_ element: XMLTree.Element, at location: ModelLocation) -> [CoreDataModel.UserInfoEntry] {
        var entries: [CoreDataModel.UserInfoEntry] = []
        for (index, child) in element.children.enumerated() {
            guard child.name == "entry", let key = child[attribute: "key"] else {
                notes.report("not read: expected <entry key=… value=…>", at: location.inside(at: index))
                continue
            }
            let place = location.member(key, at: index)
            if entries[key] != nil {
                notes.report("not used: the key is given twice, and the first value is used", at: place)
                continue
            }
            entries.append(.init(key: key, value: child[attribute: "value"] ?? "", location: place))
        }
        return entries
    }

    // MARK: What only Core Data's store reads (no notes: an import in Sluice's layout skips them)

    /// `<uniquenessConstraint><constraint value="a"/>…</uniquenessConstraint>…`
    private static func uniquenessConstraints(_ element: XMLTree.Element) -> [[String]] {
        element.children.filter { $0.name == "uniquenessConstraint" }.map { constraint in
            constraint.children.compactMap { $0.name == "constraint" ? $0[attribute: "value"] : nil }
        }
    }

    /// `<fetchIndex name="n"><fetchIndexElement property="p" type="Binary" order="ascending"/>…`
    private static func fetchIndex(_ element: XMLTree.Element) -> CoreDataModel.FetchIndex {
        CoreDataModel.FetchIndex(name: element[attribute: "name"] ?? "", elements: element.children.compactMap { child in
            guard child.name == "fetchIndexElement", let property = child[attribute: "property"] else { return nil }
            return .init(property: property, type: child[attribute: "type"] ?? "Binary",
                         ascending: child[attribute: "order"] != "descending")
        })
    }

    /// `<compoundIndexes><compoundIndex><index value="p"/>…</compoundIndex>…`
    private static func compoundIndexes(_ element: XMLTree.Element) -> [[String]] {
        element.children.filter { $0.name == "compoundIndex" }.map { index in
            index.children.compactMap { $0.name == "index" ? $0[attribute: "value"] : nil }
        }
    }

    private mutating func requiredName(of element: XMLTree.Element, kind: String, at location: ModelLocation) -> String? {
        guard let name = element[attribute: "name"], !name.isEmpty else {
            notes.report("an <\(kind)> without a name is not read", at: location)
            return nil
        }
        return name
    }

    /// Walks the XML attributes of `element` but its `name`: `read` takes those it knows
    /// (returning true); the skipped ones pass silently; any other is a note, the one `noted`
    /// gives it or "not read".
    private mutating func fields(of element: XMLTree.Element, at location: ModelLocation, skipped: Set<String>,
                                 noted: [String: String] = [:], read: (_ name: String, CoreDataModel.Field) -> Bool)
    {
        for (index, attribute) in element.attributes.enumerated() where attribute.name != "name" {
            let field = CoreDataModel.Field(value: attribute.value, location: location.member(attribute.name, at: index))
            guard !read(attribute.name, field), !skipped.contains(attribute.name) else { continue }
            notes.report(noted[attribute.name] ?? "not read: Sluice does not know this setting", at: field.location)
        }
    }
}
