import Testing
@testable import Sluice

extension InferenceTests {
    /// The type of each key, decided over every sampled record (`ValueKinds.attributeType`).
    @Suite struct TypeLatticeTests {
        @Test func eachKindHasItsType() throws {
            let model = try InferenceTests.infer("""
                {"i": 1, "r": 1.5, "b": true, "s": "x", "d": "2024-01-05", "t": "2024-01-05T10:00:00Z", "u": "6F9619FF-8B86-D011-B42D-00C04FC964FF", "big": 123456789012345678901, "a": [1, 2]}
                {"i": -2, "r": 2, "b": false, "s": "y", "d": "2024-02-29", "t": "2024-01-05 10:00:00.123+02:00", "u": "6f9619ff-8b86-d011-b42d-00c04fc964fe", "big": 1, "a": []}
                """).model
            let types = model.entities[0].attributes.map { "\($0.name) \($0.type.rawValue)" }
            #expect(types == ["i integer", "r double", "b boolean", "s string", "d date", "t date", "u uuid", "big decimal", "a json"])
        }

        @Test func aFractionOrExponentAnywhereMakesADouble() throws {
            let model = try InferenceTests.infer(#"[{"n": 1}, {"n": 2.0}] [{"m": 1}, {"m": 1e3}]"#).model
            #expect(model.type("Record", "n") == .double)
            #expect(model.type("Record", "m") == .double)
        }

        @Test func mixedKindsFallBackToStringWithANote() throws {
            let result = try InferenceTests.infer(#"[{"v": 1, "w": true}, {"v": "one", "w": "yes"}]"#)
            #expect(result.model.type("Record", "v") == .string)
            #expect(result.model.type("Record", "w") == .string)
            #expect(result.notes.prefix(2) == [
                "Record.v: strings mixed with numbers; typed string",
                "Record.w: strings mixed with booleans; typed string",
            ])
        }

        @Test func objectsOrArraysMixedWithScalarsAreJSON() throws {
            let result = try InferenceTests.infer(#"[{"v": 1}, {"v": [1]}, {"v": {"a": 1}}]"#)
            #expect(result.model.type("Record", "v") == .json)
            #expect(result.notes.contains("Record.v: objects or arrays mixed with scalars; typed json"))
        }

        @Test func onlyNullIsAStringWithANote() throws {
            let result = try InferenceTests.infer(#"{"id": 1, "v": null}"#)
            #expect(result.model.type("Record", "v") == .string)
            #expect(result.notes == ["Record.v: only null in the sample; typed string"])
        }

        @Test func nullsAndMissingKeysDoNotChangeAType() throws {
            let model = try InferenceTests.infer(#"[{"n": 1}, {"n": null}, {}, {"n": 3}]"#).model
            #expect(model.type("Record", "n") == .integer)
        }

        @Test func booleansWithNumbersAreNumbers() throws {
            let model = try InferenceTests.infer(#"[{"i": 1, "r": 1.5}, {"i": true, "r": false}]"#).model
            #expect(model.type("Record", "i") == .integer)
            #expect(model.type("Record", "r") == .double)
        }

        /// Every store keeps microseconds (PostgreSQL no more): a finer fraction would be cut
        /// there, so it stays text.
        @Test func datesThatWouldLosePrecisionOrAreNotISOStayStrings() throws {
            let model = try InferenceTests.infer("""
                [{"micro": "2024-01-05T10:00:00.123456Z", "nano": "2024-01-05T10:00:00.123456789Z", "us": "1/5/2024",
                  "bad": "2024-02-30", "mixed": "2024-01-05"},
                 {"micro": "2024-01-05T10:00:00Z", "nano": "2024-01-05T10:00:00Z", "us": "1/6/2024", "bad": "2024-02-28",
                  "mixed": "soon"}]
                """).model
            #expect(model.type("Record", "micro") == .date)
            #expect(model.type("Record", "nano") == .string)
            #expect(model.type("Record", "us") == .string)
            #expect(model.type("Record", "bad") == .string)
            #expect(model.type("Record", "mixed") == .string)
        }

        @Test func numberKindsByTheirText() {
            func kind(_ text: String) -> ValueKinds.NumberKind {
                var text = text
                return text.withUTF8 { ValueKinds.numberKind(UnsafeRawBufferPointer($0)) }
            }
            #expect(kind("0") == .integer)
            #expect(kind("-9223372036854775808") == .integer)
            #expect(kind("9223372036854775808") == .bigInteger)
            #expect(kind("12.0") == .real)
            #expect(kind("1e3") == .real)
            #expect(kind("-0.5") == .real)
        }
    }
}
