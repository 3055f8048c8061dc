/// The slots of the open records: each attribute and relationship collects the value of the
/// best key present (`Slot`), converted as it arrives; a failed conversion is kept as a
/// failure, an error only if it still wins when the record completes.
extension RecordAssembler {
    /// A to-many's array begins: its links replace what a worse key set. False when a better
    /// key already gave the relationship its value, or for a to-one (an error).
    mutating func startLinkArray(_ relationship: Int, _ priority: Int) -> Bool {
        let record = records[open - 1]
        guard linkSlots[record.linkBase + relationship].accepts(priority: priority, in: record.generation) else {
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
        linkSlots[record.linkBase + relationship] = Slot(priority: priority, state: .value(.many([])),
                                                         generation: record.generation)
        return true
    }

    /// Sets a relationship's value for the innermost open record, if its key wins.
    mutating func setLink(_ relationship: Int, priority: Int,
                                  _ make: (MappingPlan.RelationshipPlan) throws(ConversionError) -> Link) {
        let record = records[open - 1]
        let index = record.linkBase + relationship
        guard linkSlots[index].accepts(priority: priority, in: record.generation) else { return }
        let state: Slot<Link>.State
        do {
            state = .value(try make(plan.shapes[record.entity].relationships[relationship]))
        } catch {
            state = .failed(failure(error.message))
        }
        linkSlots[index] = Slot(priority: priority, state: state, generation: record.generation)
    }

    /// Adds one target to a to-many's list (started by its array, or by a single value).
    mutating func appendLink(_ relationship: Int, priority: Int,
                                     _ make: (MappingPlan.RelationshipPlan) throws(ConversionError) -> LinkTarget) {
        let record = records[open - 1]
        let index = record.linkBase + relationship
        let slot = linkSlots[index]
        guard slot.accepts(priority: priority, in: record.generation) else { return }
        // An element that did not convert stays the list's failure: the elements after it
        // must not start the list again.
        if slot.priority == priority, case .failed = slot.state(in: record.generation) { return }
        let target: LinkTarget
        do {
            target = try make(plan.shapes[record.entity].relationships[relationship])
        } catch {
            linkSlots[index] = Slot(priority: priority, state: .failed(failure(error.message)),
                                    generation: record.generation)
            return
        }
        guard slot.priority == priority, case .value(.many(var list)) = slot.state(in: record.generation) else {
            linkSlots[index] = Slot(priority: priority, state: .value(.many([target])), generation: record.generation)
            return
        }
        // Release the slot's reference first so the list is appended in place.
        linkSlots[index].state = .missing
        list.append(target)
        linkSlots[index] = Slot(priority: priority, state: .value(.many(list)), generation: record.generation)
    }

    /// An attribute of the innermost open record's entity.
    @inline(__always)
    func attribute(_ attribute: Int) -> EventPlan.Attribute {
        events.attributes[Int(events.entities[records[open - 1].entity].firstAttribute) + attribute]
    }

    /// Keeps a failure's message for the slot that records it.
    mutating func failure(_ message: String) -> Int {
        failures.append(message)
        return failures.count - 1
    }

    /// Converts a scalar for an attribute of the innermost open record, if its key wins. The
    /// hot path of `set`, without a closure.
    @inline(__always)
    mutating func setConverted(_ attribute: Int, priority: Int, _ value: Scalar) {
        let record = innermost
        assert(record.slotBase == records[open - 1].slotBase && record.generation == records[open - 1].generation,
               "the innermost record's copy is stale")
        let index = record.slotBase + attribute
        guard cells[index].accepts(priority: priority, in: record.generation) else { return }
        let converter = events.converters.baseAddress! + record.firstAttribute + attribute
        do {
            let cell = fastPaths ? try ValueConverter.convert(converter, value, into: &arena)
                                 : try converter.pointee.convertThroughValue(value, into: &arena)
            cells[index] = CellSlot(.value(cell), priority: priority, generation: record.generation)
        } catch {
            fail(index, error, priority: priority)
        }
    }

    /// Converts a value for an attribute of the innermost open record, if its key wins.
    @inline(__always)
    mutating func set(_ attribute: Int, priority: Int,
                              _ convert: (inout ByteArena) throws(ConversionError) -> Cell) {
        let record = innermost
        let index = record.slotBase + attribute
        guard cells[index].accepts(priority: priority, in: record.generation) else { return }
        do {
            let cell = try convert(&arena)
            cells[index] = CellSlot(.value(cell), priority: priority, generation: record.generation)
        } catch {
            fail(index, error, priority: priority)
        }
    }

    /// The value for the slot at `index` did not convert: the innermost open record keeps the
    /// failure, an error if it still wins when the record completes.
    @inline(never)
    private mutating func fail(_ index: Int, _ error: ConversionError, priority: Int) {
        records[open - 1].hadFailure = true
        cells[index] = CellSlot(.failed(failure(error.message)), priority: priority, generation: innermost.generation)
    }
}
