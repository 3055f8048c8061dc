/// The records begun and not yet completed, the innermost last: a part of `RecordAssembler`,
/// tested on its own (`OpenRecordsTests`). A record opens at its `{` (a nested one inside the
/// record that holds it) and ends at its `}`; what it knows meanwhile is plain values: its
/// entity, where its slots start in `ValueSlots` and their number, its position, what made it
/// wrong. The unit of rejection is the top-level record (`docs/import-semantics.md`): a nested
/// record that fails rejects it, kept here until it ends.
///
/// Plain values only in a buffer reused from record to record, so that beginning one stores a
/// few words and reading one copies bits.
struct OpenRecords {
    /// A record begun and not yet completed.
    struct Record {
        var entity: Int
        /// Where its attributes' and its relationships' slots start in `ValueSlots`.
        var slotBase: Int
        var linkBase: Int
        var position: InputPosition
        /// Numbers the record: its slots are those that carry this number.
        var generation: Int
        /// For a nested record: the relationship of the record below it that it is a value of.
        var parent: (relationship: Int, priority: Int)?
        /// Set by invalid text anywhere inside it (`ValueSlots` holds the message): the record
        /// is rejected when it completes.
        var invalidText: Int?
        /// Whether a value of one of its attributes failed to convert (and may still win), so
        /// that completing it checks every slot.
        var hadFailure = false
        /// The place of the current element of its open to-many array (from 0), for a
        /// relationship's `position`.
        var element = 0
    }

    /// What a value needs of the innermost open record, kept beside the records so that
    /// setting a value reads three numbers instead of a whole `Record` from the array.
    struct Innermost {
        var slotBase = 0
        var generation = 0
        /// Where its entity's attributes start in `EventPlan.attributes` and `converters`.
        var firstAttribute = 0
        /// Where its relationships' slots start in `ValueSlots`, and its entity's in
        /// `EventPlan.relationships`.
        var linkBase = 0
        var firstRelationship = 0
    }

    private let entities: UnsafeBufferPointer<EventPlan.Entity>
    /// Only the first `count` are open; the rest are kept for the next records.
    private var records: [Record] = []
    /// How many records are open: 0 outside records.
    private(set) var count = 0
    private(set) var innermost = Innermost()
    /// Whether the current top-level record has had a nested record (whose bytes then share
    /// the arena with it).
    private var hadNestedRecord = false
    /// Why the current top-level record is rejected, set when a record nested in it failed.
    private var rejection: SluiceError.Reason?

    init(_ plan: EventPlan) {
        entities = plan.entities
    }

    /// A record of `entity` begins at `position`: top-level when none is open, else nested in
    /// the innermost open one (`parent`: the relationship of that one it is a value of), its
    /// slots after that one's. `slots` numbers it.
    @inline(__always)  // forced: docs/performance.md#forced-inlining
    mutating func begin(_ entity: Int, at position: InputPosition, parent: (relationship: Int, priority: Int)?,
                        slots: inout ValueSlots) {
        var record = Record(entity: entity, slotBase: 0, linkBase: 0, position: position, generation: 0, parent: parent)
        if count == 0 {
            slots.beginTopLevel()
            hadNestedRecord = false
            rejection = nil
        } else {
            hadNestedRecord = true
            let outer = records[count - 1]
            record.slotBase = outer.slotBase + Int(entities[outer.entity].attributeCount)
            record.linkBase = outer.linkBase + Int(entities[outer.entity].relationshipCount)
        }
        // The slots keep what earlier records left; the new number makes them missing.
        let shape = entities[entity]
        record.generation = slots.begin(cellBase: record.slotBase, cellCount: Int(shape.attributeCount),
                                        linkBase: record.linkBase, linkCount: Int(shape.relationshipCount))
        if count < records.count { records[count] = record } else { records.append(record) }
        count += 1
        innermost = Innermost(slotBase: record.slotBase, generation: record.generation,
                              firstAttribute: Int(shape.firstAttribute), linkBase: record.linkBase,
                              firstRelationship: Int(shape.firstRelationship))
    }

    /// The innermost record ends: it is no longer open, the one around it is innermost again.
    @inline(__always)  // forced: docs/performance.md#forced-inlining
    mutating func end() -> Record {
        count -= 1
        let record = records[count]
        if count > 0 {
            let outer = records[count - 1]
            innermost = Innermost(slotBase: outer.slotBase, generation: outer.generation,
                                  firstAttribute: Int(entities[outer.entity].firstAttribute), linkBase: outer.linkBase,
                                  firstRelationship: Int(entities[outer.entity].firstRelationship))
        }
        return record
    }

    /// The innermost open record.
    var last: Record {
        get { records[count - 1] }
    }

    /// The top-level open record.
    var first: Record { records[0] }

    /// Whether the record that just ended (`end()`) is top-level with no record nested in it:
    /// its values' bytes are its own.
    var endedAlone: Bool { count == 0 && !hadNestedRecord }

    // MARK: The innermost record

    /// The innermost record is completed as `entity` (a family's member chosen by its value).
    mutating func completeAs(_ entity: Int) {
        records[count - 1].entity = entity
    }

    /// A value of the innermost record failed to convert: completing it checks every slot.
    /// Out of line: written in line, the array's uniqueness check was hoisted ahead of every value.
    @inline(never)
    mutating func valueFailed() {
        records[count - 1].hadFailure = true
    }

    /// Invalid text inside the innermost record rejects it when it completes: `failure` numbers
    /// the message (`ValueSlots.failure`), the first one kept.
    mutating func invalidText(_ failure: () -> Int) {
        if records[count - 1].invalidText == nil { records[count - 1].invalidText = failure() }
    }

    /// A to-many's array of the innermost record opens: its elements count from 0.
    mutating func startElements() {
        records[count - 1].element = 0
    }

    /// The next element of the innermost record's open to-many array: its place.
    mutating func nextElement() -> Int {
        let element = records[count - 1].element
        records[count - 1].element += 1
        return element
    }

    // MARK: Rejection

    /// A nested record failed: the top-level record is rejected for `reason` when it ends.
    mutating func rejectTopLevel(_ reason: SluiceError.Reason) {
        rejection = reason
    }

    /// Whether a nested record rejected the current top-level record.
    var isRejecting: Bool {
        get { rejection != nil }
    }

    /// Why the top-level record that just ended is rejected; nil for a nested record (which
    /// ends as nothing) or when none failed.
    mutating func takeRejection() -> SluiceError.Reason? {
        count == 0 ? rejection.take() : nil
    }
}
