import Foundation
import SluiceTestSupport
import Testing
@testable import Sluice

/// Results that are legal but most likely not what was meant end with a note and its likely
/// fix, never in silence (`docs/import-semantics.md`, notes).
@Suite struct ImportNotesTests {
    private func notes(_ result: SluiceResult) -> [String] {
        result.stderrLines.filter { $0.hasPrefix("sluice: note: ") }
    }

    /// A map's member holds its record's value under its name, not under a key: such a record
    /// did hold something (the property tests saw the note claim otherwise).
    @Test func recordsNamedByTheirMapMemberAreNotSaidToHoldNothing() throws {
        let workspace = Workspace()
        let model = try workspace.write(#"""
            {"root": "P", "entities": {
              "P": {"table": "p", "identity": "id", "attributes": {"id": "string"},
                    "relationships": {"kids": {"entity": "Kid", "toMany": true, "map": "name"}}},
              "Kid": {"table": "kid", "attributes": {"name": "string", "age": "integer"}}}}
            """#, to: "model.json")
        let result = try workspace.sluice("import", "--db", "out.sqlite", "--model", model,
                                          stdin: Array(#"{"id": "x", "kids": {"b": {}, "c": {}}}"#.utf8))
        #expect(result.status == 0, "\(result)")
        #expect(notes(result) == [#"sluice: note: Kid.age: key "age" is in none of the 2 Kid records"#], "\(result)")
        #expect(try workspace.database("out.sqlite").rows("SELECT name FROM kid ORDER BY name") == [[.text("b")], [.text("c")]])
    }

    @Test func aModelWhoseRootMapsKeysFedABareArraySuggestsEntity() throws {
        let workspace = Workspace()
        let model = try workspace.write(#"""
            {"root": {"items": "Item"}, "entities": {"Item": {"identity": ["id"], "attributes": {"id": "integer"}}}}
            """#, to: "model.json")
        let input = try workspace.write(#"[{"id": 1}, {"id": 2}]"#, to: "items.json")
        let result = try workspace.sluice("import", "--db", "out.sqlite", "--model", model, input)
        #expect(result.status == 0, "\(result)")
        #expect(notes(result) == [
            #"sluice: note: items.json: no record found: the model's root reads records under "items" (Item); "#
                + "the input is an array: to import its elements, add --entity Item",
        ], "\(result)")
        let fixed = try workspace.sluice("import", "--db", "out.sqlite", "--model", model, "--entity", "Item", input)
        #expect(fixed.status == 0, "\(fixed)")
        #expect(notes(fixed) == [], "\(fixed)")
        #expect(try workspace.database("out.sqlite").count("Item") == 2)
    }

    @Test func anEnvelopeWhoseKeyTheModelDoesNotReadSuggestsPath() throws {
        let workspace = Workspace()
        let model = try workspace.write(#"""
            {"root": {"data.items": "Item"}, "entities": {"Item": {"attributes": {"id": "integer"}}}}
            """#, to: "model.json")
        let result = try workspace.sluice("import", "--db", "out.sqlite", "--model", model,
                                          stdin: Array(#"{"results": [{"id": 1}], "count": 1}"#.utf8))
        #expect(result.status == 0, "\(result)")
        #expect(notes(result) == [
            #"sluice: note: <stdin>: no record found: the model's root reads records under "data.items" (Item); "#
                + #"the input is an object holding an array under "results": to import the elements of one, "#
                + "add --entity Item --path results",
        ], "\(result)")
    }

    /// A `--path` whose first key is there but a later one is not (a typo) found no record:
    /// the note names the key missing and the nearest one the input holds there.
    @Test func aMistypedPathIsANoteNamingTheNearestKey() throws {
        let workspace = Workspace()
        let model = try workspace.write(#"{"entities": {"Item": {"attributes": {"id": "integer"}}}}"#, to: "model.json")
        let input = Array(#"{"data": {"count": 1, "items": [{"id": 1}]}}"#.utf8)

        let result = try workspace.sluice(["import", "--db", "out.sqlite", "--model", model, "--entity", "Item",
                                           "--path", "data.itemz"], stdin: input)

        #expect(result.status == 0, "\(result)")
        #expect(notes(result) == [
            #"sluice: note: <stdin>: no record found: --entity and --path read records under "data.itemz" (Item); "#
                + #""data" holds no key "itemz"; did you mean "data.items"?"#,
        ], "\(result)")
        let fixed = try workspace.sluice(["import", "--db", "out.sqlite", "--model", model, "--entity", "Item",
                                          "--path", "data.items"], stdin: input)
        #expect(notes(fixed) == [], "\(fixed)")
        let empty = try workspace.sluice(["import", "--db", "out.sqlite", "--model", model, "--entity", "Item",
                                          "--path", "data.items"], stdin: Array(#"{"data": {"items": []}}"#.utf8))
        #expect(notes(empty) == [], "an envelope whose records are there but none: \(empty)")
    }

    @Test func anEmptyInputOrAnEmptyEnvelopeIsNoNote() throws {
        let workspace = Workspace()
        let model = try workspace.write(#"""
            {"root": {"items": "Item"}, "entities": {"Item": {"attributes": {"id": "integer"}}}}
            """#, to: "model.json")
        for input in ["[]", #"{"items": []}"#, "\n"] {
            let result = try workspace.sluice("import", "--db", "out.sqlite", "--model", model, stdin: Array(input.utf8))
            #expect(result.status == 0, "\(result)")
            #expect(notes(result) == [], "\(input): \(result)")
        }
    }

    @Test func anEnvelopeReadAsOneRecordSuggestsPath() throws {
        let workspace = Workspace()
        let model = try workspace.write(#"""
            {"root": "Stop", "entities": {"Stop": {"table": "stops", "identity": ["id"],
              "attributes": {"id": {"type": "string", "key": "stop_id"}, "name": "string"}}}}
            """#, to: "model.json")
        let input = Array(#"{"stops": [{"stop_id": "A", "name": "Alpha"}, {"stop_id": "B", "name": "Beta"}]}"#.utf8)
        let result = try workspace.sluice("import", "--db", "out.sqlite", "--model", model, stdin: input)
        #expect(result.status == 0, "\(result)")
        #expect(notes(result) == [
            "sluice: note: Stop: none of the 1 Stop record held any of its keys, so each was imported with no values; "
                + #"the input is an object holding an array under "stops": to import the elements of one as Stop records, "#
                + "add --entity Stop --path stops",
        ], "\(result)")
        let fixed = try workspace.sluice("import", "--db", "fixed.sqlite", "--model", model, "--entity", "Stop", "--path", "stops",
                                         stdin: input)
        #expect(notes(fixed) == [], "\(fixed)")
        #expect(try workspace.database("fixed.sqlite").rows(#"SELECT "id", "name" FROM "stops" ORDER BY "id""#)
            == [[.text("A"), .text("Alpha")], [.text("B"), .text("Beta")]])
    }

    @Test func aKeyNoRecordHeldIsNamedWithTheNearestKeyTheyHeld() throws {
        let workspace = Workspace()
        let model = try workspace.write(#"""
            {"entities": {"Stop": {"identity": ["id"], "attributes": {
              "id": {"type": "string", "key": "stop_id"},
              "name": {"type": "string", "key": "stop_nmae"},
              "lat": {"type": "double", "key": "location.latt"},
              "code": "string"}}}}
            """#, to: "model.json")
        let input = Array(#"""
            {"stop_id": "A", "stop_name": "Alpha", "location": {"lat": 1.5}}
            {"stop_id": "B", "stop_name": "Beta", "location": {"lat": 2.5}}
            """#.utf8)
        let result = try workspace.sluice("import", "--db", "out.sqlite", "--model", model, stdin: input)
        #expect(result.status == 0, "\(result)")
        #expect(notes(result) == [
            #"sluice: note: Stop.name: key "stop_nmae" is in none of the 2 Stop records; did you mean "stop_name"?"#,
            #"sluice: note: Stop.lat: key "location.latt" is in none of the 2 Stop records; did you mean "location.lat"?"#,
            #"sluice: note: Stop.code: key "code" is in none of the 2 Stop records"#,
        ], "\(result)")
    }

    @Test func anIdentityMissingFromEveryRecordIsANote() throws {
        let workspace = Workspace()
        let model = try workspace.write(#"""
            {"entities": {"Order": {"identity": ["id"], "attributes": {"id": {"type": "integer", "key": "ID"}, "total": "double"}}}}
            """#, to: "model.json")
        let input = Array(#"[{"id": 1, "total": 2.5}, {"id": 2, "total": 3}]"#.utf8)
        let result = try workspace.sluice("import", "--db", "out.sqlite", "--model", model, stdin: input)
        #expect(result.status == 0, "\(result)")
        #expect(notes(result) == [
            #"sluice: note: Order.id: the identity's key "ID" is in none of the 2 Order records, so each was inserted "#
                + #"as a new row, and a re-import inserts it again; did you mean "id"?"#,
        ], "\(result)")
    }

    @Test func quietPrintsNoNotes() throws {
        let workspace = Workspace()
        let model = try workspace.write(#"""
            {"entities": {"Item": {"attributes": {"id": "integer", "nmae": "string"}}}}
            """#, to: "model.json")
        let result = try workspace.sluice("import", "--db", "out.sqlite", "--model", model, "--quiet",
                                          stdin: Array(#"{"id": 1, "name": "a"}"#.utf8))
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr == "", "\(result)")
    }
}

/// An import into an existing database leaves no table it wrote nothing into
/// (`docs/database-layout.md`, existing databases).
@Suite struct UnusedTablesTests {
    @Test func aModelThatMatchedNothingCreatesNoTableInAnExistingDatabase() throws {
        let workspace = Workspace()
        let items = try workspace.write(#"{"entities": {"Item": {"table": "items", "identity": ["id"], "attributes": {"id": "integer"}}}}"#,
                                        to: "items.json")
        let first = try workspace.sluice("import", "--db", "db.sqlite", "--model", items, stdin: Array(#"[{"id": 1}]"#.utf8))
        try #require(first.status == 0, "\(first)")
        let orders = try workspace.write(#"""
            {"root": {"orders": "Order"}, "entities": {
              "Order": {"table": "orders", "identity": ["id"], "attributes": {"id": "integer"},
                        "relationships": {"lines": {"entity": "Line", "toMany": true}}},
              "Line": {"table": "lines", "attributes": {"n": "integer"}}}}
            """#, to: "orders.json")
        let result = try workspace.sluice("import", "--db", "db.sqlite", "--model", orders, stdin: Array(#"[{"id": 1}]"#.utf8))
        #expect(result.status == 0, "\(result)")
        #expect(result.stderrLines.contains { $0.hasPrefix("sluice: note: <stdin>: no record found") }, "\(result)")
        let database = try workspace.database("db.sqlite")
        #expect(try database.tables() == ["items", "sluice_imports"])
        #expect(try database.count("sluice_imports") == 2)

        // The same model with records creates its tables, the one it wrote nothing into aside.
        let matched = try workspace.sluice("import", "--db", "db.sqlite", "--model", orders,
                                           stdin: Array(#"{"orders": [{"id": 1}]}"#.utf8))
        #expect(matched.status == 0, "\(matched)")
        #expect(try workspace.database("db.sqlite").tables() == ["items", "orders", "sluice_imports"])
    }

    @Test func aNewDatabaseHasEveryTableOfTheModel() throws {
        let workspace = Workspace()
        let model = try workspace.write(#"""
            {"root": {"orders": "Order"}, "entities": {"Order": {"table": "orders", "attributes": {"id": "integer"}}}}
            """#, to: "orders.json")
        let result = try workspace.sluice("import", "--db", "new.sqlite", "--model", model, stdin: Array("[]".utf8))
        #expect(result.status == 0, "\(result)")
        #expect(try workspace.database("new.sqlite").tables() == ["orders", "sluice_imports"])
    }
}
