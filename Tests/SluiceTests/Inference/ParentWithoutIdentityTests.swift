import Testing
@testable import Sluice

extension InferenceTests {
    /// An identity through a parent is only as stable as the parent's: a child of a parent
    /// without identity claims none (`docs/cli.md`, how `sluice infer` decides).
    @Suite struct ParentWithoutIdentityTests {
        private let tracker = #"""
            {"title": "t", "patterns": [
              {"name": "intro", "rows": 2, "data": [{"note": 61, "instr": 1}, {"note": 63, "instr": 1}]},
              {"name": "intro", "rows": 2, "data": [{"note": 61, "instr": 2}, {"note": null, "instr": 0}]}]}
            """#

        @Test func aChildOfAnEnvelopesRecordsWithoutIdClaimsNoIdentity() throws {
            let result = try InferenceTests.infer(tracker, name: "song.json")
            let pattern = try #require(result.model.entity(named: "Pattern"))
            let data = try #require(result.model.entity(named: "Data"))
            #expect(pattern.identity == [])
            #expect(data.identity == [])
            #expect(result.notes.contains("Data: no identity: it has no id of its own, and an identity through its Pattern "
                + "would not hold, since Pattern has none: importing the same input again adds the rows of both again"),
                    "\(result.notes)")
            #expect(!result.notes.contains { $0.hasPrefix("Data: identity") }, "\(result.notes)")
        }

        @Test func aChildOfAParentWithIdStillHasItsIdentityThroughIt() throws {
            let result = try InferenceTests.infer(#"""
                {"patterns": [{"id": 1, "data": [{"note": 61}, {"note": 63}]}, {"id": 2, "data": [{"note": 1}]}]}
                """#, name: "song.json")
            #expect(result.model.entity(named: "Data")?.identity == ["pattern", "position"])
        }
    }
}
