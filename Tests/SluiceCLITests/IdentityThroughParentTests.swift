import Foundation
import SluiceTestSupport
import Testing
@testable import Sluice

/// Identities through a to-one (`docs/model.md#identity-through-the-parent`), through the
/// binary: families, forward references, records without a parent, and `check`. The scenarios
/// that run on both stores are in `StoreScenarioTests`.
@Suite struct IdentityThroughParentTests {
    /// A person's contacts, nested without ids: a family (`entityBy`) whose identity is the
    /// owner and the place in the array.
    static let contactsModel = """
        {"root": "Person", "entities": {
          "Person": {"table": "people", "identity": "id", "attributes": {"id": "integer"},
            "relationships": {"contacts": {"entity": "Contact", "toMany": true, "inverse": "owner", "position": "place"}}},
          "Contact": {"table": "contacts", "identity": ["owner", "place"], "abstract": true,
            "entityBy": {"key": "kind", "values": {"email": "Email", "phone": "Phone"}},
            "attributes": {"place": "integer"},
            "relationships": {"owner": {"entity": "Person"}}},
          "Email": {"parent": "Contact", "attributes": {"address": "string"}},
          "Phone": {"parent": "Contact", "attributes": {"number": "string"}}}}
        """

    @Test func familyMembersFindTheirRowsThroughTheirOwner() throws {
        let workspace = Workspace()
        try workspace.write(Self.contactsModel, to: "model.json")
        let input = """
            {"id": 1, "contacts": [{"kind": "email", "address": "a@x"}, {"kind": "phone", "number": "555"}]}
            {"id": 2, "contacts": [{"kind": "phone", "number": "777"}]}

            """
        let first = try workspace.sluice("import", "--db", "c.sqlite", "--model", "model.json", stdin: Array(input.utf8))
        #expect(first.status == 0, "\(first)")
        let contacts = #"SELECT p."id", c."place", c."entity", c."address", c."number" FROM "contacts" c JOIN "people" p ON p."pk" = c."owner_pk" ORDER BY 1, 2"#
        let db = try workspace.database("c.sqlite")
        #expect(try db.rows(contacts) == [
            [.integer(1), .integer(0), .text("Email"), .text("a@x"), .null],
            [.integer(1), .integer(1), .text("Phone"), .null, .text("555")],
            [.integer(2), .integer(0), .text("Phone"), .null, .text("777")],
        ])
        let again = try workspace.sluice("import", "--db", "c.sqlite", "--model", "model.json", stdin: Array(input.utf8))
        #expect(again.entityLines.last == "total: inserted 0, updated 0, unchanged 5, rejected 0, links 0, unresolved 0", "\(again)")
        // Person 2's first contact becomes an email: the same row, now an Email.
        let changed = #"{"id": 2, "contacts": [{"kind": "email", "address": "b@x"}]}"#
        let third = try workspace.sluice("import", "--db", "c.sqlite", "--model", "model.json", stdin: Array(changed.utf8))
        #expect(third.entityLines.last == "total: inserted 0, updated 1, unchanged 1, rejected 0, links 0, unresolved 0", "\(third)")
        #expect(try db.rows(contacts).last == [.integer(2), .integer(0), .text("Email"), .text("b@x"), .text("777")])
    }

    static let stopTimesModel = """
        {"root": {"stop_times": "StopTime", "trips": "Trip"}, "entities": {
          "Trip": {"table": "trips", "identity": "id", "attributes": {"id": "string"}},
          "StopTime": {"table": "stop_times", "identity": ["trip", "sequence"],
            "attributes": {"sequence": {"type": "integer", "key": "stop_sequence"}, "stop": "string"},
            "relationships": {"trip": {"entity": "Trip", "key": "trip_id"}}}}}
        """

    /// A to-one of an identity whose id is unknown when its batch is written (the trip comes in
    /// a later batch) leaves the identity incomplete: the stop time is a new row, linked in the
    /// second pass. Two such records with the same identity are not merged, and the second
    /// pass then stops on the identity index: nothing is written.
    @Test func forwardReferencesInAnIdentityAreLinkedInTheSecondPass() throws {
        let workspace = Workspace()
        try workspace.write(Self.stopTimesModel, to: "model.json")
        let twice = #"""
            {"stop_times": [{"trip_id": "T1", "stop_sequence": 1, "stop": "a"}, {"trip_id": "T1", "stop_sequence": 1, "stop": "b"}],
             "trips": [{"id": "T1"}]}
            """#
        let failed = try workspace.sluice("import", "--db", "t.sqlite", "--model", "model.json", "--batch-size", "1",
                                          stdin: Array(twice.utf8))
        #expect(failed.status == 65, "\(failed)")
        #expect(failed.stderrLines == [
            "sluice: error: cannot write database 't.sqlite': UNIQUE constraint failed: stop_times.trip_pk, stop_times.sequence",
        ], "\(failed)")
        #expect(!FileManager.default.fileExists(atPath: workspace.file("t.sqlite")))
        // In one batch the trip is written first, and the two records are one row.
        let merged = try workspace.sluice("import", "--db", "t.sqlite", "--model", "model.json", stdin: Array(twice.utf8))
        #expect(merged.status == 0, "\(merged)")
        #expect(try workspace.database("t.sqlite").rows(#"SELECT "sequence", "stop" FROM "stop_times""#)
            == [[.integer(1), .text("b")]])
        // A trip no input names leaves the stop time without identity: each import adds it again.
        let orphan = #"{"stop_times": [{"trip_id": "T9", "stop_sequence": 1}]}"#
        for _ in 0..<2 {
            let result = try workspace.sluice("import", "--db", "t.sqlite", "--model", "model.json", stdin: Array(orphan.utf8))
            #expect(result.entityLines.last == "total: inserted 1, updated 0, unchanged 0, rejected 0, links 0, unresolved 1", "\(result)")
        }
    }

    /// A person's phones at the top level, outside any person, have neither owner nor
    /// position: they are new rows each time, as any record with an incomplete identity.
    @Test func recordsOutsideTheirParentHaveNoIdentity() throws {
        let workspace = Workspace()
        try workspace.write("""
            {"root": {"people": "Person", "phones": "Phone"}, "entities": {
              "Person": {"table": "people", "identity": "id", "attributes": {"id": "integer"},
                "relationships": {"phones": {"entity": "Phone", "toMany": true, "inverse": "owner", "position": "index"}}},
              "Phone": {"table": "phones", "identity": ["owner", "index"], "attributes": {"index": "integer", "number": "string"},
                "relationships": {"owner": {"entity": "Person"}}}}}
            """, to: "model.json")
        let input = #"{"people": [{"id": 1, "phones": [{"number": "1"}]}], "phones": [{"number": "2", "index": 0}]}"#
        for round in 1...2 {
            let result = try workspace.sluice("import", "--db", "p.sqlite", "--model", "model.json", stdin: Array(input.utf8))
            #expect(result.status == 0, "\(result)")
            #expect(try workspace.database("p.sqlite").rows(#"SELECT count(*) FROM "phones""#) == [[.integer(Int64(round + 1))]])
        }
    }

    @Test func checkNamesAnIdentityCycle() throws {
        let workspace = Workspace()
        try workspace.write("""
            {"root": "Category", "entities": {"Category": {"identity": ["parent", "name"], "attributes": {"name": "string"},
              "relationships": {"parent": {"entity": "Category"}, "children": {"entity": "Category", "toMany": true, "inverse": "parent", "position": "nme"}}}}}
            """, to: "model.json")
        let result = try workspace.sluice("check", "--model", "model.json")
        #expect(result.status == 64, "\(result)")
        #expect(result.stderrLines == [
            #"sluice: error: model.json: entities.Category.identity: "parent" leads back to Category (Category → Category): the rows an identity's to-one points at are written first, so identities cannot form a cycle"#,
            #"sluice: error: model.json: entities.Category.relationships.children.position: "nme" is not an attribute of Category; did you mean "name"?"#,
        ], "\(result)")
    }
}
