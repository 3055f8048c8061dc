import Testing
import SluiceTestSupport
@testable import Sluice


private func model() throws -> Model {
    try Model.parse(Array(StopFamily.model.utf8), sourceName: "model.json")
}

private let input = """
    {
      "stops": [
        { "id": "a", "name": "Alpha", "type": "bus", "shelter": true, "platforms": 4 },
        { "id": "b", "name": "Beta", "type": "rail", "platforms": 2, "shelter": true },
        { "id": "c", "name": "Gamma", "type": "tram", "shelter": true }
      ],
      "buses": [ { "id": "d", "shelter": false, "type": "rail" } ],
      "routes": [
        { "id": "r1", "first": "b", "stops": ["a", "b", { "id": "e", "type": "rail" }], "rails": [{ "id": "f" }] },
        { "id": "r2", "first": "a" }
      ]
    }
    """

@Suite struct InheritanceTests {
    @Test func aFamilyIsOneTableWithEachRowsEntity() throws {
        let directory = TemporaryDirectory()
        let db = directory.file("s.sqlite")
        let report = try importJSON(input, model: model(), into: db)
        // entityBy chooses the descendant and imports only its attributes; an unknown value
        // leaves the record as placed (even abstract); a record placed as BusStop has no
        // entityBy of its own, so its `type` is not read.
        #expect(try query(db, "SELECT entity, id, name, shelter, platforms FROM stops ORDER BY id") == [
            [.text("BusStop"), .text("a"), .text("Alpha"), .integer(1), .null],
            [.text("RailStop"), .text("b"), .text("Beta"), .null, .integer(2)],
            [.text("Stop"), .text("c"), .text("Gamma"), .null, .null],
            [.text("BusStop"), .text("d"), .null, .integer(0), .null],
            [.text("RailStop"), .text("e"), .null, .null, .integer(1)],
            [.text("RailStop"), .text("f"), .null, .null, .integer(1)],
        ])
        // A family's counts are its root's.
        #expect(report.entities.map(\.entity) == ["Stop", "Route"])
        #expect(report.entities[0].inserted == 6)
    }

    @Test func relationshipsToTheParentHoldRowsOfEveryChild() throws {
        let directory = TemporaryDirectory()
        let db = directory.file("s.sqlite")
        try importJSON(input, model: model(), into: db)
        #expect(try query(db, "SELECT r.id, s.entity, s.id FROM routes r JOIN stops s ON r.first_pk = s.pk ORDER BY r.id") == [
            [.text("r1"), .text("RailStop"), .text("b")], [.text("r2"), .text("BusStop"), .text("a")],
        ])
        #expect(try query(db, """
            SELECT s.entity, s.id FROM routes_stops j JOIN stops s ON j.target_pk = s.pk ORDER BY s.id
            """) == [[.text("BusStop"), .text("a")], [.text("RailStop"), .text("b")], [.text("RailStop"), .text("e")]])
        #expect(try query(db, "SELECT s.entity, s.id FROM routes_rails j JOIN stops s ON j.target_pk = s.pk")
            == [[.text("RailStop"), .text("f")]])
    }

    @Test func reimportWritesNothing() throws {
        let directory = TemporaryDirectory()
        let db = directory.file("s.sqlite")
        try importJSON(input, model: model(), into: db)
        let report = try importJSON(input, model: model(), into: db)
        #expect(report.inserted == 0)
        #expect(report.updated == 0)
        #expect(report.links == 0)
    }

    /// Identities are unique across the family: the same id as another child is the same row,
    /// whose `entity` becomes the later record's; attributes it does not mention are left alone.
    @Test func theSameIdentityAsAnotherChildUpdatesTheRowAndItsEntity() throws {
        let directory = TemporaryDirectory()
        let db = directory.file("s.sqlite")
        let report = try importJSON("""
            { "stops": [ { "id": "x", "type": "bus", "shelter": true }, { "id": "x", "type": "rail", "platforms": 3 } ] }
            """, model: model(), into: db)
        #expect(try query(db, "SELECT entity, id, shelter, platforms FROM stops")
            == [[.text("RailStop"), .text("x"), .integer(1), .integer(3)]])
        #expect(report.entities[0].inserted == 1)
        #expect(try query(db, "SELECT count(*) FROM sqlite_master WHERE type = 'index' AND sql LIKE '%UNIQUE%'")
            == [[.integer(2)]])
    }

    @Test func aRecordErrorNamesTheChosenEntity() throws {
        let directory = TemporaryDirectory()
        let model = try model()
        do {
            try importJSON(#"{"stops": [{"id": "a", "type": "rail", "platforms": "many"}]}"#, model: model,
                           into: directory.file("s.sqlite"))
            Issue.record("expected a record error")
        } catch {
            #expect(error.message.hasPrefix("RailStop.platforms:"), "\(error)")
        }
    }

    @Test func aModelWithoutInheritanceIsItsOwnStorageModel() throws {
        let plain = Model(entities: [Model.Entity(name: "A", attributes: [.init(name: "id", type: .integer)])])
        #expect(plain.storageModel == plain)
    }
}
