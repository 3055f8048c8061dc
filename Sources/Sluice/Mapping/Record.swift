/// One record as the mapping hands it to the engine: its entity, one value per attribute
/// (missing when the record did not mention it), its links and where it starts in the input.
///
/// Lent, never given: its values and their bytes are the assembler's memory (its slots and
/// arena), valid only during the sink's `accept` call. So a record is noncopyable and only
/// ever borrowed (`RecordSink.accept(_:)`, `RecordAssembler.withCompleted(_:)`): nothing can
/// keep it past the call. Its values are read through `value(_:)`, or copied in bulk inside
/// `withUnsafeValues(_:)`, whose pointers must not outlive that closure (`EntityBatch.append`
/// copies them).
struct Record: ~Copyable {
    var entity = 0
    /// Indexed like `MappingPlan.EntityPlan.attributes`; `.null` is an explicit null.
    private var values = UnsafeBufferPointer<Cell>(start: nil, count: 0)
    /// What the text and blob values point into.
    private var bytes = UnsafeRawBufferPointer(start: nil, count: 0)
    /// Indexed like `MappingPlan.EntityPlan.relationships`; nil when the record did not
    /// mention the relationship (its links are left alone).
    var links: [Link?] = []
    var position = InputPosition(line: 0, column: 0, offset: 0)
    /// False for a record nested in another one (it completes before its parent).
    var isTopLevel = true
    /// True when its bytes are only this record's (a top-level record with no nested
    /// records), so a sink may copy them whole instead of value by value.
    var bytesAreItsOwn = false

    /// A record with no values yet: whoever makes it lends it values and bytes (`lend`) for as
    /// long as it lives.
    init() {}

    /// How many values it has: one per attribute of its entity.
    var valueCount: Int { values.count }

    /// An attribute's value as a `ColumnValue`; nil when not mentioned.
    func value(_ attribute: Int) -> ColumnValue? {
        values[attribute].columnValue(in: bytes)
    }

    /// Calls `body` with the values and the bytes their text and blobs point into, valid only
    /// during the call: copy what you keep, never the pointers.
    func withUnsafeValues<Result>(_ body: (UnsafeBufferPointer<Cell>, UnsafeRawBufferPointer) -> Result) -> Result {
        body(values, bytes)
    }

    /// The memory of its values, lent for as long as the record lives: the assembler's for the
    /// record it completes ...
    mutating func lend(values: UnsafeBufferPointer<Cell>) {
        self.values = values
    }

    /// ... and, once nothing more is added to its arena, the bytes they point into.
    mutating func lend(bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }
}

/// How the engine names a record it accepted, so that a parent can link to its nested
/// records: the record's entity and its place in that entity's batch.
struct RecordHandle: Hashable {
    var entity: Int
    var index: Int

    /// What a sink returns for a record it chose not to import (a hook's `shouldImport`, a
    /// hook's error under `--on-error skip`): its parent gets no link to it.
    static let notImported = RecordHandle(entity: -1, index: -1)
}
