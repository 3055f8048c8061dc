import Testing
@testable import Sluice

/// Decodes a model written as text, failing the test on any error.
func decodeModel(_ text: String, sourceName: String = "model.json") throws -> Model {
    try Model.parse(Array(text.utf8), sourceName: sourceName)
}

/// The problems of a model that must not decode, as printed (`path: message`).
func modelProblems(_ text: String) -> [String] {
    do {
        _ = try Model.parse(Array(text.utf8), sourceName: "model.json")
        Issue.record("expected model problems")
        return []
    } catch let error as ModelError {
        return error.problems.map(\.description)
    } catch {
        Issue.record("expected a ModelError, got \(error)")
        return []
    }
}

@Suite struct ModelDecodingTests {
    /// `docs/model.md` example, completed with the entities its `root` names.
    static let specExample = """
        {
          "root": { "stops": "Stop", "trips": "Trip", "stop_times": "StopTime" },
          "entities": {
            "Stop": {
              "table": "stops",                        // default: the entity name
              "identity": "stopID",                    // attribute name, or a list of them (composite)
              "attributes": {
                "stopID":   { "type": "string", "key": "stop_id" },
                "name":     { "type": "string", "key": ["stop_name", "name"] },  // fallbacks in order
                "lat":      { "type": "double", "key": "location.lat" },          // key path
                "opened":   { "type": "date", "key": "opened", "dateFormat": "M/d/yyyy" },
                "accessible": { "type": "boolean", "default": false },
                "code": "string"                       // shorthand: type only
              },
              "relationships": {
                "parent":    { "entity": "Stop", "key": "parent_station" },       // to-one
                "stopTimes": { "entity": "StopTime", "toMany": true, "inverse": "stop" }
              }
            },
            /* The entities the root names besides Stop. */
            "Trip": {
              "identity": "tripID",
              "attributes": { "tripID": { "type": "string", "key": "trip_id" } }
            },
            "StopTime": {
              "attributes": { "sequence": { "type": "integer", "key": "stop_sequence", "optional": false } },
              "relationships": {
                "stop": { "entity": "Stop", "key": "stop_id", "column": "stop", "unresolved": "stub" },
                "trip": { "entity": "Trip", "key": "trip_id", "relatedBy": "tripID", "unresolved": "fail" }
              }
            }
          }
        }
        """

    @Test func specExampleDecodesToTheExpectedModel() throws {
        let model = try decodeModel(Self.specExample)
        let expected = Model(
            root: .paths([
                (JSONKeyPath(["stops"]), "Stop"), (JSONKeyPath(["trips"]), "Trip"), (JSONKeyPath(["stop_times"]), "StopTime"),
            ]),
            entities: [
                Model.Entity(
                    name: "Stop", table: "stops", identity: ["stopID"],
                    attributes: [
                        Model.Attribute(name: "stopID", type: .string, keys: [JSONKeyPath(["stop_id"])]),
                        Model.Attribute(name: "name", type: .string,
                                        keys: [JSONKeyPath(["stop_name"]), JSONKeyPath(["name"])]),
                        Model.Attribute(name: "lat", type: .double, keys: [JSONKeyPath(["location", "lat"])]),
                        Model.Attribute(name: "opened", type: .date, keys: [JSONKeyPath(["opened"])],
                                        dateFormat: "M/d/yyyy"),
                        Model.Attribute(name: "accessible", type: .boolean, defaultValue: .bool(false)),
                        Model.Attribute(name: "code", type: .string),
                    ],
                    relationships: [
                        Model.Relationship(name: "parent", entity: "Stop", keys: [JSONKeyPath(["parent_station"])]),
                        Model.Relationship(name: "stopTimes", entity: "StopTime", toMany: true, inverse: "stop"),
                    ]),
                Model.Entity(
                    name: "Trip", identity: ["tripID"],
                    attributes: [Model.Attribute(name: "tripID", type: .string, keys: [JSONKeyPath(["trip_id"])])]),
                Model.Entity(
                    name: "StopTime",
                    attributes: [
                        Model.Attribute(name: "sequence", type: .integer, keys: [JSONKeyPath(["stop_sequence"])],
                                        optional: false),
                    ],
                    relationships: [
                        Model.Relationship(name: "stop", entity: "Stop", keys: [JSONKeyPath(["stop_id"])],
                                           column: "stop", unresolved: .stub),
                        Model.Relationship(name: "trip", entity: "Trip", keys: [JSONKeyPath(["trip_id"])],
                                           relatedBy: "tripID", unresolved: .fail),
                    ]),
            ])
        #expect(model == expected)
        // Spot checks of the defaults, in case the expectation above used them too.
        #expect(model.entity(named: "Trip")?.table == "Trip")
        #expect(model.entity(named: "Stop")?.relationships[0].column == "parent_pk")
        #expect(model.entity(named: "Stop")?.attribute(named: "code")?.keys == [JSONKeyPath(["code"])])
        #expect(model.entity(named: "Stop")?.attribute(named: "code")?.column == "code")
        #expect(model.entity(named: "Stop")?.attribute(named: "code")?.optional == true)
        #expect(model.entity(named: "StopTime")?.identity == [])
    }

