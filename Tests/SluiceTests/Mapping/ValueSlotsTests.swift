import Testing
@testable import Sluice

/// `ValueSlots` on its own: values set by hand for numbered records, with no plan and no parser.
@Suite struct ValueSlotsTests {
    /// A record's slots are missing until set; the next record's number makes every slot
    /// missing again without resetting it, and the first listed key wins over later ones.
    @Test func slotsBelongToTheRecordThatSetThem() {
        var slots = ValueSlots()
        slots.beginTopLevel()
        let first = slots.begin(cellBase: 0, cellCount: 3, linkBase: 0, linkCount: 0)
        do { let r = slots.state(1, in: first); #expect(r.cell == nil && !r.failed) }
        do { let r = slots.set(1, priority: 1, generation: first) { _ throws(ConversionError) in .integer(7) }; #expect(r) }
        do { let r = slots.accepts(1, priority: 2, in: first); #expect(!r) }  // a later key loses
        do { let r = slots.accepts(1, priority: 1, in: first); #expect(r) }  // a repeated key replaces itself
        do { let r = slots.accepts(1, priority: 0, in: first); #expect(r) }
        do { let r = slots.state(1, in: first); #expect(r.cell?.integerValue == 7) }
        let second = slots.begin(cellBase: 0, cellCount: 3, linkBase: 0, linkCount: 0)
        #expect(second != first)
        do { let r = slots.state(1, in: second); #expect(r.cell == nil) }
        do { let r = slots.accepts(1, priority: 2, in: second); #expect(r) }
    }

    /// Text goes to the arena, read back through `bytes`; the slots grow for a nested record's
    /// slots after its parent's; `copyCells` reads a record's cells, missing where unset.
    @Test func valuesAndTheirBytesForNestedRecords() {
        var slots = ValueSlots()
        slots.beginTopLevel()
        let outer = slots.begin(cellBase: 0, cellCount: 2, linkBase: 0, linkCount: 1)
        _ = slots.set(0, priority: 0, generation: outer) { arena throws(ConversionError) in
            Array("outer".utf8).withUnsafeBytes { Cell.bytes(.text, $0, in: &arena) }
        }
        let inner = slots.begin(cellBase: 2, cellCount: 40, linkBase: 1, linkCount: 2)
        _ = slots.set(41, priority: 0, generation: inner) { arena throws(ConversionError) in
            Array("inner".utf8).withUnsafeBytes { Cell.bytes(.text, $0, in: &arena) }
        }
        var values = [Cell](repeating: .integer(-1), count: 40)
        values.withUnsafeMutableBufferPointer { slots.copyCells(40, from: 2, in: inner, into: $0.baseAddress!) }
        #expect(values[..<39].allSatisfy { $0.kind == .missing })
        #expect(String(decoding: values[39].bytes(in: slots.bytes), as: UTF8.self) == "inner")
        do {
            let r = slots.state(0, in: outer)
            #expect(r.cell.map { String(decoding: $0.bytes(in: slots.bytes), as: UTF8.self) } == "outer")
        }
        // The next top-level record starts the arena again.
        slots.beginTopLevel()
        #expect(slots.bytes.count == 0)
    }

    /// A value that does not convert keeps its message, an error only if it still wins; the
    /// failures go when the next top-level record begins. A cleared slot is missing.
    @Test func failuresAreKeptBesideTheSlots() {
        var slots = ValueSlots()
        slots.beginTopLevel()
        let record = slots.begin(cellBase: 0, cellCount: 1, linkBase: 0, linkCount: 0)
        do {
            let r = slots.set(0, priority: 1, generation: record) { _ throws(ConversionError) in
                throw ConversionError(message: "not a number")
            }
            #expect(!r)
        }
        guard case .failed(let failure) = slots.state(0, in: record) else {
            Issue.record("expected a failure")
            return
        }
        #expect(slots.message(failure) == "not a number")
        // A better key's value replaces the failure.
        _ = slots.set(0, priority: 0, generation: record) { _ throws(ConversionError) in .integer(1) }
        do { let r = slots.state(0, in: record); #expect(r.cell?.integerValue == 1) }
        slots.clear(0)
        do { let r = slots.state(0, in: record); #expect(r.cell == nil && !r.failed) }
        slots.beginTopLevel()
        #expect(slots.failure("next") == 0)
    }

    /// A to-many's list grows in its slot under the key that started it; a better key's list
    /// replaces it, a failed element stays the list's failure.
    @Test func linksCollectAToManysList() {
        var slots = ValueSlots()
        slots.beginTopLevel()
        let record = slots.begin(cellBase: 0, cellCount: 0, linkBase: 0, linkCount: 2)
        slots.setLink(0, .value(.many([])), priority: 1, generation: record)
        slots.appendLink(0, .key(.integer(1)), priority: 1, generation: record)
        slots.appendLink(0, .key(.integer(2)), priority: 1, generation: record)
        do { let r = slots.linkAccepts(0, priority: 2, in: record); #expect(!r) }
        #expect(slots.takeLinkState(0, in: record).link == .many([.key(.integer(1)), .key(.integer(2))]))
        let better = slots.begin(cellBase: 0, cellCount: 0, linkBase: 0, linkCount: 2)
        slots.setLink(0, .value(.many([])), priority: 1, generation: better)
        slots.appendLink(0, .key(.integer(1)), priority: 1, generation: better)
        slots.appendLink(0, .key(.integer(3)), priority: 0, generation: better)  // a better key starts again
        #expect(slots.takeLinkState(0, in: better).link == .many([.key(.integer(3))]))
        slots.setLink(1, .failed(slots.failure("not an id")), priority: 0, generation: better)
        do { let r = slots.linkFailed(1, priority: 0, in: better); #expect(r) }
        slots.setLink(0, .value(.many([.key(.integer(4))])), priority: 0, generation: better)
        slots.clearLink(0)
        #expect(slots.takeLinkState(0, in: better).link == nil)
        let next = slots.begin(cellBase: 0, cellCount: 0, linkBase: 0, linkCount: 2)
        #expect(slots.takeLinkState(1, in: next).link == nil)
        do { let r = slots.linkFailed(1, priority: 0, in: next); #expect(!r) }
    }

    /// A completing record's link moves out of its slot: the slot is missing afterwards, and
    /// another record's slot gives nothing.
    @Test func aLinkIsTakenOnce() {
        var slots = ValueSlots()
        slots.beginTopLevel()
        let record = slots.begin(cellBase: 0, cellCount: 0, linkBase: 0, linkCount: 2)
        slots.setLink(0, .value(.one(.key(.text("t1")))), priority: 0, generation: record)
        #expect(slots.takeLinkState(1, in: record).link == nil)
        #expect(slots.takeLinkState(0, in: record).link == .one(.key(.text("t1"))))
        #expect(slots.takeLinkState(0, in: record).link == nil)
        slots.setLink(1, .value(.clear), priority: 0, generation: record)
        let next = slots.begin(cellBase: 0, cellCount: 0, linkBase: 0, linkCount: 2)
        #expect(slots.takeLinkState(1, in: next).link == nil)
    }
}

private extension Slot.State {
    var cell: Value? {
        if case .value(let value) = self { return value }
        return nil
    }

    var link: Value? { cell }

    var failed: Bool {
        if case .failed = self { return true }
        return false
    }
}

private extension Cell {
    var integerValue: Int64? {
        kind == .integer ? Int64(bitPattern: bits) : nil
    }
}
