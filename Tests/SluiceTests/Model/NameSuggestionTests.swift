import Testing
@testable import Sluice

/// "Did you mean": the nearest known name, only when it is close enough to be a typo.
@Suite struct NameSuggestionTests {
    @Test(arguments: [
        ("idnetity", "identity"),  // two letters swapped: one edit
        ("Stp", "Stop"),
        ("stoptime", "StopTime"),  // case only
        ("to_many", "toMany"),     // two edits in a longer name
        ("tabel", "table"),
        ("attribute", "attributes"),
    ])
    func closeNamesAreSuggested(_ typed: String, _ expected: String) {
        let known = ["identity", "Stop", "StopTime", "toMany", "table", "attributes", "key", "E"]
        #expect(NameSuggestion.nearest(to: typed, among: known) == expected)
    }

    @Test(arguments: ["nope", "F", "r", "nullable", "relationshipz_x", "ab"])
    func farNamesAreNot(_ typed: String) {
        let known = ["identity", "Stop", "StopTime", "toMany", "table", "attributes", "key", "E", "a", "relationships"]
        #expect(NameSuggestion.nearest(to: typed, among: known) == nil)
    }

    @Test func tiesGoToTheFirstInAlphabeticalOrderAndTheNameItselfIsNotSuggested() {
        #expect(NameSuggestion.nearest(to: "Stopx", among: ["Stops", "Stopa"]) == "Stopa")
        #expect(NameSuggestion.nearest(to: "Stop", among: ["Stop"]) == nil)
    }

    @Test func editDistance() {
        func distance(_ a: String, _ b: String) -> Int { NameSuggestion.editDistance(Array(a), Array(b)) }
        #expect(distance("", "abc") == 3)
        #expect(distance("kitten", "sitting") == 3)
        #expect(distance("ab", "ba") == 1)
        #expect(distance("identity", "identity") == 0)
    }

    @Test func unknownEntityListsTheModelsEntities() {
        let entities = ["Stop", "Route", "Trip", "StopTime"]
        #expect(NameSuggestion.unknownEntity("Stp", entities: entities)
            == #"unknown entity "Stp"; the model has: Route, Stop, StopTime, Trip; did you mean "Stop"?"#)
        #expect(NameSuggestion.unknownEntity("Bus", entities: entities)
            == #"unknown entity "Bus"; the model has: Route, Stop, StopTime, Trip"#)
        let many = (1...25).map { "E\($0 < 10 ? "0" : "")\($0)" }
        #expect(NameSuggestion.unknownEntity("X", entities: many)
            == #"unknown entity "X"; the model has: "# + many.prefix(20).joined(separator: ", ") + " and 5 more")
    }

    @Test func everyReferenceOfAModelSuggests() {
        let problems = modelProblems("""
            {
              "root": "Itme",
              "entities": {
                "Item": {
                  "identitiy": "name",
                  "identity": "nmae",
                  "attributes": { "name": "string" },
                  "relationships": {
                    "owner": { "entity": "Item", "relatedBy": "naem", "inverse": "owned" },
                    "owns":  { "entity": "Item", "toMany": true, "inverse": "owner" }
                  }
                }
              }
            }
            """)
        #expect(problems == [
            #"root: unknown entity "Itme"; the model has: Item; did you mean "Item"?"#,
            #"entities.Item.identitiy: unknown field; did you mean "identity"?"#,
            #"entities.Item.identity: "nmae" is not an attribute or to-one relationship of Item; did you mean "name"?"#,
            #"entities.Item.relationships.owner.relatedBy: "naem" is not an attribute of Item; did you mean "name"?"#,
            #"entities.Item.relationships.owner.inverse: "owned" is not a relationship of Item; did you mean "owner"?"#,
        ])
    }
}
