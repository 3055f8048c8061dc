/// What cannot be imported: a record whose value for an attribute or relationship is wrong or
/// missing, and a value standing where a record should that is not an object. Each becomes a
/// `.rejected` action with its message, counted for the family's storage entity; names are read
/// from `plan` only here, on the way out.
extension RecordAssembler {
    /// The record completing now cannot be imported: `problem` with one of its attributes.
    func reason(_ record: OpenRecord, attribute index: Int, _ problem: String) -> SluiceError.Reason {
        let entity = plan.shapes[record.entity]
        return .init("\(entity.name).\(entity.attributes[index].name): \(problem)", at: record.position,
                     entity: entity.storage)
    }

    /// The record completing now cannot be imported: `problem` with one of its relationships.
    func reason(_ record: OpenRecord, relationship index: Int, _ problem: String) -> SluiceError.Reason {
        let entity = plan.shapes[record.entity]
        return .init("\(entity.name).\(entity.relationships[index].name): \(problem)",
                     at: record.position, entity: entity.storage)
    }

    /// Invalid text inside the innermost open record rejects it when it completes.
    mutating func invalidText(_ problem: String) -> Bool {
        guard records.count > 0 else { return false }
        records.invalidText { slots.failure(problem) }
        return true
    }

    /// `kind` (an array, a number, ...) stands where a record of `entity` should.
    mutating func reject(notAnObject kind: String, entity: Int, at position: InputPosition) -> Action {
        recordCount += 1
        let message = "a record of \(plan.shapes[entity].name) must be an object, got \(kind)"
        return .rejected(.init(message, at: position, entity: plan.shapes[entity].storage))
    }
}
