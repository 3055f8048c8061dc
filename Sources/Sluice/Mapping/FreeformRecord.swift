/// A zero-config record (`FreeformAssembler`): one value per column known when it
/// completed, nil where the record has no such key.
///
/// Unlike a `Record`, its values are its own, not pointers into the assembler: a sink may keep
/// it (the assembler's next record then begins from a copy of the storage it reuses).
struct FreeformRecord {
    var values: [ColumnValue?]
    var position: InputPosition
}
