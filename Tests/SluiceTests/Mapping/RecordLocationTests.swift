import Testing
@testable import Sluice

/// `RecordLocation` driven with events by hand (no parser): what the envelope above the
/// records makes of each, for the locations of a model and of a zero-config import.
@Suite struct RecordLocationTests {
    /// A model's locations: `{"people": [Person…], "pets": {"name": Pet…}}` (entities 0 and 1,
    /// the pets' member names to attribute 3), under an object of other keys.
    struct TwoLocations: EnvelopeLocations {
        // 0: the top-level object; 1: "people"; 2: "pets".
        var rootLocation: Int { 0 }
        func entity(at node: Int) -> Int? { [nil, 0, 1][node] }
        func mapAttribute(at node: Int) -> Int? { node == 2 ? 3 : nil }
        func child(of node: Int, _ key: UnsafeRawBufferPointer) -> Int? {
            guard node == 0 else { return nil }
            if key.elementsEqual("people".utf8) { return 1 }
            if key.elementsEqual("pets".utf8) { return 2 }
            return nil
        }
    }

    typealias Value = RecordLocation<TwoLocations>.Value

    @Test func findsRecordsInArraysAndMapsDownTheKeys() {
        var location = RecordLocation(TwoLocations())
        do { let r = location.enter(); #expect(r) }
        do { let r = location.startObject(); #expect(r == .none) }
        key("people", &location)
        do { let r = location.enter(); #expect(r) }
        do { let r = location.startArray(); #expect(r == .none) }
        do { let r = location.recordInArray; #expect(r == 0) }
        do { let r = location.enter(); #expect(r) }
        do { let r = location.startObject(); #expect(r == .record(0)) }
        do { let r = location.takeMember(); #expect(r == nil) }
        // The record's events are the assembler's; the envelope sees its object close.
        do { let r = location.leave(); #expect(r) }
        do { let r = location.scalar(isNull: true); #expect(r == .notAnObject(0)) }  // an element is a record, null too
        do { let r = location.scalar(isNull: false); #expect(r == .notAnObject(0)) }
        do { let r = location.leave(); #expect(r) }
        location.end()
        do { let r = location.recordInArray; #expect(r == nil) }
        key("pets", &location)
        do { let r = location.enter(); #expect(r) }
        do { let r = location.startObject(); #expect(r == .none) }  // the map
        do { let r = location.recordInArray; #expect(r == nil) }
        key("Rex", &location)
        do { let r = location.enter(); #expect(r) }
        do { let r = location.startObject(); #expect(r == .record(1)) }
        let member = location.takeMember()
        #expect(member.map { String(decoding: $0.name, as: UTF8.self) } == "Rex")
        #expect(member?.attribute == 3)
        do { let r = location.leave(); #expect(r) }
        key("Tom", &location)
        do { let r = location.scalar(isNull: true); #expect(r == .none) }  // a map's null member is skipped
        key("Felix", &location)
        do { let r = location.scalar(isNull: false); #expect(r == .notAnObject(1)) }
        do { let r = location.takeMember(); #expect(r == nil) }
        do { let r = location.leave(); #expect(r) }
        location.end()
        do { let r = location.leave(); #expect(r) }
        location.end()
    }

    /// A key no record stands under is skipped whole, its containers only counted; where
    /// records stand, a null is none and another scalar is not a record.
    @Test func skipsWhatNoRecordStandsUnder() {
        var location = RecordLocation(TwoLocations())
        do { let r = location.enter(); #expect(r) }
        do { let r = location.startObject(); #expect(r == .none) }
        key("other", &location)
        do { let r = location.enter(); #expect(r) }
        do { let r = location.startObject(); #expect(r == .none) }
        do { let r = location.isSkipping; #expect(r) }
        do { let r = location.enter(); #expect(!r) }  // `{"other": {"people": [`…
        do { let r = location.enter(); #expect(!r) }
        do { let r = location.leave(); #expect(!r) }
        do { let r = location.leave(); #expect(!r) }
        do { let r = location.leave(); #expect(!r) }  // …the skipped object itself closes
        do { let r = location.isSkipping; #expect(!r) }
        key("people", &location)
        do { let r = location.scalar(isNull: true); #expect(r == .none) }  // null where records stand: none
        key("pets", &location)
        do { let r = location.scalar(isNull: false); #expect(r == .notAnObject(1)) }  // a number is not one
        do { let r = location.leave(); #expect(r) }
        location.end()
    }

    /// An array where a record should be is rejected and skipped to its end.
    @Test func anArrayWhereARecordShouldBeIsNotAnObject() {
        var location = RecordLocation(FreeformLocations(path: [], isMap: false))
        do { let r = location.enter(); #expect(r) }
        do { let r = location.startArray(); #expect(r == .none) }
        do { let r = location.recordInArray; #expect(r == 0) }
        do { let r = location.enter(); #expect(r) }
        do { let r = location.startArray(); #expect(r == .notAnObject(0)) }
        do { let r = location.isSkipping; #expect(r) }
        do { let r = location.leave(); #expect(!r) }
        do { let r = location.isSkipping; #expect(!r) }
        do { let r = location.recordInArray; #expect(r == 0) }
    }

    /// Top-level values are the records when the path is empty (NDJSON): any scalar there,
    /// null included, is not one.
    @Test func topLevelScalarsAreNotRecords() {
        var location = RecordLocation(FreeformLocations(path: [], isMap: false))
        do { let r = location.scalar(isNull: true); #expect(r == .notAnObject(0)) }
        do { let r = location.scalar(isNull: false); #expect(r == .notAnObject(0)) }
        do { let r = location.enter(); #expect(r) }
        do { let r = location.startObject(); #expect(r == .record(0)) }
    }

    /// `--path data.items`: the records are under both keys, through arrays of envelopes too;
    /// a scalar where an envelope object was expected means no records there.
    @Test func aZeroConfigPathThroughArraysOfEnvelopes() {
        var location = RecordLocation(FreeformLocations(path: [Array("data".utf8), Array("items".utf8)], isMap: false))
        do { let r = location.scalar(isNull: false); #expect(r == .none) }
        do { let r = location.enter(); #expect(r) }
        do { let r = location.startArray(); #expect(r == .none) }  // [{"data": …}, …]
        do { let r = location.enter(); #expect(r) }
        do { let r = location.startObject(); #expect(r == .none) }
        key("data", &location)
        do { let r = location.enter(); #expect(r) }
        do { let r = location.startObject(); #expect(r == .none) }
        key("items", &location)
        do { let r = location.enter(); #expect(r) }
        do { let r = location.startArray(); #expect(r == .none) }
        do { let r = location.recordInArray; #expect(r == 0) }
        do { let r = location.scalar(isNull: false); #expect(r == .notAnObject(0)) }
        for _ in 0..<3 {
            do { let r = location.leave(); #expect(r) }
            location.end()
        }
        do { let r = location.enter(); #expect(r) }
        do { let r = location.startObject(); #expect(r == .none) }
        key("data", &location)
        do { let r = location.enter(); #expect(r) }
        do { let r = location.startObject(); #expect(r == .none) }
        key("items", &location)
        do { let r = location.enter(); #expect(r) }
        do { let r = location.startObject(); #expect(r == .record(0)) }  // one record, not in an array
    }

    /// `--map-key`: the top-level object's members are the records, each named.
    @Test func aZeroConfigMapNamesEachRecord() {
        var location = RecordLocation(FreeformLocations(path: [], isMap: true))
        do { let r = location.enter(); #expect(r) }
        do { let r = location.startObject(); #expect(r == .none) }
        key("a", &location)
        do { let r = location.enter(); #expect(r) }
        do { let r = location.startObject(); #expect(r == .record(0)) }
        do { let r = location.takeMember(); #expect(r.map { String(decoding: $0.name, as: UTF8.self) } == "a") }
        do { let r = location.leave(); #expect(r) }
        key("b", &location)
        do { let r = location.enter(); #expect(r) }
        do { let r = location.startArray(); #expect(r == .notAnObject(0)) }
        do { let r = location.takeMember(); #expect(r == nil) }
        do { let r = location.leave(); #expect(!r) }
    }

    /// An input routed by its name (`RecordStart`) begins where its records stand, with no
    /// events made around it: a CSV input's rows are the elements of an array there, a JSON
    /// input's values stand at the location itself (a map's object is the map).
    @Test func beginsWhereTheInputsNamePutsIt() {
        var rows = RecordLocation(TwoLocations(), start: .rows(1))
        do { let r = rows.recordInArray; #expect(r == 0) }  // each row object: a Person
        do { let r = rows.enter(); #expect(r) }
        do { let r = rows.startObject(); #expect(r == .record(0)) }
        do { let r = rows.leave(); #expect(r) }

        var values = RecordLocation(TwoLocations(), start: .location(1))
        do { let r = values.recordInArray; #expect(r == nil) }
        do { let r = values.enter(); #expect(r) }
        do { let r = values.startObject(); #expect(r == .record(0)) }  // one object: a record
        do { let r = values.leave(); #expect(r) }
        do { let r = values.enter(); #expect(r) }
        do { let r = values.startArray(); #expect(r == .none) }  // an array: its elements are
        do { let r = values.recordInArray; #expect(r == 0) }

        var map = RecordLocation(TwoLocations(), start: .location(2))
        do { let r = map.enter(); #expect(r) }
        do { let r = map.startObject(); #expect(r == .none) }
        key("Rex", &map)
        do { let r = map.enter(); #expect(r) }
        do { let r = map.startObject(); #expect(r == .record(1)) }
        #expect(map.takeMember()?.attribute == 3)

        // Without a start, the top-level object is the envelope's, not a record.
        var top = RecordLocation(TwoLocations())
        do { let r = top.enter(); #expect(r) }
        do { let r = top.startObject(); #expect(r == .none) }
    }

    private func key<Locations: EnvelopeLocations>(_ text: String, _ location: inout RecordLocation<Locations>) {
        Array(text.utf8).withUnsafeBytes { location.key($0) }
    }
}
