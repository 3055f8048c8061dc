import Testing
@testable import Sluice

extension InferenceTests {
    /// Reading the sample: only as far as it needs, any input shape an import takes, errors
    /// placed as an import places them.
    @Suite struct SampleReadingTests {
        /// Whatever follows the sample is never parsed: here it is not even JSON.
        @Test func readingStopsAfterTheSample() throws {
            var input = ""
            for id in 1...10 { input += #"{"id": \#(id)}"# + "\n" }
            input += String(repeating: "x", count: 200_000)
            let result = try InferenceTests.infer(input, sample: 10)
            #expect(result.records == 10)
            #expect(result.model.entities[0].identity == ["id"])
            #expect(throws: SluiceError.self) { try InferenceTests.infer(input, sample: 11) }
        }

        @Test func recordsOfEveryShapeAnImportTakes() throws {
            let shapes = [
                #"[{"id": 1}, {"id": 2}]"#,
                "{\"id\": 1}\n\n\r\n{\"id\": 2}\n",
                #"{"id": 1}{"id": 2}"#,
                #"[{"id": 1}] [{"id": 2}]"#,
            ]
            for input in shapes {
                let result = try InferenceTests.infer(input)
                #expect(result.records == 2, "\(input)")
                #expect(result.model.entities[0].identity == ["id"], "\(input)")
            }
        }

        @Test func gzipIsInflated() throws {
            let compressed = try gzip(Array(#"{"id":1}"#.utf8))
            let result = try ModelInference.infer(bytes: compressed, name: "things.json.gz")
            #expect(result.model.entities[0].name == "Thing")
            #expect(result.model.entities[0].table == "things")
        }

        @Test func invalidJSONInTheSampleIsADataErrorWithItsPlace() {
            #expect {
                try InferenceTests.infer("{\"id\": 1}\n{\"id\" 2}", name: "in.json")
            } throws: { error in
                let error = error as? SluiceError
                return error?.kind == .data && error?.description == "in.json:2:7: invalid JSON: object key and value must be separated by a colon (':') near '{\"id\" 2}'"
            }
            #expect { try InferenceTests.infer("[{\"id\": 1}", name: "in.json") } throws: { error in
                (error as? SluiceError)?.description == "in.json:1:12: unexpected end of input: the JSON is truncated"
            }
        }

        @Test func inputWithoutObjectsIsADataError() {
            #expect { try InferenceTests.infer("", name: "in.json") } throws: { error in
                (error as? SluiceError)?.kind == .data && (error as? SluiceError)?.description == "in.json: no records: nothing to infer a model from"
            }
            #expect { try InferenceTests.infer("[1, \"a\", [2], null]", name: "in.json") } throws: { error in
                (error as? SluiceError)?.description == "in.json: none of the 4 records read is an object: nothing to infer a model from"
            }
        }

        @Test func recordsThatAreNotObjectsAreNoted() throws {
            let result = try InferenceTests.infer(#"[{"id": 1}, 2, [3]]"#)
            #expect(result.notes.first == "2 of the 3 sampled records are not objects: an import rejects them (--on-error skip skips them)")
        }

        @Test func entityAndTableNames() throws {
            #expect(try InferenceTests.infer("{}").model.entities.map { "\($0.name) \($0.table)" } == ["Record records"])
            #expect(try InferenceTests.infer("{}", entity: "Thing").model.entities.map { "\($0.name) \($0.table)" } == ["Thing Thing"])
            #expect(try InferenceTests.infer("{}", name: "data/people.ndjson.gz").model.entities.map { "\($0.name) \($0.table)" } == ["Person people"])
            #expect(try InferenceTests.infer("{}", name: "sqlite_stat.json").model.entities.map { "\($0.name) \($0.table)" } == ["SqliteStat t_sqlite_stat"])
        }

        @Test func usageErrors() {
            #expect { try InferenceTests.infer("{}", sample: 0) } throws: { ($0 as? SluiceError)?.kind == .usage }
            #expect { try InferenceTests.infer("{}", entity: "") } throws: { ($0 as? SluiceError)?.kind == .usage }
        }
    }
}
