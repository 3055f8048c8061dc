import Testing
@testable import Sluice

extension InferenceTests {
    /// Nested objects and arrays: relationships to entities with ids, key paths for small
    /// objects without, json for the rest.
    @Suite struct NestedInferenceTests {
        static let orders = """
            {"id": 1, "customer": {"id": "C1", "name": "Ann"}, "items": [{"id": 11, "sku": "A"}, {"id": 12, "sku": "B"}]}
            {"id": 2, "customer": "C1", "items": [{"id": 13, "sku": "A"}]}
            {"id": 3, "customer": null, "items": []}
            """

        @Test func objectsWithIDsAreRelatedEntitiesNamedAfterTheirKey() throws {
            let model = try InferenceTests.infer(Self.orders, name: "orders.ndjson").model
            #expect(model.entities.map(\.name) == ["Order", "Customer", "Item"])
            #expect(model.entities.map(\.table) == ["orders", "customer", "items"])
            #expect(model.root == .entity("Order"))
            #expect(model.relationship("Order", "customer") == Model.Relationship(name: "customer", entity: "Customer"))
            // Each item appears under one order: the link lives in the item's own column.
            #expect(model.relationship("Order", "items") == Model.Relationship(name: "items", entity: "Item", toMany: true, inverse: "order"))
            #expect(model.relationship("Item", "order") == Model.Relationship(name: "order", entity: "Order"))
            #expect(model.entity(named: "Customer")?.identity == ["id"])
            #expect(model.entity(named: "Order")?.attributes.map(\.name) == ["id"])
        }

        /// Tags shared between posts: a join table, not a column that the last post would own.
        @Test func childrenThatRepeatAreManyToMany() throws {
            let json = #"[{"id": 1, "tags": [{"id": "a"}, {"id": "b"}]}, {"id": 2, "tags": [{"id": "a"}]}]"#
            let model = try InferenceTests.infer(json, name: "posts.json").model
            #expect(model.relationship("Post", "tags") == Model.Relationship(name: "tags", entity: "Tag", toMany: true))
            #expect(model.entity(named: "Tag")?.relationships == [])
        }

        /// An inverse is named after the parent, but never after a key the child holds.
        @Test func anInverseAvoidsTheChildsKeys() throws {
            let json = #"{"id": 1, "items": [{"id": 2, "order": 5}]}"#
            let model = try InferenceTests.infer(json, name: "orders.json").model
            #expect(model.relationship("Order", "items")?.inverse == "order_2")
            #expect(model.entity(named: "Item")?.attributes.map(\.name) == ["id", "order"])
        }

        @Test func smallObjectsWithoutIDsAreFlattenedIntoKeyPaths() throws {
            let json = #"[{"id": 1, "geo": {"lat": 1.5, "lon": 2, "place": {"name": "x"}}}, {"id": 2, "geo": null}]"#
            let model = try InferenceTests.infer(json).model
            let attributes = try #require(model.entities.first?.attributes)
            #expect(attributes.map(\.name) == ["id", "geo_lat", "geo_lon", "geo_place_name"])
            #expect(attributes.map { $0.keys.map(\.description) } == [["id"], ["geo.lat"], ["geo.lon"], ["geo.place.name"]])
            #expect(attributes.map(\.type) == [.integer, .double, .integer, .string])
            #expect(model.entities.count == 1)
        }

        @Test func arraysOfObjectsWithoutIDsAreIdentifiedThroughTheirParent() throws {
            let result = try InferenceTests.infer(#"{"id": 1, "lines": [{"sku": "A", "qty": 2}, null], "x": {"id": 2}}"#)
            #expect(result.model.entities.map(\.name) == ["Record", "Line", "X"])
            #expect(result.model.relationship("Record", "lines")
                == Model.Relationship(name: "lines", entity: "Line", toMany: true, inverse: "record", position: "position"))
            #expect(result.model.entity(named: "Line")?.identity == ["record", "position"])
            #expect(result.model.entity(named: "Line")?.attributes.map(\.name) == ["sku", "qty", "position"])
            #expect(result.model.type("Line", "position") == .integer)
            #expect(result.notes == ["Line: identity (record, position): it has no id of its own, so each is identified by its Record and its place in the array (from 0)"])
        }

