import Testing
@testable import Sluice

extension InferenceTests {
    /// One top-level object holding record arrays (GTFS as `gtfs_to_json.py` writes it):
    /// an entity per array, relationships by id between them.
    @Suite struct EnvelopeInferenceTests {
        static let feed = """
            {"stop_times": [
              {"trip_id": "T1", "stop_id": "S1", "stop_sequence": 1, "arrival_time": "08:00:00"},
              {"trip_id": "T1", "stop_id": "S2", "stop_sequence": 2, "arrival_time": "08:05:00"},
              {"trip_id": "T2", "stop_id": "S1", "stop_sequence": 1, "arrival_time": "25:10:00"}],
             "trips": [{"trip_id": "T1", "route_id": "R1"}, {"trip_id": "T2", "route_id": "R1", "service_id": "WK"}],
             "routes": [{"route_id": "R1", "route_type": 3}],
             "stops": [{"stop_id": "S1", "stop_name": "A", "parent_station": "S9"}, {"stop_id": "S2", "stop_name": "B"}],
             "version": "2024", "empty": []}
            """

        @Test func eachRecordArrayIsARootEntity() throws {
            let result = try InferenceTests.infer(Self.feed, name: "feed.json")
            let model = result.model
            guard case .paths(let paths)? = model.root else { Issue.record("root \(String(describing: model.root))"); return }
            #expect(paths.map { "\($0.path) \($0.entity)" } == ["stop_times StopTime", "trips Trip", "routes Route", "stops Stop"])
            #expect(model.entities.map(\.name) == ["StopTime", "Trip", "Route", "Stop"])
            #expect(model.entities.map(\.table) == ["stop_times", "trips", "routes", "stops"])
            #expect(model.entities.map(\.identity) == [["trip_id", "stop_sequence"], ["trip_id"], ["route_id"], ["stop_id"]])
            #expect(result.notes.first == #"the input is one object holding record arrays; its other keys are left out: "version", "empty""#)
        }

        @Test func aKeyThatIsAnotherEntitysIdentityKeyIsARelationship() throws {
            let model = try InferenceTests.infer(Self.feed).model
            #expect(model.entity(named: "StopTime")?.relationships == [
                Model.Relationship(name: "trip", entity: "Trip", keys: [JSONKeyPath(["trip_id"])]),
                Model.Relationship(name: "stop", entity: "Stop", keys: [JSONKeyPath(["stop_id"])]),
            ])
            #expect(model.entity(named: "Trip")?.relationships == [
                Model.Relationship(name: "route", entity: "Route", keys: [JSONKeyPath(["route_id"])]),
            ])
            // The attributes stay: one key feeds both.
            #expect(model.type("StopTime", "trip_id") == .string)
            // parent_station names no identity key: left to the user.
            #expect(model.entity(named: "Stop")?.relationships == [])
            #expect(model.type("Stop", "parent_station") == .string)
        }

        /// `customer_id` refers to Customer when Customer's identity key is `id`.
        @Test func entityIDRefersToAnEntityIdentifiedByID() throws {
            let json = #"{"customers": [{"id": 1}], "orders": [{"id": 5, "customer_id": 1}, {"id": 6, "customerId": 1}]}"#
            let model = try InferenceTests.infer(json).model
            #expect(model.entity(named: "Order")?.relationships.map(\.name) == ["customer", "customer_2"])
            #expect(model.relationship("Order", "customer")?.entity == "Customer")
            #expect(model.relationship("Order", "customer_2")?.keys == [JSONKeyPath(["customerId"])])
        }

        @Test func noRelationshipAcrossTypes() throws {
            let json = #"{"routes": [{"route_id": 1}], "trips": [{"trip_id": "T", "route_id": "1"}]}"#
            let model = try InferenceTests.infer(json).model
            #expect(model.entity(named: "Trip")?.relationships == [])
        }

        @Test func anObjectWithAnIDIsOneRecord() throws {
            let model = try InferenceTests.infer(#"{"id": 1, "items": [{"id": 2}]}"#, name: "order.json").model
            #expect(model.root == .entity("Order"))
            #expect(model.relationship("Order", "items")?.entity == "Item")
        }

        @Test func entityOptionMakesTheObjectOneRecord() throws {
            let model = try InferenceTests.infer(#"{"stops": [{"stop_id": "S1"}]}"#, entity: "Feed").model
            #expect(model.root == .entity("Feed"))
            #expect(model.entities.map(\.name) == ["Feed", "Stop"])
            #expect(model.relationship("Feed", "stops")?.toMany == true)
        }

        @Test func twoTopLevelObjectsAreRecordsNotEnvelopes() throws {
            let model = try InferenceTests.infer(#"{"stops": [{"stop_id": "S1"}]} {"stops": [{"stop_id": "S2"}]}"#).model
            #expect(model.root == .entity("Record"))
        }

        /// Only the first `sample` records of each array are analysed, but every array is seen.
        @Test func everyArrayIsSampled() throws {
            var json = #"{"a": ["#
            for id in 1...50 { json += (id > 1 ? "," : "") + #"{"id": \#(id), "n": 1}"# }
            json += #"], "b": [{"id": 1, "n": "x"}, {"id": 1, "n": 2.5}]}"#
            let model = try InferenceTests.infer(json, sample: 1).model
            #expect(model.entities.map(\.name) == ["A", "B"])
            // The second b is past the sample: not seen, so neither the repeat nor the real.
            #expect(model.entity(named: "B")?.identity == ["id"])
            #expect(model.type("B", "n") == .string)
        }
    }
}
