import SluiceTestSupport
import Testing
@testable import Sluice

extension InferenceTests {
    /// The model file `sluice infer` prints: every field that is not a default, in a stable
    /// order, and read back as the same model.
    @Suite struct ModelWriterTests {
        @Test func writesTheModelFileLayout() throws {
            let model = Model(root: .paths([(JSONKeyPath(["orders"]), "Order")]), entities: [
                Model.Entity(name: "Order", table: "orders", identity: ["id"], attributes: [
                    Model.Attribute(name: "id", type: .integer),
                    Model.Attribute(name: "first_name", type: .string, keys: [JSONKeyPath(["first name"]), JSONKeyPath(["name", "first"])]),
                    Model.Attribute(name: "at", type: .date, column: "placed_at", optional: false,
                                    defaultValue: .object([.init("a", .number("1"))]), defaultWhenMissing: true, dateFormat: "M/d/yyyy"),
                ], relationships: [
                    Model.Relationship(name: "lines", entity: "Line", toMany: true, inverse: "order", merge: .replace),
                ]),
                Model.Entity(name: "Line", identity: ["order_id", "n"], attributes: [
                    Model.Attribute(name: "order_id", type: .integer), Model.Attribute(name: "n", type: .integer),
                    Model.Attribute(name: "note\"\n", type: .string),
                ], relationships: [
                    Model.Relationship(name: "order", entity: "Order", keys: [JSONKeyPath(["order_id"])], relatedBy: "id",
                                       column: "order_ref", unresolved: .stub),
                ]),
            ])
            let text = ModelWriter.text(of: model)
            #expect(text == #"""
                {
                  "root": {
                    "orders": "Order"
                  },
                  "entities": {
                    "Order": {
                      "table": "orders",
                      "identity": "id",
                      "attributes": {
                        "id": "integer",
                        "first_name": { "type": "string", "key": ["first name", "name.first"] },
                        "at": { "type": "date", "column": "placed_at", "optional": false, "default": { "a": 1 }, "defaultWhenMissing": true, "dateFormat": "M/d/yyyy" }
                      },
                      "relationships": {
                        "lines": { "entity": "Line", "toMany": true, "inverse": "order", "merge": "replace" }
                      }
                    },
                    "Line": {
                      "identity": ["order_id", "n"],
                      "attributes": {
                        "order_id": "integer",
                        "n": "integer",
                        "note\"\n": "string"
                      },
                      "relationships": {
                        "order": { "entity": "Order", "key": "order_id", "relatedBy": "id", "column": "order_ref", "unresolved": "stub" }
                      }
                    }
                  }
                }

                """#)
            #expect(try Model.parse(Array(text.utf8), sourceName: "written") == model)
        }

        @Test func theTransitExampleReadsBackTheSame() throws {
            let file = try ModelFile.load(path: PackageFiles.path("Examples/transit/model.json"))
            let text = ModelWriter.text(of: file.model)
            #expect(try Model.parse(Array(text.utf8), sourceName: "written") == file.model)
        }
    }

    @Suite struct InferenceNamingTests {
        @Test func entityNamesFromKeys() {
            let names = ["stop_times", "lineItems", "people", "entries", "addresses", "boxes", "statuses", "status",
                         "data", "analysis", "buses", "houses", "STOPS", "2024", "", "children"]
                .map(InferenceNaming.entityName(fromKey:))
            #expect(names == ["StopTime", "LineItem", "Person", "Entry", "Address", "Box", "Status", "Status",
                              "Data", "Analysis", "Bus", "House", "STOP", "Entity2024", "Item", "Child"])
        }

        @Test func identifiersAndStems() {
            #expect(["a_b", "first name", "e--mail", "2fa", "größe", "名前", "-", "$x$"].map(InferenceNaming.identifier)
                == ["a_b", "first_name", "e_mail", "_2fa", "größe", "名前", "field", "x"])
            #expect(["-", "a/b/stops.json.gz", "x.ndjson", "noext", ".hidden"].map(InferenceNaming.fileStem)
                == [nil, "stops", "x", "noext", ".hidden"])
            #expect(["stop_id", "tripId", "StopID", "VOID", "id", "paid"].map(InferenceNaming.referenceName(fromKey:))
                == ["stop", "trip", "Stop", nil, nil, nil])
        }

        @Test func namesAreUniqueIgnoringASCIICase() {
            var scope = NameScope(reserved: ["pk"])
            #expect(["PK", "id", "ID", "id_2", "Id"].map { scope.claim($0) } == ["PK_2", "id", "ID_2", "id_2_2", "Id_3"])
        }
    }
}
