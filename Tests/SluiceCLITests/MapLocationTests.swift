import Foundation
import Testing
@testable import Sluice

/// Objects used as maps (`{"u1": {...}, "u2": {...}}`): records keyed by their names, at a
/// root location, under a to-many, with `--map-key`, and proposed by `infer`. Through the binary.
@Suite struct MapLocationTests {
    static let model = """
        { "root": { "users": { "entity": "User", "map": "userID" } },
          "entities": {
            "User": { "identity": "userID", "attributes": { "userID": "string", "name": "string" },
                      "relationships": { "posts": { "entity": "Post", "toMany": true, "map": "postID", "inverse": "author" } } },
            "Post": { "identity": "postID", "attributes": { "postID": "integer", "title": "string" },
                      "relationships": { "author": { "entity": "User" } } } } }
        """

    static let input = #"""
        {"users": {"u1": {"name": "Ann", "posts": {"1": {"title": "a"}, "2": {"title": "b"}}},
                   "u2": {"name": "Bo", "userID": "ignored: the member name wins", "posts": {}},
                   "u3": {"name": "Cy"}},
         "other": {"x": 1}}
        """#

    @Test func membersAreRecordsAndReimportWritesNothing() throws {
        let workspace = Workspace()
        try workspace.write(Self.model, to: "model.json")
        #expect(try workspace.sluice("check", "--model", "model.json").status == 0)
        let first = try workspace.sluice(["import", "--db", "out.sqlite", "--model", "model.json", "--stats", "s1.json"],
                                         stdin: Array(Self.input.utf8))
        #expect(first.status == 0, "\(first)")
        let database = try workspace.database("out.sqlite")
        #expect(try database.rows("SELECT userID, name FROM User ORDER BY pk")
            == [[.text("u1"), .text("Ann")], [.text("u2"), .text("Bo")], [.text("u3"), .text("Cy")]])
        #expect(try database.rows("SELECT postID, title, author_pk FROM Post ORDER BY pk")
            == [[.integer(1), .text("a"), .integer(1)], [.integer(2), .text("b"), .integer(1)]])
        let second = try workspace.sluice(["import", "--db", "out.sqlite", "--model", "model.json", "--stats", "s2.json"],
                                          stdin: Array(Self.input.utf8))
        #expect(second.status == 0, "\(second)")
        let stats = try #require(try JSONSerialization.jsonObject(with: Data(workspace.bytes(of: "s2.json") ?? [])) as? [String: Any])
        let totals = try #require(stats["totals"] as? [String: Any])
        #expect(totals["inserted"] as? Int == 0 && totals["updated"] as? Int == 0 && totals["links"] as? Int == 0)
        #expect(totals["unchanged"] as? Int == 5)
    }

    @Test func memberValuesThatAreNotObjectsAreRejected() throws {
        let workspace = Workspace()
        try workspace.write(Self.model, to: "model.json")
        let result = try workspace.sluice(["import", "--db", "out.sqlite", "--model", "model.json", "--on-error", "skip", "--quiet"],
                                          stdin: Array(#"{"users": {"u1": {"name": "Ann"}, "u2": 7, "u3": [1], "u4": {"name": "Di"}}}"#.utf8))
        #expect(result.status == 0, "\(result)")
        #expect(try workspace.database("out.sqlite").rows("SELECT userID FROM User ORDER BY pk") == [[.text("u1")], [.text("u4")]])
    }

    /// A `null` member is no record, as a `null` element of a to-many's array: skipped, not
    /// rejected, at a root location, under a to-many and without a model.
    @Test func nullMembersAreSkippedLikeNullElements() throws {
        let workspace = Workspace()
        try workspace.write(Self.model, to: "model.json")
        let input = #"{"users": {"u1": {"name": "Ann", "posts": {"1": null, "2": {"title": "b"}}}, "u2": null, "u3": {"name": "Cy"}}}"#
        let result = try workspace.sluice(["import", "--db", "out.sqlite", "--model", "model.json"], stdin: Array(input.utf8))
        #expect(result.status == 0, "\(result)")
        #expect(result.entityLines.last == "total: inserted 3, updated 0, unchanged 0, rejected 0, links 1, unresolved 0", "\(result)")
        let database = try workspace.database("out.sqlite")
        #expect(try database.rows("SELECT userID FROM User ORDER BY pk") == [[.text("u1")], [.text("u3")]])
        #expect(try database.rows("SELECT postID FROM Post ORDER BY pk") == [[.integer(2)]])
        let freeform = try workspace.sluice(["import", "--db", "free.sqlite", "--map-key", "id", "--quiet"],
                                            stdin: Array(#"{"a": {"n": 1}, "b": null, "c": {"n": 3}}"#.utf8))
        #expect(freeform.status == 0, "\(freeform)")
        #expect(try workspace.database("free.sqlite").rows(#"SELECT "id", "n" FROM "records" ORDER BY "id""#)
            == [[.text("a"), .integer(1)], [.text("c"), .integer(3)]])
    }

    @Test func mapKeyTakesTheTopLevelObjectOrOneUnderAPath() throws {
        let workspace = Workspace()
        try workspace.write(Self.model, to: "model.json")
        let members = #"{"0": {"name": "x"}, "1263": {"name": "y"}}"#
        let model = try workspace.sluice(["import", "--db", "m.sqlite", "--model", "model.json", "--entity", "User",
                                          "--map-key", "userID", "--quiet"], stdin: Array(members.utf8))
        #expect(model.status == 0, "\(model)")
        #expect(try workspace.database("m.sqlite").rows("SELECT userID, name FROM User ORDER BY pk")
            == [[.text("0"), .text("x")], [.text("1263"), .text("y")]])
        let zeroConfig = try workspace.sluice(["import", "--db", "z.sqlite", "--path", "data", "--map-key", "id", "--quiet"],
                                              stdin: Array(#"{"data": \#(members), "meta": {"n": 2}}"#.utf8))
        #expect(zeroConfig.status == 0, "\(zeroConfig)")
        #expect(try workspace.database("z.sqlite").rows("SELECT name, id FROM records ORDER BY pk")
            == [[.text("x"), .text("0")], [.text("y"), .text("1263")]])
        let unknown = try workspace.sluice(["import", "--db", "m.sqlite", "--model", "model.json", "--entity", "User",
                                            "--map-key", "userid"], stdin: Array(members.utf8))
        #expect(unknown.status == 64)
        #expect(unknown.stderrLines == [#"sluice: error: model.json: --map-key: "userid" is not an attribute of User; did you mean "userID"?"#])
    }

    @Test func checkNamesWhatIsWrongWithAMap() throws {
        let workspace = Workspace()
        try workspace.write("""
            { "root": { "users": { "entity": "User", "map": "userid" }, "x": { "entity": "User", "mop": "userID" } },
              "entities": {
                "User": { "identity": "userID", "attributes": { "userID": "string" },
                          "relationships": { "best": { "entity": "User", "map": "userID" } } } } }
            """, to: "model.json")
        let result = try workspace.sluice("check", "--model", "model.json")
        #expect(result.status == 64)
        #expect(result.stderrLines == [
            #"sluice: error: model.json: root.users.map: "userid" is not an attribute of User; did you mean "userID"?"#,
            #"sluice: error: model.json: root.x.mop: unknown field; did you mean "map"?"#,
            "sluice: error: model.json: entities.User.relationships.best.map: only a to-many relationship can be a map (its members are records of User)",
        ])
    }

    @Test func inferProposesMapsForAFirebaseExport() throws {
        let workspace = Workspace()
        try workspace.write(#"""
            {"users": {"-NxA1b2C3d4E5f6G7h8I": {"name": "Ann", "age": 31},
                       "-NxA1b2C3d4E5f6G7h8J": {"name": "Bo", "age": 27}},
             "scores": {"0": {"points": 10}, "1": {"points": 7}, "2": {"points": 3}},
             "version": 3}
            """#, to: "export.json")
        let infer = try workspace.sluice("infer", "export.json")
        #expect(infer.status == 0, "\(infer)")
        #expect(infer.stdout.contains(#""users": {"#) && infer.stdout.contains(#""map": "id""#))
        #expect(infer.stderrLines.contains(#"sluice: note: "users" is an object used as a map (2 members whose values are objects): its members are User records, each member's name in User's map attribute"#))
        try workspace.write(infer.stdout, to: "model.json")
        let first = try workspace.sluice("import", "--db", "out.sqlite", "--model", "model.json", "--quiet", "export.json")
        #expect(first.status == 0, "\(first)")
        #expect(try workspace.database("out.sqlite").rows("SELECT id, name, age FROM users ORDER BY pk")
            == [[.text("-NxA1b2C3d4E5f6G7h8I"), .text("Ann"), .integer(31)], [.text("-NxA1b2C3d4E5f6G7h8J"), .text("Bo"), .integer(27)]])
        #expect(try workspace.database("out.sqlite").rows("SELECT id, points FROM scores ORDER BY pk")
            == [[.integer(0), .integer(10)], [.integer(1), .integer(7)], [.integer(2), .integer(3)]])
        let again = try workspace.sluice("import", "--db", "out.sqlite", "--model", "model.json", "--stats", "s.json", "export.json")
        #expect(again.status == 0)
        let stats = try #require(try JSONSerialization.jsonObject(with: Data(workspace.bytes(of: "s.json") ?? [])) as? [String: Any])
        #expect((stats["totals"] as? [String: Any])?["unchanged"] as? Int == 5)
    }

    @Test func inferProposesAToManyMapForMapsInsideRecords() throws {
        let workspace = Workspace()
        try workspace.write(#"""
            {"users": {
              "-NxA1b2C3d4E5f6G7h8I": {"name": "Ann", "posts": {"-NyA1b2C3d4E5f6G7h8I": {"title": "a"}, "-NyA1b2C3d4E5f6G7h8J": {"title": "b"}}},
              "-NxA1b2C3d4E5f6G7h8J": {"name": "Bo", "posts": {"-NyA1b2C3d4E5f6G7h8K": {"title": "c"}}},
              "-NxA1b2C3d4E5f6G7h8K": {"name": "Cy"}}}
            """#, to: "export.json")
        let infer = try workspace.sluice("infer", "export.json")
        #expect(infer.status == 0, "\(infer)")
        #expect(infer.stdout.contains(#""posts": { "entity": "Post", "toMany": true, "inverse": "user", "map": "id" }"#), "\(infer.stdout)")
        try workspace.write(infer.stdout, to: "model.json")
        let first = try workspace.sluice("import", "--db", "out.sqlite", "--model", "model.json", "--quiet", "export.json")
        #expect(first.status == 0, "\(first)")
        #expect(try workspace.database("out.sqlite").rows("SELECT p.id, p.title, u.name FROM posts p JOIN users u ON u.pk = p.user_pk ORDER BY p.pk")
            == [[.text("-NyA1b2C3d4E5f6G7h8I"), .text("a"), .text("Ann")], [.text("-NyA1b2C3d4E5f6G7h8J"), .text("b"), .text("Ann")],
                [.text("-NyA1b2C3d4E5f6G7h8K"), .text("c"), .text("Bo")]])
        let again = try workspace.sluice("import", "--db", "out.sqlite", "--model", "model.json", "export.json")
        #expect(again.entityLines == ["User: inserted 0, updated 0, unchanged 3, rejected 0, links 0, unresolved 0",
                                      "Post: inserted 0, updated 0, unchanged 3, rejected 0, links 0, unresolved 0",
                                      "total: inserted 0, updated 0, unchanged 6, rejected 0, links 0, unresolved 0"], "\(again)")
    }
}
