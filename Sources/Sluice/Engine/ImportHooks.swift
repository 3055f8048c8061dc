/// Code that takes part in an import (`docs/library.md#hooks`), as MagicalRecord's
/// `shouldImport:`, `willImport:`, `didImport:`, `import<Attribute>:` and
/// `import<Relationship>:` methods did. Set per
/// entity in `ImportOptions.hooks`; they run on the importing thread, never concurrently.
///
/// An import without hooks pays nothing for them: the importer then has no hook layer at all.
public struct EntityHooks: Sendable {
    /// Return false to skip a record: it is not written, and is counted as `skipped`.
    public var shouldImport: (@Sendable (ImportedRecord) throws -> Bool)?
    /// Called before the record joins a batch; may replace, add (an attribute's name) or
    /// remove (nil) values.
    public var willImport: (@Sendable (inout ImportedRecord) throws -> Void)?
    /// Called in input order once the record's row exists, with the row's pk: after the
    /// batch holding it is written, so up to two batches later (and at `finish()` for the
    /// last ones), before the second pass links forward references.
    public var didImport: (@Sendable (ImportedRecord, Int64) throws -> Void)?
    /// Per attribute name: takes over the conversion of the raw JSON value at the attribute's
    /// key (called only when the key is present). What it returns is stored as it is.
    public var attributes: [String: @Sendable (JSONValue) throws -> ColumnValue]
    /// Per relationship name: takes over the raw JSON value at the relationship's key (called
    /// only when the key is present; a nested object is then not imported as a record) and
    /// says what the record links to.
    public var relationships: [String: @Sendable (JSONValue) throws -> RelationshipImport]

    /// Hooks of one entity; each left out does nothing.
    public init(shouldImport: (@Sendable (ImportedRecord) throws -> Bool)? = nil,
                willImport: (@Sendable (inout ImportedRecord) throws -> Void)? = nil,
                didImport: (@Sendable (ImportedRecord, Int64) throws -> Void)? = nil,
                attributes: [String: @Sendable (JSONValue) throws -> ColumnValue] = [:],
                relationships: [String: @Sendable (JSONValue) throws -> RelationshipImport] = [:]) {
        self.shouldImport = shouldImport
        self.willImport = willImport
        self.didImport = didImport
        self.attributes = attributes
        self.relationships = relationships
    }
}

/// What a relationship's custom import (`EntityHooks.relationships`) makes of the raw value,
/// in the terms of `docs/import-semantics.md#relationships`.
public enum RelationshipImport: Sendable, Equatable {
    /// Leave the record's links as they are, as if the key were missing.
    case unchanged
    /// Unlink, as `null` does: a to-one is cleared, a to-many loses its links.
    case clear
    /// Link to the targets whose `relatedBy` attribute (by default the target's identity) has
    /// these values, as bare ids in the input would: each converted to that attribute's type,
    /// `null`s skipped, a target not imported yet linked in the second pass, the relationship's
    /// `merge` and `unresolved` applied. A to-one takes at most one (none clears it).
    case ids([JSONValue])
}

/// A record as hooks see it: converted values by attribute name, a missing key absent.
///
/// Values are kept by position beside the entity's attribute names (shared by every record of
/// the entity), not in a dictionary: a record has a handful of attributes, and hashing every
/// name twice per record was most of a hook's cost.
public struct ImportedRecord: Sendable {
    /// The entity the record is created as (a family member's own name, `docs/model.md#inheritance`).
    public let entity: String
    /// The attribute names of the entity's table, in model order (a family's record has every
    /// member's, and `"entity"`).
    public let names: [String]
    /// Indexed like `names`; nil: missing.
    var slots: [ColumnValue?]
    /// The input's name and where the record begins in it.
    public let source: String
    /// Where the record begins in `source`.
    public let position: InputPosition

    /// An attribute's converted value: nil when the record does not have it (setting nil
    /// removes it), `.null` for an explicit null. Names not in `names` read nil and are not set.
    public subscript(name: String) -> ColumnValue? {
        get { names.firstIndex(of: name).flatMap { slots[$0] } }
        set { if let index = names.firstIndex(of: name) { slots[index] = newValue } }
    }

    /// The values the record has, by attribute name.
    public var values: [String: ColumnValue] {
        var result: [String: ColumnValue] = [:]
        for (name, value) in zip(names, slots) { result[name] = value }
        return result
    }
}