    @Test func orderOfEntitiesAttributesAndRelationshipsIsTheFileOrder() throws {
        let model = try decodeModel("""
            { "entities": {
                "Z": { "attributes": { "b": "string", "a": "integer", "c": "json" },
                       "relationships": { "y": { "entity": "A" }, "x": { "entity": "Z" } } },
                "A": {}
            } }
            """)
        #expect(model.entities.map(\.name) == ["Z", "A"])
        #expect(model.entities[0].attributes.map(\.name) == ["b", "a", "c"])
        #expect(model.entities[0].relationships.map(\.name) == ["y", "x"])
        #expect(model.entities[1].attributes.isEmpty && model.entities[1].relationships.isEmpty)
        #expect(model.root == nil)
    }

    @Test func shorthandAttributeIsTheTypeOnly() throws {
        let model = try decodeModel(#"{ "entities": { "E": { "attributes": { "when": "date", "n": "decimal" } } } }"#)
        #expect(model.entities[0].attributes == [
            Model.Attribute(name: "when", type: .date),
            Model.Attribute(name: "n", type: .decimal),
        ])
    }

    @Test func everyAttributeTypeIsAccepted() throws {
        let names = AttributeType.allCases.map(\.rawValue)
        let attributes = names.map { "\"a_\($0)\": \"\($0)\"" }.joined(separator: ", ")
        let model = try decodeModel(#"{ "entities": { "E": { "attributes": { \#(attributes) } } } }"#)
        #expect(model.entities[0].attributes.map(\.type) == AttributeType.allCases)
    }

    @Test func fallbackKeysAndKeyPaths() throws {
        let model = try decodeModel("""
            { "entities": { "E": { "attributes": {
                "lat": { "type": "double", "key": ["location.lat", "geo.coordinates.0", "lat"] },
                "lon": { "type": "double", "key": "location.lon", "column": "longitude" }
            }, "relationships": {
                "owner": { "entity": "E", "key": ["owner.id", "owner_id"], "relatedBy": "lat" }
            } } } }
            """)
        let entity = model.entities[0]
        #expect(entity.attributes[0].keys == [
            JSONKeyPath(["location", "lat"]), JSONKeyPath(["geo", "coordinates", "0"]), JSONKeyPath(["lat"]),
        ])
        #expect(entity.attributes[1].keys == [JSONKeyPath(["location", "lon"])])
        #expect(entity.attributes[1].column == "longitude")
        #expect(entity.relationships[0].keys == [JSONKeyPath(["owner", "id"]), JSONKeyPath(["owner_id"])])
        #expect(entity.relationships[0].relatedBy == "lat")
    }

    @Test func compositeIdentity() throws {
        let model = try decodeModel("""
            { "entities": { "StopTime": {
                "identity": ["tripID", "sequence"],
                "attributes": { "tripID": { "type": "string", "key": "trip_id" },
                                "sequence": { "type": "integer", "key": "stop_sequence" } }
            } } }
            """)
        #expect(model.entities[0].identity == ["tripID", "sequence"])
    }

    @Test func rootAsAnEntityName() throws {
        let model = try decodeModel(#"{ "root": "E", "entities": { "E": {} } }"#)
        #expect(model.root == .entity("E"))
    }

    @Test func rootKeyPathsAreSplitOnDots() throws {
        let model = try decodeModel(#"{ "root": { "data.items": "E", "more": "E" }, "entities": { "E": {} } }"#)
        #expect(model.root == .paths([(JSONKeyPath(["data", "items"]), "E"), (JSONKeyPath(["more"]), "E")]))
    }

    @Test func attributeFieldsAllDecode() throws {
        let model = try decodeModel("""
            { "entities": { "E": { "attributes": {
                "a": { "type": "json", "optional": false, "default": { "x": [1.50, null] },
                       "defaultWhenMissing": true },
                "b": { "type": "string", "default": null },
                "c": { "type": "date", "dateFormat": "unix-ms" }
            } } } }
            """)
        let attributes = model.entities[0].attributes
        #expect(attributes[0] == Model.Attribute(
            name: "a", type: .json, optional: false,
            defaultValue: .object([.init("x", .array([.number("1.50"), .null]))]), defaultWhenMissing: true))
        #expect(attributes[1].defaultValue == .null)
        #expect(attributes[2].dateFormat == "unix-ms")
    }

    /// `bits` narrows an integer attribute (Core Data's Integer 16 and 32); anything else is a
    /// problem at its place, and the model writer writes it back.
    @Test func integerBits() throws {
        let model = try decodeModel("""
            { "entities": { "E": { "attributes": {
                "a": { "type": "integer", "bits": 16 }, "b": { "type": "integer", "bits": 32 },
                "c": { "type": "integer", "bits": 64 }, "d": "integer"
            } } } }
            """)
        #expect(model.entities[0].attributes.map(\.bits) == [16, 32, 64, nil])
        #expect(ModelWriter.text(of: model).contains(#""a": { "type": "integer", "bits": 16 }"#))
        #expect(modelProblems("""
            { "entities": { "E": { "attributes": {
                "a": { "type": "integer", "bits": 8 }, "b": { "type": "integer", "bits": "16" },
                "c": { "type": "string", "bits": 16 }, "d": { "type": "integer", "bits": 16.0 }
            } } } }
            """) == [
            "entities.E.attributes.a.bits: expected 16, 32 or 64",
            "entities.E.attributes.b.bits: expected 16, 32 or 64",
            "entities.E.attributes.c.bits: only integer attributes take bits",
            "entities.E.attributes.d.bits: expected 16, 32 or 64",
        ])
    }

    @Test func relationshipFieldsAllDecode() throws {
        let model = try decodeModel("""
            { "entities": {
                "A": { "identity": "id", "attributes": { "id": "integer", "code": "string" },
                       "relationships": {
                           "bs": { "entity": "B", "toMany": true, "merge": "replace", "unresolved": "stub",
                                   "key": "b_list", "relatedBy": "id" } } },
                "B": { "identity": "id", "attributes": { "id": "integer" },
                       "relationships": { "a": { "entity": "A", "inverse": "bs", "relatedBy": "code",
                                                 "column": "a_ref", "unresolved": "null", "toMany": false } } }
            } }
            """)
        #expect(model.entities[0].relationships[0] == Model.Relationship(
            name: "bs", entity: "B", toMany: true, keys: [JSONKeyPath(["b_list"])], relatedBy: "id",
            merge: .replace, unresolved: .stub))
        #expect(model.entities[1].relationships[0] == Model.Relationship(
            name: "a", entity: "A", relatedBy: "code", inverse: "bs", column: "a_ref"))
    }

    @Test func syntaxErrorIsAUsageErrorWithItsPosition() throws {
        let text = """
            {
              "entities": {
                "E": { "attributes": { "a": "string", } }
              }
            }
            """
        do {
            _ = try decodeModel(text)
            Issue.record("expected a syntax error")
        } catch let error as SluiceError {
            #expect(error.kind == .usage)
            #expect(error.source == "model.json")
            #expect(error.position?.line == 3)
            #expect(error.position?.column != nil)
            #expect(error.description.hasPrefix("model.json:3:"))
        }
    }

    @Test func emptyFileIsAUsageError() {
        #expect(throws: SluiceError.self) { try decodeModel("  // nothing\n") }
        do {
            _ = try decodeModel("")
        } catch let error as SluiceError {
            #expect(error.kind == .usage)
        } catch {
            Issue.record("expected a SluiceError, got \(error)")
        }
    }

    @Test func commentsAreAllowed() throws {
        let model = try decodeModel("""
            // A model.
            { /* entities */ "entities": { "E": {} } } // end
            """)
        #expect(model.entities.map(\.name) == ["E"])
    }

    @Test func decodingATreeDirectly() throws {
        let value = JSONValue.object([.init("entities", .object([.init("E", .object([]))]))])
        #expect(try Model(decoding: value).entities == [Model.Entity(name: "E", attributes: [])])
        let expected = ModelError(source: "x.json", problems: [ModelProblem(path: "", message: "expected an object")])
        #expect(throws: expected) {
            try Model(decoding: .array([]), sourceName: "x.json")
        }
    }

    @Test func modelErrorConvertsToOneUsageError() {
        let error = ModelError(source: "model.json", problems: [
            ModelProblem(path: "entities.E.table", message: "expected a string"),
            ModelProblem(path: "root", message: "unknown entity \"F\""),
        ])
        let converted = error.sluiceError
        #expect(converted.kind == .usage)
        #expect(converted.position == nil)
        #expect(converted.message == #"entities.E.table: expected a string; root: unknown entity "F""#)
        #expect(error.description == """
            model.json: entities.E.table: expected a string
            model.json: root: unknown entity "F"
            """)
    }
}
