import Testing
@testable import Sluice

/// `OpenRecords` driven by hand (no parser): records begun and ended as their braces would,
/// with the slots they are numbered in.
@Suite struct OpenRecordsTests {
    /// Trips (2 attributes, 2 relationships) holding stops (1 attribute, no relationship).
    final class Plan {
        let storage: EventPlan.Storage
        var events: EventPlan { storage.plan }

        init() throws {
            let trip = Model.Entity(
                name: "Trip", attributes: [.init(name: "id", type: .integer), .init(name: "name", type: .string)],
                relationships: [.init(name: "stops", entity: "Stop", toMany: true), .init(name: "next", entity: "Trip")])
            let stop = Model.Entity(name: "Stop", attributes: [.init(name: "code", type: .string)])
            storage = EventPlan.Storage(try MappingPlan(model: Model(root: .entity("Trip"), entities: [trip, stop])))
        }
    }

    private func at(_ line: Int) -> InputPosition { InputPosition(line: line, column: 1, offset: 0) }

    /// A nested record's slots follow those of the record that holds it, with a number of its
    /// own; when it ends, the record around it is the innermost again. A top-level record with
    /// a nested one does not own its bytes; the next one alone does.
    @Test func nestedRecordsTakeTheSlotsAfterTheirParents() throws {
        let plan = try Plan()
        var records = OpenRecords(plan.events)
        var slots = ValueSlots()
        #expect(records.count == 0)
        records.begin(0, at: at(1), parent: nil, slots: &slots)
        let trip = records.last
        #expect(records.count == 1 && trip.entity == 0 && trip.slotBase == 0 && trip.linkBase == 0)
        #expect(records.innermost.slotBase == 0 && records.innermost.generation == trip.generation)
        records.begin(1, at: at(2), parent: (relationship: 0, priority: 0), slots: &slots)
        let stop = records.last
        #expect(records.count == 2 && stop.slotBase == 2 && stop.linkBase == 2 && stop.generation != trip.generation)
        #expect(stop.parent?.relationship == 0 && stop.position.line == 2)
        #expect(records.innermost.slotBase == 2 && records.innermost.generation == stop.generation)
        #expect(records.innermost.firstAttribute == Int(plan.events.entities[1].firstAttribute))
        #expect(records.first.entity == 0)

        #expect(records.end().generation == stop.generation)
        #expect(records.count == 1 && records.innermost.generation == trip.generation)
        #expect(records.innermost.firstAttribute == 0)
        #expect(records.end().position.line == 1)
        #expect(records.count == 0 && !records.endedAlone)

        records.begin(0, at: at(3), parent: nil, slots: &slots)
        #expect(records.last.generation != stop.generation)
        _ = records.end()
        #expect(records.endedAlone)
    }

    /// The innermost record counts its to-many's elements, notes a failed value and keeps the
    /// first invalid text; the record around it is untouched. A family's record completes as
    /// the member chosen.
    @Test func theInnermostRecordKeepsWhatHappenedInsideIt() throws {
        let plan = try Plan()
        var records = OpenRecords(plan.events)
        var slots = ValueSlots()
        records.begin(0, at: at(1), parent: nil, slots: &slots)
        records.startElements()
        #expect(records.nextElement() == 0)
        #expect(records.nextElement() == 1)
        records.begin(1, at: at(1), parent: (relationship: 0, priority: 0), slots: &slots)
        #expect(records.last.element == 0 && !records.last.hadFailure)
        records.valueFailed()
        records.invalidText { slots.failure("first") }
        records.invalidText { slots.failure("second") }
        let stop = records.end()
        let message = stop.invalidText.map { slots.message($0) }
        #expect(stop.hadFailure && message == "first")
        #expect(records.nextElement() == 2)
        #expect(!records.last.hadFailure && records.last.invalidText == nil)
        records.completeAs(1)
        #expect(records.end().entity == 1)
    }

    /// A nested record's failure rejects its top-level record: the records ending inside it
    /// end as nothing, the top-level one takes the reason; the next top-level record starts clean.
    @Test func aNestedFailureRejectsTheTopLevelRecord() throws {
        let plan = try Plan()
        var records = OpenRecords(plan.events)
        var slots = ValueSlots()
        let reason = SluiceError.Reason("Stop.code: not a string", at: at(2), entity: 0)
        records.begin(0, at: at(1), parent: nil, slots: &slots)
        records.begin(1, at: at(2), parent: (relationship: 0, priority: 0), slots: &slots)
        #expect(!records.isRejecting)
        records.rejectTopLevel(reason)
        _ = records.end()
        #expect(records.isRejecting && records.takeRejection() == nil)
        records.begin(1, at: at(3), parent: (relationship: 0, priority: 0), slots: &slots)
        _ = records.end()
        #expect(records.takeRejection() == nil)
        _ = records.end()
        #expect(records.takeRejection() == reason)
        #expect(!records.isRejecting)

        records.begin(0, at: at(4), parent: nil, slots: &slots)
        records.rejectTopLevel(reason)
        records.begin(0, at: at(5), parent: (relationship: 1, priority: 0), slots: &slots)
        #expect(records.isRejecting)  // still the same top-level record
        _ = records.end()
        _ = records.end()
        records.begin(0, at: at(6), parent: nil, slots: &slots)
        #expect(!records.isRejecting)
    }
}
