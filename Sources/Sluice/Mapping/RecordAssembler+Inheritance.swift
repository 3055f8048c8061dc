/// `entityBy` (`docs/model.md#inheritance`): which member of a family a record is completed
/// as. Its key's value was read into the `"entity"` attribute's slot, and the descendants'
/// attributes and relationships into theirs; once the record's object closes, the value
/// chooses the entity, and what is not that entity's is dropped.
extension RecordAssembler {
    /// `completeRecord` for a record of a family: as the entity `entityBy` chooses, and handed
    /// to the sink as its family's storage entity. Out of line, so that records of entities
    /// without a family pay one test for it.
    @inline(never)
    mutating func completeFamilyRecord() -> Action {
        var record = records.last
        if plan.shapes[record.entity].entityBy != nil {
            record.entity = chooseEntity(record)
            records.completeAs(record.entity)
        }
        let action = completeRecord()
        if case .record = action { completed.entity = plan.shapes[record.entity].storage }
        return action
    }

    /// The shape `record` completes as: the one its discriminating value names, else its own.
    /// Leaves the `"entity"` slot missing, so that the chosen shape's default (its name) fills it.
    mutating func chooseEntity(_ record: OpenRecord) -> Int {
        guard let entityBy = plan.shapes[record.entity].entityBy else { return record.entity }
        var chosen = record.entity
        let slot = record.slotBase + entityBy.attribute
        if case .value(let cell) = slots.state(slot, in: record.generation), cell.kind == .text {
            let text = cell.bytes(in: slots.bytes)
            for choice in entityBy.choices where choice.value.elementsEqual(text) {
                chosen = choice.shape
                break
            }
        }
        slots.clear(slot)
        let shape = plan.shapes[chosen]
        for (index, isMember) in shape.attributeMembers.enumerated() where !isMember {
            slots.clear(record.slotBase + index)
        }
        for (index, isMember) in shape.relationshipMembers.enumerated() where !isMember {
            slots.clearLink(record.linkBase + index)
        }
        return chosen
    }
}
