import Foundation
import Testing
import SluiceTestSupport
@testable import Sluice

/// Custom imports of relationships (`EntityHooks.relationships`), as MagicalRecord's
/// `import<Relationship>:`: the hook gets the raw JSON at the relationship's key and says
/// what the record links to.
private let model = try! Model.parse(Array("""
    {
      "root": { "people": "Person", "companies": "Company", "tags": "Tag" },
      "entities": {
        "Company": { "identity": "code", "attributes": { "code": "string", "name": "string" } },
        "Tag": { "identity": "id", "attributes": { "id": "integer" } },
        "Person": {
          "identity": "id",
          "attributes": { "id": "integer", "name": "string" },
          "relationships": {
            "employer": { "entity": "Company", "key": ["employer", "company"] },
            "tags": { "entity": "Tag", "toMany": true }
          }
        }
      }
    }
    """.utf8), sourceName: "model.json")

/// A nested object is reduced to its `code`, a string is a code written in capitals, and
/// `"nobody"` unlinks: the company records themselves come from elsewhere.
private let employer: @Sendable (JSONValue) throws -> RelationshipImport = { raw in
    switch raw {
    case .object: return .ids([raw["code"] ?? .null])
    case .string("nobody"): return .clear
    case .string(let text): return .ids([.string(text.lowercased())])
    default: return .unchanged
    }
}

/// Tags as one comma-separated string of ids.
private let tags: @Sendable (JSONValue) throws -> RelationshipImport = { raw in
    guard case .string(let text) = raw else { return raw == .null ? .clear : .unchanged }
    return .ids(text.split(separator: ",").map { .number(String($0)) })
}

private func options(_ hooks: EntityHooks, onError: ImportOptions.ErrorPolicy = .abort) -> ImportOptions {
    var options = ImportOptions()
    options.batchSize = 2
    options.onError = onError
    options.hooks = ["Person": hooks]
    return options
}

private func links(_ db: String) throws -> [String] {
    try query(db, """
        SELECT p.id, c.code, (SELECT group_concat(t.id) FROM (SELECT t.id FROM Person_tags j JOIN Tag t ON t.pk = j.target_pk
                                                               WHERE j.source_pk = p.pk ORDER BY t.id) t)
        FROM Person p LEFT JOIN Company c ON c.pk = p.employer_pk ORDER BY p.id
        """).map { row in
            row.map { value -> String in
                switch value {
                case .integer(let number): return String(number)
                case .text(let text): return text
                default: return "-"
                }
            }.joined(separator: " ")
        }
}

