/// The slots of the open records (`ValueSlots`): each attribute and relationship collects the
/// value of the best key present, converted as it arrives; a failed conversion is kept as a
/// failure, an error only if it still wins when the record completes. What a value means for
/// the innermost open record is decided here; the slots keep it.
extension RecordAssembler {
    /// A to-many's array begins: its links replace what a worse key set. False when a better
    /// key already gave the relationship its value, or for a to-one (an error).
    mutating func startLinkArray(_ relationship: Int, _ priority: Int) -> Bool {
        let record = records.last
        guard slots.linkAccepts(record.linkBase + relationship, priority: priority, in: record.generation) else {
            return false
        }
        let plan = plan.shapes[record.entity].relationships[relationship]
        guard plan.toMany else {
            let target = self.plan.shapes[plan.target].name
            setLink(relationship, priority: priority) { _ throws(ConversionError) in
                throw ConversionError(message: "expected one \(target), got an array")
            }
            return false
        }
        slots.setLink(record.linkBase + relationship, .value(.many([])), priority: priority, generation: record.generation)
        return true
    }

    /// Sets a relationship's value for the innermost open record, if its key wins.
    mutating func setLink(_ relationship: Int, priority: Int,
                                  _ make: (MappingPlan.RelationshipPlan) throws(ConversionError) -> Link) {
        let record = records.last
        let index = record.linkBase + relationship
        guard slots.linkAccepts(index, priority: priority, in: record.generation) else { return }
        let state: Slot<Link>.State
        do {
            state = .value(try make(plan.shapes[record.entity].relationships[relationship]))
        } catch {
            state = .failed(slots.failure(error.message))
        }
        slots.setLink(index, state, priority: priority, generation: record.generation)
    }

    /// `setLink` for a bare id `id` (a string's or number's bytes) of a relationship whose
    /// `relatedBy` is a string: its text, which cannot fail to convert, as
    /// `MappingPlan.RelationshipPlan.key` makes it, without reading the relationship's plan.
    @inline(__always)  // forced: docs/performance.md#forced-inlining
    mutating func setTextLink(_ relationship: Int, priority: Int, _ id: UnsafeRawBufferPointer) {
        let record = records.innermost
        let index = record.linkBase + relationship
        guard slots.linkAccepts(index, priority: priority, in: record.generation) else { return }
        let target = LinkTarget.key(.text(recentIDs.text(of: id, for: record.firstRelationship + relationship)))
        let link: Link = events.relationships[record.firstRelationship + relationship].toMany ? .many([target]) : .one(target)
        slots.setLink(index, .value(link), priority: priority, generation: record.generation)
    }

    /// Adds one target to a to-many's list (started by its array, or by a single value).
    mutating func appendLink(_ relationship: Int, priority: Int,
                                     _ make: (MappingPlan.RelationshipPlan) throws(ConversionError) -> LinkTarget) {
        let record = records.last
        let index = record.linkBase + relationship
        guard slots.linkAccepts(index, priority: priority, in: record.generation) else { return }
        // An element that did not convert stays the list's failure: the elements after it
        // must not start the list again.
        if slots.linkFailed(index, priority: priority, in: record.generation) { return }
        let target: LinkTarget
        do {
            target = try make(plan.shapes[record.entity].relationships[relationship])
        } catch {
            slots.setLink(index, .failed(slots.failure(error.message)), priority: priority, generation: record.generation)
            return
        }
        slots.appendLink(index, target, priority: priority, generation: record.generation)
    }

    /// An attribute of the innermost open record's entity.
    func attribute(_ attribute: Int) -> EventPlan.Attribute {
        events.attributes[Int(events.entities[records.last.entity].firstAttribute) + attribute]
    }

    /// Converts a scalar for an attribute of the innermost open record, if its key wins. The
    /// hot path of `set`, without a closure.
    mutating func setConverted(_ attribute: Int, priority: Int, _ value: Scalar) {
        let record = records.innermost
        assert(record.slotBase == records.last.slotBase && record.generation == records.last.generation,
               "the innermost record's copy is stale")
        let index = record.slotBase + attribute
        guard slots.accepts(index, priority: priority, in: record.generation) else { return }
        let converter = events.converters.baseAddress! + record.firstAttribute + attribute
        let fastPaths = fastPaths
        let converted = slots.set(index, priority: priority, generation: record.generation) { arena throws(ConversionError) in
            fastPaths ? try ValueConverter.convert(converter, value, into: &arena)
                      : try converter.pointee.convertThroughValue(value, into: &arena)
        }
        if !converted { records.valueFailed() }
    }

    /// Converts a value for an attribute of the innermost open record, if its key wins.
    mutating func set(_ attribute: Int, priority: Int,
                              _ convert: (inout ByteArena) throws(ConversionError) -> Cell) {
        let record = records.innermost
        let index = record.slotBase + attribute
        guard slots.accepts(index, priority: priority, in: record.generation) else { return }
        if !slots.set(index, priority: priority, generation: record.generation, convert) { records.valueFailed() }
    }
}
