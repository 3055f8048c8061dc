import Testing
@testable import Sluice

@Suite struct InheritanceValidationTests {
    @Test func inheritanceMistakesAreReportedWithTheirPaths() {
        let problems = modelProblems("""
            {
              "entities": {
                "Stop": {
                  "table": "stops", "identity": "id",
                  "attributes": { "id": "string", "name": "string" },
                  "entityBy": { "key": "type", "values": { "bus": "BusStop", "x": "Route", "y": "Nope" } }
                },
                "BusStop": {
                  "parent": "Stop", "table": "bus", "identity": "id",
                  "attributes": { "name": "integer", "entity": "string", "code": { "type": "string", "column": "id" } }
                },
                "Orphan": { "parent": "Ghost" },
                "A": { "parent": "B" },
                "B": { "parent": "A" },
                "Route": { "attributes": { "id": "string" } }
              }
            }
            """)
        #expect(problems == [
            #"entities.Stop.entityBy.values.x: "Route" is not a descendant of Stop"#,
            #"entities.Stop.entityBy.values.y: unknown entity "Nope"; the model has: A, B, BusStop, Orphan, Route, Stop"#,
            "entities.BusStop.table: a child entity is stored in the table of its family's root Stop: it takes no table",
            "entities.BusStop.identity: a child entity inherits its identity from Stop",
            "entities.BusStop.attributes.name: redeclares the inherited attribute of type string with type integer",
            #"entities.BusStop.attributes.entity: column "entity" names each row's entity in the table of Stop's family"#,
            #"entities.BusStop.attributes.code.column: column "id" is also the column of Stop's attribute id"#,
            #"entities.Orphan.parent: unknown entity "Ghost"; the model has: A, B, BusStop, Orphan, Route, Stop"#,
            #"entities.A.parent: "A" is its own ancestor: A → B → A"#,
            #"entities.B.parent: "B" is its own ancestor: B → A → B"#,
        ])
    }

    @Test func siblingsMayDeclareTheSameAttribute() throws {
        let model = try Model.parse(Array("""
            {
              "entities": {
                "Stop": { "identity": "id", "attributes": { "id": "string" } },
                "BusStop": { "parent": "Stop", "attributes": { "code": "string" } },
                "RailStop": { "parent": "Stop", "attributes": { "code": "string" } }
              }
            }
            """.utf8), sourceName: "model.json")
        #expect(model.storageModel.entities.map { $0.attributes.map(\.name) } == [["entity", "id", "code"]])
    }

    @Test func inheritedAttributesServeRelatedByAndMaps() throws {
        _ = try Model.parse(Array("""
            {
              "entities": {
                "Stop": { "identity": "id", "attributes": { "id": "string" } },
                "BusStop": { "parent": "Stop", "attributes": { "code": "string" } },
                "Route": {
                  "attributes": { "name": "string" },
                  "relationships": {
                    "byID": { "entity": "BusStop", "toMany": true, "map": "id" },
                    "byCode": { "entity": "BusStop", "relatedBy": "id" }
                  }
                }
              }
            }
            """.utf8), sourceName: "model.json")
    }

    /// Each member fits, the family's table would not.
    @Test func aFamilysTableHasEveryMembersColumns() {
        func attributes(_ prefix: String) -> String {
            (1...1_000).map { #""\#(prefix)\#($0)": "string""# }.joined(separator: ", ")
        }
        let problems = modelProblems("""
            {"entities": {"Stop": {"table": "stops", "identity": "id", "attributes": {"id": "string"}},
                          "BusStop": {"parent": "Stop", "attributes": {\(attributes("b"))}},
                          "RailStop": {"parent": "Stop", "attributes": {\(attributes("r"))}}}}
            """)
        #expect(problems == [
            #"entities.Stop: the table "stops" of Stop's family would have 2003 columns (pk, entity and its members' 2001); SQLite allows at most 1999 here: keep some keys as one json attribute, or split the family"#,
        ])
    }

    @Test func aModelBuiltInCodeWithACycleIsRefusedByTheImporter() {
        let model = Model(entities: [Model.Entity(name: "A", attributes: [], parent: "B"),
                                     Model.Entity(name: "B", attributes: [], parent: "A")])
        #expect(throws: ModelError.self) { try MappingPlan(model: model, locations: .init(entity: "A")) }
    }
}