        /// Stop times nested in their trip: `stop_sequence` repeats across trips, never within
        /// one, so it identifies a stop time with its trip; where it repeats, the position does.
        @Test func aSequenceKeyUniqueWithinTheParentIdentifiesWithIt() throws {
            let trips = """
                {"trip_id": "T1", "stop_times": [{"stop_sequence": 1, "stop": "a"}, {"stop_sequence": 2, "stop": "b"}]}
                {"trip_id": "T2", "stop_times": [{"stop_sequence": 1, "stop": "a"}]}
                """
            let result = try InferenceTests.infer(trips, name: "trips.ndjson")
            #expect(result.model.entity(named: "StopTime")?.identity == ["trip", "stop_sequence"])
            #expect(result.model.relationship("Trip", "stop_times")?.position == nil)
            #expect(result.notes == ["StopTime: identity (trip, stop_sequence): it has no id of its own, and no stop_sequence repeats within one Trip"])
            let repeated = try InferenceTests.infer(trips.replacing(#""stop_sequence": 2"#, with: #""stop_sequence": 1"#), name: "trips.ndjson")
            #expect(repeated.model.entity(named: "StopTime")?.identity == ["trip", "position"])
        }

        @Test func placesNestedInSuchAnEntityAreIdentifiedThroughIt() throws {
            let model = try InferenceTests.infer(#"{"id": 1, "orders": [{"lines": [{"sku": "A"}, {"sku": "B"}]}]}"#).model
            #expect(model.entities.map(\.name) == ["Record", "Order", "Line"])
            #expect(model.entity(named: "Order")?.identity == ["record", "position"])
            #expect(model.entity(named: "Line")?.identity == ["order", "position"])
        }

        /// Without one parent entity, or mixed with ids that no identity could resolve, arrays
        /// of objects stay json.
        @Test func otherArraysOfObjectsWithoutIDsAreJSON() throws {
            let mixed = try InferenceTests.infer(#"{"id": 1, "lines": [{"sku": "A", "qty": 2}, "B"]}"#)
            #expect(mixed.model.type("Record", "lines") == .json)
            #expect(mixed.model.entities.count == 1)
            #expect(mixed.notes == ["Record.lines: arrays of objects without an id-like key are kept as json (an entity without identity would get its rows again on every import)"])
            let twoParents = try InferenceTests.infer(#"{"id": 1, "lines": [{"sku": "A"}], "child": {"id": 5, "lines": [{"sku": "B"}]}}"#)
            #expect(twoParents.model.entities.map(\.name) == ["Record", "Child"])
            #expect(twoParents.model.type("Record", "lines") == .json)
            #expect(twoParents.model.type("Child", "lines") == .json)
        }

        @Test func arraysOfScalarsAreJSON() throws {
            let model = try InferenceTests.infer(#"{"id": 1, "tags": ["a", "b"], "empty": []}"#).model
            #expect(model.type("Record", "tags") == .json)
            #expect(model.type("Record", "empty") == .json)
        }

        /// The same entity name in two places is one entity; a node holding nodes relates to itself.
        @Test func placesWithOneNameAreOneEntity() throws {
            let json = """
                {"id": 1, "author": {"id": 7, "name": "Ann"}, "comments": [{"id": 10, "author": {"id": 8, "email": "b@x"}}]}
                """
            let model = try InferenceTests.infer(json, name: "posts.json").model
            #expect(model.entities.map(\.name) == ["Post", "Author", "Comment"])
            #expect(model.entity(named: "Author")?.attributes.map(\.name) == ["id", "name", "email"])
            #expect(model.relationship("Comment", "author")?.entity == "Author")

            let tree = try InferenceTests.infer(#"{"id": 1, "children": [{"id": 2, "children": [{"id": 3}]}]}"#, name: "children.json").model
            #expect(tree.entities.map(\.name) == ["Child"])
            #expect(tree.relationship("Child", "children") == Model.Relationship(name: "children", entity: "Child", toMany: true, inverse: "child"))
        }

        @Test func deepNestingEndsInJSON() throws {
            var json = #"{"id": 0"#
            for level in 1...12 { json += #", "n\#(level)": {"id": \#(level)"# }
            json += String(repeating: "}", count: 13)
            let model = try InferenceTests.infer(json).model
            #expect(model.entities.count == SampleReader.maxDepth + 1)
            #expect(model.type("N8", "n9") == .json)
        }

        @Test func keysAModelCannotNameAreLeftOutWithANote() throws {
            let result = try InferenceTests.infer(#"{"id": 1, "a.b": 2, "": 3}"#)
            #expect(result.model.entities[0].attributes.map(\.name) == ["id"])
            #expect(result.notes == [
                #"Record: the key "a.b" is left out: a model key path cannot name a key holding a dot (the dot separates keys)"#,
                #"Record: the key "" is left out: a model cannot name an empty key"#,
            ])
        }

        @Test func keysThatAreNotColumnNamesGetOneAndKeepTheirKey() throws {
            let model = try InferenceTests.infer(#"{"first name": "a", "e-mail": "b", "2fa": true, "größe": 1, "pk": 2, "ID": 3, "id": 4}"#).model
            let attributes = try #require(model.entities.first?.attributes)
            #expect(attributes.map(\.name) == ["first_name", "e_mail", "_2fa", "größe", "pk_2", "ID", "id_2"])
            #expect(attributes.map { $0.keys.map(\.description) } == [["first name"], ["e-mail"], ["2fa"], ["größe"], ["pk"], ["ID"], ["id"]])
        }
    }
}
