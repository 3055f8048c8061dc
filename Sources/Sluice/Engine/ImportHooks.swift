/// Code that takes part in an import (`docs/library.md#hooks`), as MagicalRecord's
/// `shouldImport:`, `willImport:`, `didImport:` and `import<Attribute>:` methods did. Set per
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

    public init(shouldImport: (@Sendable (ImportedRecord) throws -> Bool)? = nil,
                willImport: (@Sendable (inout ImportedRecord) throws -> Void)? = nil,
                didImport: (@Sendable (ImportedRecord, Int64) throws -> Void)? = nil,
                attributes: [String: @Sendable (JSONValue) throws -> ColumnValue] = [:]) {
        self.shouldImport = shouldImport
        self.willImport = willImport
        self.didImport = didImport
        self.attributes = attributes
    }
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
