/// Records begin at their opening brace (a nested record inside the one that holds it) and
/// complete at their closing one: the winning value of each slot becomes the record's value.
extension RecordAssembler {
    mutating func beginRecord(_ entity: Int, at position: InputPosition,
                                      parent: (relationship: Int, priority: Int)? = nil) {
        records.begin(entity, at: position, parent: parent, slots: &slots)
        let shape = events.entities[entity]
        frames.append(.object(node: Int(shape.rootNode), isRecord: true, isFamily: shape.isFamilyMember))
        keys.enter(Int(shape.rootNode))
    }

    /// An object at a relationship's key: a record of its target, nested in the current one.
    mutating func beginNested(relationship: Int, priority: Int, at position: InputPosition) {
        let target = plan.shapes[records.last.entity].relationships[relationship].target
        beginRecord(target, at: position, parent: (relationship, priority))
    }

    /// Links the nested record that just completed (now numbered `handle` by the sink) to
    /// its parent. Call after every `.record` action; top-level records need none.
    mutating func attach(_ handle: RecordHandle) {
        guard let (relationship, priority) = completedParent else { return }
        completedParent = nil
        guard handle.entity >= 0 else { return }  // `RecordHandle.notImported`
        let toMany = plan.shapes[records.last.entity].relationships[relationship].toMany
        if toMany {
            appendLink(relationship, priority: priority) { _ in .record(handle) }
        } else {
            setLink(relationship, priority: priority) { _ in .one(.record(handle)) }
        }
    }

    /// The innermost open record's object closed: its values become `completed` (a `.record`),
    /// or it is rejected for the first attribute or relationship that is wrong. A nested
    /// record that is wrong rejects its top-level record instead (`OpenRecords.rejectTopLevel`).
    @inline(__always)  // forced: docs/performance.md#forced-inlining
    mutating func completeRecord() -> Action {
        recordCount += 1
        let record = records.end()
        completedParent = nil
        if records.isRejecting { return completeInRejected() }
        let entity = events.entities[record.entity]
        let attributeCount = Int(entity.attributeCount)
        let relationshipCount = Int(entity.relationshipCount)
        completed.entity = record.entity
        completed.position = record.position
        completed.isTopLevel = records.count == 0
        completed.bytesAreItsOwn = records.endedAlone
        // Written by index: `removeAll` and `append` on arrays of enums go through generic
        // value witnesses, several times slower.
        let values = completedCells
        completed.lend(values: UnsafeBufferPointer(rebasing: values[..<attributeCount]))
        if completed.links.count != relationshipCount {
            completed.links = Array(repeating: nil, count: relationshipCount)
        }
        if let failure = record.invalidText {
            return rejected(.init("\(plan.shapes[record.entity].name): \(slots.message(failure))", at: record.position,
                                  entity: plan.shapes[record.entity].storage))
        }
        if fastPaths && !entity.checksValues && !record.hadFailure {
            // Nothing to check: every attribute optional with no default applied when missing,
            // and no value failed, so `checkValues` would copy each slot's state as it is.
            slots.copyCells(attributeCount, from: record.slotBase, in: record.generation, into: values.baseAddress!)
        } else if let rejection = checkValues(record, entity: entity, into: values) {
            return rejected(rejection)
        }
        for index in 0..<relationshipCount {
            switch slots.takeLinkState(record.linkBase + index, in: record.generation) {
            case .missing:
                // Most relationships are missing record after record: writing nil over nil
                // checked the array's uniqueness and destroyed a `Link?` each time.
                if case .some = completed.links[index] { completed.links[index] = nil }
            case .value(let link): completed.links[index] = link
            case .failed(let failure):
                return rejected(reason(record, relationship: index, slots.message(failure)))
            }
        }
        completedParent = record.parent
        return .record
    }

    /// The record completing now is wrong: a top-level record is rejected; a nested one
    /// rejects its top-level record when that completes, and completes as nothing.
    @inline(never)
    private mutating func rejected(_ reason: SluiceError.Reason) -> Action {
        guard records.count > 0 else { return .rejected(reason) }
        records.rejectTopLevel(SluiceError.Reason(reason.message, at: reason.position,
                                                  entity: plan.shapes[records.first.entity].storage))
        return .none
    }

    /// A record completing inside a top-level record that a nested one already rejected: it
    /// completes as nothing, and the top-level record as the rejection.
    @inline(never)
    private mutating func completeInRejected() -> Action {
        records.takeRejection().map(Action.rejected) ?? .none
    }

    /// Completes each attribute's value into `values` by every rule: a failed value, or a
    /// null or missing required one, rejects the record; a missing one takes its default when
    /// the attribute says so.
    @inline(never)
    private mutating func checkValues(_ record: OpenRecord, entity: EventPlan.Entity,
                                      into values: UnsafeMutableBufferPointer<Cell>) -> SluiceError.Reason? {
        for index in 0..<Int(entity.attributeCount) {
            let attribute = events.attributes[Int(entity.firstAttribute) + index]
            switch slots.state(record.slotBase + index, in: record.generation) {
            case .value(let value) where value.kind == .null && !attribute.optional:
                return reason(record, attribute: index, "null for a required attribute")
            case .value(let value):
                values[index] = value
            case .failed(let failure):
                return reason(record, attribute: index, slots.message(failure))
            case .missing:
                if attribute.defaultWhenMissing && attribute.hasDefault {
                    let value = plan.shapes[record.entity].attributes[index].defaultValue
                    values[index] = slots.cell { arena in Cell(value, in: &arena) }
                } else if !attribute.optional && !attribute.hasDefault {
                    return reason(record, attribute: index, "missing required attribute")
                } else {
                    values[index] = .missing
                }
            }
        }
        return nil
    }
}