@Suite struct RelationshipImportHooksTests {
    /// The people come first, so every link waits for the second pass, as bare ids would.
    @Test func theHookSaysWhatARecordLinksTo() throws {
        let directory = TemporaryDirectory()
        let db = directory.file("h.sqlite")
        let report = try importJSON("""
            {"people": [
              {"id": 1, "employer": {"code": "acme", "name": "ignored: not imported as a record"}, "tags": "1,2"},
              {"id": 2, "company": "GLOBEX", "tags": "3"},
              {"id": 3, "employer": "nobody"},
              {"id": 4}
            ],
             "companies": [{"code": "acme", "name": "Acme"}, {"code": "globex", "name": "Globex"}],
             "tags": [{"id": 1}, {"id": 2}, {"id": 3}]}
            """, model: model, into: db, options: options(EntityHooks(relationships: ["employer": employer, "tags": tags])))
        #expect(report.unresolved == 0)
        #expect(try links(db) == ["1 acme 1,2", "2 globex 3", "3 - -", "4 - -"])
        // Only two companies: the nested object was the hook's, not a record.
        #expect(try query(db, "SELECT code, name FROM Company ORDER BY code") == [[.text("acme"), .text("Acme")],
                                                                                  [.text("globex"), .text("Globex")]])

        // `unchanged` and a missing key leave the links; `clear` and null remove them; a
        // to-many adds (merge: add).
        try importJSON("""
            {"people": [{"id": 1, "employer": 5, "tags": "3"}, {"id": 2, "employer": "nobody", "tags": null}]}
            """, model: model, into: db, options: options(EntityHooks(relationships: ["employer": employer, "tags": tags])))
        let after = try links(db)
        #expect(after == ["1 acme 1,2,3", "2 - -", "3 - -", "4 - -"], "\(after)")
    }

    /// Without the hook the same input is read as the model says: the nested object is a
    /// company record, the string a bare id.
    @Test func withoutTheHookTheValueIsReadAsUsual() throws {
        let directory = TemporaryDirectory()
        let db = directory.file("h.sqlite")
        try importJSON(#"{"people": [{"id": 1, "employer": {"code": "initech"}}, {"id": 2, "employer": "GLOBEX"}]}"#,
                       model: model, into: db)
        #expect(try query(db, "SELECT code FROM Company ORDER BY code") == [[.text("initech")]])
        #expect(try links(db) == ["1 initech -", "2 - -"])
    }

    /// A hook that throws, or ids that do not convert to the target's identity, are the
    /// record's error, named after the hook.
    @Test func errorsAreRecordErrors() throws {
        struct Refused: Error, CustomStringConvertible { var description: String { "refused" } }
        let directory = TemporaryDirectory()
        let hooks = EntityHooks(relationships: [
            "employer": { raw in if raw == .string("evil") { throw Refused() } else { return .unchanged } },
            "tags": { raw in raw == .string("x") ? .ids([.string("x")]) : .ids([.number("1"), .number("2")]) },
        ])
        let cases = [
            (#"{"people": [{"id": 1}, {"id": 2, "employer": "evil"}]}"#, "in.json:1:24: Person.employer import: refused"),
            (#"{"people": [{"id": 1}, {"id": 2, "tags": "x"}]}"#,
             #"in.json:1:24: Person.tags import: cannot convert "x" to integer (Tag.id)"#),
        ]
        for (index, (json, message)) in cases.enumerated() {
            do {
                try importJSON(json, model: model, into: directory.file("a\(index).sqlite"), options: options(hooks))
                Issue.record("expected an error")
            } catch {
                #expect(error.kind == .data)
                #expect(error.description == message)
            }
        }
        let oneToOne = EntityHooks(relationships: ["employer": { _ in .ids([.string("a"), .string("b")]) }])
        let db = directory.file("s.sqlite")
        let report = try importJSON(#"{"people": [{"id": 1}, {"id": 2, "employer": 1}]}"#, model: model, into: db,
                                    options: options(oneToOne, onError: .skip))
        #expect(report.rejected == 1)
        #expect(try query(db, "SELECT id FROM Person") == [[.integer(1)]])
    }

    /// In a family, the hook of the member whose records use it: buses' depots go through
    /// Bus's hook, trams' are read as bare ids, in the same table.
    @Test func aFamilyMembersHook() throws {
        let family = try Model.parse(Array("""
            {
              "root": { "buses": "Bus", "trams": "Tram", "depots": "Depot" },
              "entities": {
                "Depot": { "identity": "code", "attributes": { "code": "string" } },
                "Vehicle": { "identity": "id", "attributes": { "id": "integer" },
                             "relationships": { "depot": { "entity": "Depot" } } },
                "Bus": { "parent": "Vehicle", "attributes": { "seats": "integer" } },
                "Tram": { "parent": "Vehicle" }
              }
            }
            """.utf8), sourceName: "model.json")
        var options = ImportOptions()
        options.hooks["Bus"] = EntityHooks(relationships: ["depot": { raw in
            guard case .string(let text) = raw else { return .unchanged }
            return .ids([.string(String(text.prefix { $0 != "-" }))])
        }])
        let directory = TemporaryDirectory()
        let db = directory.file("f.sqlite")
        try importJSON("""
            {"depots": [{"code": "d1"}, {"code": "d2"}],
             "buses": [{"id": 1, "seats": 40, "depot": "d1-north"}], "trams": [{"id": 2, "depot": "d2"}]}
            """, model: family, into: db, options: options)
        #expect(try query(db, "SELECT v.entity, v.id, v.seats, d.code FROM Vehicle v JOIN Depot d ON d.pk = v.depot_pk ORDER BY v.id")
                    == [[.text("Bus"), .integer(1), .integer(40), .text("d1")], [.text("Tram"), .integer(2), .null, .text("d2")]])
    }

    @Test func hooksMustNameRelationships() {
        var options = ImportOptions()
        options.hooks["Person"] = EntityHooks(relationships: ["employr": { _ in .unchanged }])
        do {
            _ = try Importer(databasePath: "/nonexistent/x.sqlite", model: model, options: options)
            Issue.record("expected a usage error")
        } catch {
            #expect(error.kind == .usage)
            #expect(error.message.hasPrefix(#"hooks for Person: "employr" is not a relationship of Person"#), "\(error)")
        }
    }
}
