import Testing
@testable import Sluice

extension InferenceTests {
    /// Identity: an id-like key present, non-null, a string or integer and unique in every
    /// sampled record.
    @Suite struct IdentityInferenceTests {
        @Test func idIsPreferredToEntityID() throws {
            let model = try InferenceTests.infer(#"[{"stop_id": "a", "id": 1}, {"stop_id": "b", "id": 2}]"#, name: "stops.json").model
            #expect(model.entities[0].name == "Stop")
            #expect(model.entities[0].identity == ["id"])
        }

        @Test func entityIDInItsSpellings() throws {
            for key in ["stop_id", "stopId", "StopID", "STOP_ID"] {
                let model = try InferenceTests.infer(#"[{"\#(key)": "a"}, {"\#(key)": "b"}]"#, name: "stops.ndjson").model
                #expect(model.entities[0].identity == [key], "\(key)")
            }
            let other = try InferenceTests.infer(#"[{"trip_id": "a"}, {"trip_id": "b"}]"#, name: "stops.ndjson").model
            #expect(other.entities[0].identity == [])
        }

        @Test func uuidWhenThereIsNoID() throws {
            let model = try InferenceTests.infer(#"[{"uuid": "6f9619ff-8b86-d011-b42d-00c04fc964ff", "n": 1}]"#).model
            #expect(model.entities[0].identity == ["uuid"])
            #expect(model.type("Record", "uuid") == .uuid)
        }

        @Test func entityOptionNamesTheCandidates() throws {
            let model = try InferenceTests.infer(#"[{"person_id": 7}]"#, entity: "Person").model
            #expect(model.entities[0].name == "Person")
            #expect(model.entities[0].identity == ["person_id"])
        }

        @Test(arguments: [
            (#"[{"id": 1}, {"n": 2}]"#, "missing in a record"),
            (#"[{"id": 1}, {"id": null}]"#, "null in a record"),
            (#"[{"id": 1}, {"id": 1}]"#, "repeated"),
            (#"[{"id": 1.5}, {"id": 2.5}]"#, "a real"),
            (#"[{"id": true}]"#, "a boolean"),
            (#"[{"id": {"a": 1}}]"#, "an object"),
            (#"[{"id": [1]}]"#, "an array"),
        ])
        func noIdentityWhenTheKeyIs(_ json: String, _ why: String) throws {
            let result = try InferenceTests.infer(json)
            #expect(result.model.entities[0].identity == [], "\(why)")
            #expect(result.notes.last == "Record: no id-like key (id, record_id, recordId, uuid) holds a unique string or integer in every sampled record, so it has no identity and is append-only: importing the same input again adds its rows again")
        }

        @Test func aWeakerCandidateWinsWhenTheBestFails() throws {
            let model = try InferenceTests.infer(#"[{"id": 1, "record_id": "a"}, {"id": 1, "record_id": "b"}]"#).model
            #expect(model.entities[0].identity == ["record_id"])
        }

        @Test func stringAndIntegerIDsAreStringIdentities() throws {
            let model = try InferenceTests.infer(#"[{"id": 1}, {"id": "x"}]"#).model
            #expect(model.entities[0].identity == ["id"])
            #expect(model.type("Record", "id") == .string)
        }

        /// Uniqueness is judged within the sample: a repeat after it cannot be seen.
        @Test func uniqueWithinTheSample() throws {
            let result = try InferenceTests.infer(#"{"id": 1} {"id": 2} {"id": 1}"#, sample: 2)
            #expect(result.records == 2)
            #expect(result.model.entities[0].identity == ["id"])
        }
    }
}
