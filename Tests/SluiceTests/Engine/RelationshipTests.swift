import Testing
import SluiceTestSupport
@testable import Sluice

/// People with phones (to-many through the phone's owner column), friends (many-to-many,
/// a join table), an employer (to-one by id or nested object) and a manager (self-reference).
private func peopleModel(friendsMerge: Model.MergePolicy = .add, employerUnresolved: Model.UnresolvedPolicy = .null) -> Model {
    let person = Model.Entity(
        name: "Person", table: "people", identity: ["id"],
        attributes: [.init(name: "id", type: .integer), .init(name: "name", type: .string)],
        relationships: [
            .init(name: "phones", entity: "Phone", toMany: true, inverse: "owner"),
            .init(name: "friends", entity: "Person", toMany: true, merge: friendsMerge),
            .init(name: "employer", entity: "Company", unresolved: employerUnresolved),
            .init(name: "manager", entity: "Person"),
        ])
    let phone = Model.Entity(
        name: "Phone", table: "phones", identity: ["number"],
        attributes: [.init(name: "number", type: .string), .init(name: "kind", type: .string)],
        relationships: [.init(name: "owner", entity: "Person", inverse: "phones")])
    let company = Model.Entity(
        name: "Company", table: "companies", identity: ["code"],
        attributes: [.init(name: "code", type: .string), .init(name: "name", type: .string)])
    return Model(root: .paths([(JSONKeyPath(parsing: "people"), "Person"), (JSONKeyPath(parsing: "companies"), "Company")]),
                 entities: [person, phone, company])
}

private func people(_ records: String, companies: String = "") -> String {
    #"{"people": [\#(records)], "companies": [\#(companies)]}"#
}

@Suite struct RelationshipTests {
    @Test func toOneByNestedObjectAndByID() throws {
        let directory = TemporaryDirectory()
        let db = directory.file("p.sqlite")
        let report = try importJSON(people(#"{"id": 1, "employer": {"code": "ACME", "name": "Acme"}}, {"id": 2, "employer": "ACME"}"#),
                                    model: peopleModel(), into: db)
        #expect(try query(db, "SELECT p.id, c.code, c.name FROM people p JOIN companies c ON p.employer_pk = c.pk ORDER BY p.id") == [
            [.integer(1), .text("ACME"), .text("Acme")], [.integer(2), .text("ACME"), .text("Acme")],
        ])
        #expect(report.entities.map(\.links) == [2, 0, 0])
        #expect(try query(db, "SELECT count(*) FROM companies") == [[.integer(1)]])
    }

    @Test func forwardReferencesAreLinkedInASecondPass() throws {
        var options = ImportOptions()
        options.batchSize = 1
        let directory = TemporaryDirectory()
        let db = directory.file("p.sqlite")
        let json = people(#"{"id": 1, "employer": "LATE", "friends": [2, 3]}, {"id": 2, "manager": 3}, {"id": 3}"#,
                          companies: #"{"code": "LATE", "name": "Late Ltd"}"#)
        let report = try importJSON(json, model: peopleModel(), into: db, options: options)
        #expect(try query(db, "SELECT c.name FROM people p JOIN companies c ON p.employer_pk = c.pk WHERE p.id = 1") == [[.text("Late Ltd")]])
        #expect(try query(db, "SELECT m.id FROM people p JOIN people m ON p.manager_pk = m.pk WHERE p.id = 2") == [[.integer(3)]])
        #expect(try query(db, """
            SELECT s.id, t.id FROM people_friends f JOIN people s ON f.source_pk = s.pk JOIN people t ON f.target_pk = t.pk ORDER BY 1, 2
            """) == [[.integer(1), .integer(2)], [.integer(1), .integer(3)]])
        #expect(report.unresolved == 0)
        #expect(report.entities[0].links == 4)
    }

    @Test func nestedChildrenAreLinkedToAParentWhoseIdentityComesLast() throws {
        let directory = TemporaryDirectory()
        let db = directory.file("p.sqlite")
        try importJSON(people(#"{"phones": [{"number": "555-1", "kind": "home"}, null, {"number": "555-2"}], "name": "Ann", "id": 5}"#),
                       model: peopleModel(), into: db)
        #expect(try query(db, "SELECT ph.number, p.id, p.name FROM phones ph JOIN people p ON ph.owner_pk = p.pk ORDER BY 1") == [
            [.text("555-1"), .integer(5), .text("Ann")], [.text("555-2"), .integer(5), .text("Ann")],
        ])
    }

    /// Rows are inserted 64 to a statement and numbered before they go in: every nested
    /// record's link names the row its parent got, whatever row of which statement.
    @Test func nestedRecordsOfManyRowsPerStatementLinkToTheirOwnParent() throws {
        let directory = TemporaryDirectory()
        let db = directory.file("p.sqlite")
        try importJSON(people(#"{"id": 1000}"#), model: peopleModel(), into: db)
        let json = people((1...150).map { #"{"id": \#($0), "phones": [{"number": "\#($0)-a"}, {"number": "\#($0)-b"}]}"# }
            .joined(separator: ", "))
        try importJSON(json, model: peopleModel(), into: db)
        let rows = try query(db, "SELECT ph.number, p.id FROM phones ph JOIN people p ON ph.owner_pk = p.pk ORDER BY ph.pk")
        #expect(rows == (1...150).flatMap { id in ["a", "b"].map { [.text("\(id)-\($0)"), .integer(Int64(id))] } })
    }

    @Test func reimportingLinkedDataWritesNothing() throws {
        let directory = TemporaryDirectory()
        let db = directory.file("p.sqlite")
        let json = people(#"{"id": 1, "employer": "ACME", "friends": [2], "phones": [{"number": "1"}], "manager": 2}, {"id": 2}"#,
                          companies: #"{"code": "ACME"}"#)
        try importJSON(json, model: peopleModel(), into: db)
        try Connection(path: db).execute("""
            CREATE TABLE writes (n INTEGER); INSERT INTO writes VALUES (0);
            CREATE TRIGGER w1 AFTER UPDATE ON people BEGIN UPDATE writes SET n = n + 1; END;
            CREATE TRIGGER w2 AFTER UPDATE ON phones BEGIN UPDATE writes SET n = n + 1; END;
            CREATE TRIGGER w3 AFTER INSERT ON people_friends BEGIN UPDATE writes SET n = n + 1; END;
            CREATE TRIGGER w4 AFTER DELETE ON people_friends BEGIN UPDATE writes SET n = n + 1; END;
            CREATE TRIGGER w5 AFTER UPDATE ON companies BEGIN UPDATE writes SET n = n + 1; END;
            """)
        let before = try query(db, "SELECT * FROM people ORDER BY pk")
        let report = try importJSON(json, model: peopleModel(), into: db)
        #expect(report.links == 0)
        #expect(report.inserted == 0 && report.updated == 0)
        #expect(try query(db, "SELECT n FROM writes") == [[.integer(0)]])
        #expect(try query(db, "SELECT * FROM people ORDER BY pk") == before)
    }

    @Test func nullUnlinksAndAMissingKeyLeavesLinksAlone() throws {
        let directory = TemporaryDirectory()
        let db = directory.file("p.sqlite")
        let model = peopleModel()
        try importJSON(people(#"{"id": 1, "employer": "A", "friends": [2], "phones": [{"number": "9"}]}, {"id": 2, "employer": "A", "friends": [1]}"#,
                              companies: #"{"code": "A"}"#), model: model, into: db)
        try importJSON(people(#"{"id": 1, "employer": null, "friends": null, "phones": null}, {"id": 2}"#), model: model, into: db)
        #expect(try query(db, "SELECT id, employer_pk IS NULL FROM people ORDER BY id") == [[.integer(1), .integer(1)], [.integer(2), .integer(0)]])
        #expect(try query(db, "SELECT s.id FROM people_friends f JOIN people s ON f.source_pk = s.pk") == [[.integer(2)]])
        #expect(try query(db, "SELECT owner_pk FROM phones") == [[.null]])
    }

    @Test func toManyMergeAddKeepsOldLinksAndReplaceLeavesExactlyTheListed() throws {
        for (merge, expected) in [(Model.MergePolicy.add, [2, 3, 4]), (.replace, [4])] {
            let directory = TemporaryDirectory()
            let db = directory.file("p.sqlite")
            let model = peopleModel(friendsMerge: merge)
            try importJSON(people(#"{"id": 1, "friends": [2, 3]}, {"id": 2}, {"id": 3}, {"id": 4}"#), model: model, into: db)
            try importJSON(people(#"{"id": 1, "friends": [4]}"#), model: model, into: db)
            let friends = try query(db, "SELECT t.id FROM people_friends f JOIN people t ON f.target_pk = t.pk ORDER BY 1")
            #expect(friends == expected.map { [.integer(Int64($0))] }, "merge \(merge)")
        }
    }

    /// The plain indexes of the tables an import creates are built once, after the rows and
    /// the second pass, not maintained row by row; the database ends with every index.
    @Test func indexesOfNewTablesAreBuiltAfterTheLoad() throws {
        var options = ImportOptions()
        options.batchSize = 1
        let directory = TemporaryDirectory()
        let db = directory.file("p.sqlite")
        let statements = try importTracingSQL(people(#"{"id": 1, "employer": "LATE", "manager": 2}, {"id": 2}"#,
                                                     companies: #"{"code": "LATE"}"#),
                                              model: peopleModel(), into: db, options: options)
        let lastWrite = try #require(statements.lastIndex { $0.hasPrefix("UPDATE \"people\" AS s SET \"employer_pk\"") })
        let index = try #require(statements.firstIndex { $0.hasPrefix("CREATE INDEX IF NOT EXISTS \"people_employer_pk\"") })
        #expect(index > lastWrite)
        // An inverse's column that no record fills: its index is made with its empty table
        // (before the statements traced here) and kept (`SecondaryIndexes.early`): never dropped
        // or built over the rows, yet there at the end.
        #expect(!statements.contains { $0.contains("\"phones_owner_pk\"") })
        #expect(!statements[lastWrite...].contains { $0.hasPrefix("CREATE UNIQUE INDEX") })  // identities: from the start
        #expect(try query(db, "SELECT name FROM sqlite_schema WHERE type = 'index' AND sql IS NOT NULL ORDER BY name") == [
            "companies_identity", "people_employer_pk", "people_friends_target_pk", "people_identity", "people_manager_pk",
            "phones_identity", "phones_owner_pk",
        ].map { [.text($0)] })
        #expect(try query(db, "SELECT p.id, c.code FROM people p JOIN companies c ON p.employer_pk = c.pk") == [[.integer(1), .text("LATE")]])
    }

    /// Ids are not looked up in a table that was empty when the import began and has had no
    /// row inserted since (a new database's forward references): nothing could be found. Once
    /// it holds rows they are, and links to them go in with their rows.
    @Test func idsAreNotLookedUpInATableThatCannotHoldThem() throws {
        var options = ImportOptions()
        options.batchSize = 1
        options.fastPaths = false  // every id by the `IN` lookup (`TargetsInKeyOrderTests`: the read before it)
        let directory = TemporaryDirectory()
        let db = directory.file("p.sqlite")
        let json = people(#"{"id": 1, "employer": "LATE"}, {"id": 2, "employer": "LATE"}"#, companies: #"{"code": "LATE"}"#)
        let lookup = #"SELECT "code", "pk" FROM "companies" WHERE "code" IN"#
        let cold = try importTracingSQL(json, model: peopleModel(), into: db, options: options)
        #expect(!cold.contains { $0.hasPrefix(lookup) })
        #expect(cold.contains { $0.hasPrefix(#"UPDATE "people" AS s SET "employer_pk" = sluice_link("#) })  // the second pass
        let again = try importTracingSQL(json, model: peopleModel(), into: db, options: options)
        // Once: the second batch's person names an id the first batch found.
        #expect(again.filter { $0.hasPrefix(lookup) }.count == 1)
        #expect(!again.contains { $0.hasPrefix(#"INSERT INTO "sluice_pending_"#) })
        #expect(try query(db, "SELECT p.id, c.code FROM people p JOIN companies c ON p.employer_pk = c.pk ORDER BY p.id") == [
            [.integer(1), .text("LATE")], [.integer(2), .text("LATE")],
        ])
    }

    /// An id found in the database is remembered from batch to batch (rows are only added
    /// while an import reads, and an identity names one row), so each is looked up once;
    /// ids not found are asked again, and what is remembered is bounded
    /// (`LinkWriter.knownIDsLimit`).
    @Test func idsFoundOnceAreNotLookedUpAgainInLaterBatches() throws {
        var options = ImportOptions()
        options.batchSize = 1
        options.fastPaths = false  // every id by the `IN` lookup (`TargetsInKeyOrderTests`: the read before it)
        let directory = TemporaryDirectory()
        let db = directory.file("p.sqlite")
        _ = try importJSON(people("", companies: #"{"code": "ACME"}, {"code": "INITECH"}"#), model: peopleModel(), into: db)
        let lookup = #"SELECT "code", "pk" FROM "companies" WHERE "code" IN"#
        let json = people(#"{"id": 1, "employer": "ACME"}, {"id": 2, "employer": "NEW"}, {"id": 3, "employer": "INITECH"}, "#
                          + #"{"id": 4, "employer": "ACME"}, {"id": 5, "employer": "NEW"}, {"id": 6, "employer": "INITECH"}"#,
                          companies: #"{"code": "NEW"}"#)
        let statements = try importTracingSQL(json, model: peopleModel(), into: db, options: options)
        // ACME and INITECH once each; NEW, not there yet, in both batches that name it.
        #expect(statements.filter { $0.hasPrefix(lookup) }.count == 4)
        #expect(try query(db, "SELECT p.id, c.code FROM people p JOIN companies c ON p.employer_pk = c.pk ORDER BY p.id") == [
            [.integer(1), .text("ACME")], [.integer(2), .text("NEW")], [.integer(3), .text("INITECH")],
            [.integer(4), .text("ACME")], [.integer(5), .text("NEW")], [.integer(6), .text("INITECH")],
        ])
    }

    /// The ids remembered never pass `knownIDsLimit` (but for one batch's own, when more), so
    /// memory does not grow with the number of distinct ids an input names: a batch whose new
    /// ids would take them over the limit forgets the earlier batches' first, and looks up all
    /// of its own, the ones it knew too.
    @Test func theIDsRememberedAreBounded() throws {
        let directory = TemporaryDirectory()
        let db = directory.file("p.sqlite")
        let limit = LinkWriter.knownIDsLimit
        _ = try importJSON(people("", companies: (0...limit).map { #"{"code": "C\#($0)"}"# }.joined(separator: ", ")),
                           model: peopleModel(), into: db)
        var options = ImportOptions()
        options.batchSize = limit - 1  // the first batch names C0 ... C(limit - 2): all remembered
        options.fastPaths = false  // every id by the `IN` lookup
        // The second names C0, known, and two more: one over the limit.
        let employers = (0..<(limit - 1)).map { "C\($0)" } + ["C0", "C\(limit - 1)", "C\(limit)"]
        let records = employers.enumerated().map { #"{"id": \#($0.offset), "employer": "\#($0.element)"}"# }
        let lookup = #"SELECT "code", "pk" FROM "companies" WHERE "code" IN"#
        let statements = try importTracingSQL(people(records.joined(separator: ", ")), model: peopleModel(), into: db,
                                              options: options, expanded: true)
        let last = try #require(statements.last { $0.hasPrefix(lookup) })
        #expect(last.contains("'C0'") && last.contains("'C\(limit - 1)'") && last.contains("'C\(limit)'"))
        #expect(try query(db, "SELECT count(*) FROM people p JOIN companies c ON p.employer_pk = c.pk")
                == [[.integer(Int64(employers.count))]])
    }

    /// Unlinking the children a list no longer names looks them up by the inverse column: its
    /// index is built before that, even while the other indexes wait for the end.
    @Test func anIndexAStatementNeedsIsBuiltBeforeIt() throws {
        var model = peopleModel()
        model.entities[0].relationships[0].merge = .replace
        let directory = TemporaryDirectory()
        let db = directory.file("p.sqlite")
        // The person's employer fills its column: that index waits for the end.
        let statements = try importTracingSQL(people(#"{"id": 1, "employer": "ACME", "phones": [{"number": "a"}]}"#,
                                                     companies: #"{"code": "ACME"}"#), model: model, into: db)
        let index = try #require(statements.lastIndex { $0.hasPrefix("CREATE INDEX IF NOT EXISTS \"phones_owner_pk\"") })
        let lookup = try #require(statements.firstIndex { $0.hasPrefix("SELECT \"pk\" FROM \"phones\" WHERE \"owner_pk\"") })
        #expect(index < lookup)
        let others = statements.firstIndex { $0.hasPrefix("CREATE INDEX IF NOT EXISTS \"people_employer_pk\"") }
        #expect(others.map { $0 > lookup } == true)
    }

    @Test func replaceThroughAnInverseColumnUnlinksChildrenNotListed() throws {
        var model = peopleModel()
        model.entities[0].relationships[0].merge = .replace
        let directory = TemporaryDirectory()
        let db = directory.file("p.sqlite")
        try importJSON(people(#"{"id": 1, "phones": [{"number": "a"}, {"number": "b"}]}"#), model: model, into: db)
        try importJSON(people(#"{"id": 1, "phones": [{"number": "b"}, {"number": "c"}]}"#), model: model, into: db)
        #expect(try query(db, "SELECT number, owner_pk FROM phones ORDER BY number") == [
            [.text("a"), .null], [.text("b"), .integer(1)], [.text("c"), .integer(1)],
        ])
    }

    @Test func recordsMergedInABatchKeepAllTheirLinks() throws {
        let directory = TemporaryDirectory()
        let db = directory.file("p.sqlite")
        try importJSON(people(#"{"id": 1, "friends": [2]}, {"id": 2}, {"id": 1, "friends": [3]}, {"id": 3}"#), model: peopleModel(), into: db)
        #expect(try query(db, "SELECT t.id FROM people_friends f JOIN people t ON f.target_pk = t.pk ORDER BY 1") == [[.integer(2)], [.integer(3)]])
    }

    @Test func unresolvedNullLeavesTheLinkEmptyAndReportsIt() throws {
        let directory = TemporaryDirectory()
        let db = directory.file("p.sqlite")
        let report = try importJSON(people(#"{"id": 1, "employer": "GHOST"}, {"id": 2, "employer": "A"}"#, companies: #"{"code": "A"}"#),
                                    model: peopleModel(), into: db)
        #expect(report.unresolved == 1)
        #expect(report.entities[0].unresolved == 1)
        #expect(report.unresolvedExamples == [#"Person.employer "GHOST" at in.json:1:13"#])
        #expect(try query(db, "SELECT id, employer_pk FROM people ORDER BY id") == [[.integer(1), .null], [.integer(2), .integer(1)]])
        #expect(try query(db, "SELECT unresolved FROM sluice_imports") == [[.integer(1)]])
    }

    @Test func unresolvedStubCreatesTheTargetWithItsIdentityOnly() throws {
        let directory = TemporaryDirectory()
        let db = directory.file("p.sqlite")
        let report = try importJSON(people(#"{"id": 1, "employer": "GHOST"}, {"id": 2, "employer": "GHOST"}"#),
                                    model: peopleModel(employerUnresolved: .stub), into: db)
        #expect(try query(db, "SELECT code, name FROM companies") == [[.text("GHOST"), .null]])
        #expect(try query(db, "SELECT count(*) FROM people WHERE employer_pk = 1") == [[.integer(2)]])
        #expect(report.entities[2].inserted == 1)
        #expect(report.unresolved == 0)
    }

    @Test func unresolvedFailAbortsAndLeavesNothing() throws {
        let directory = TemporaryDirectory()
        let db = directory.file("p.sqlite")
        var options = ImportOptions()
        options.unresolved = .fail  // the command line overrides the model's null
        do {
            try importJSON(people(#"{"id": 1}, {"id": 2, "employer": "GHOST"}, {"id": 3, "employer": "NONE"}"#),
                           model: peopleModel(), into: db, options: options)
            Issue.record("expected the import to fail")
        } catch {
            #expect(error.description == #"in.json:1:24: Person.employer: unresolved reference "GHOST" (and 1 more)"#)
            #expect(error.kind == .data)
        }
        #expect(directory.contents == [])
    }

    @Test func selfReferencesAndCycles() throws {
        let directory = TemporaryDirectory()
        let db = directory.file("p.sqlite")
        try importJSON(people(#"{"id": 1, "manager": 2}, {"id": 2, "manager": 1}, {"id": 3, "manager": 3}"#), model: peopleModel(), into: db)
        #expect(try query(db, "SELECT p.id, m.id FROM people p JOIN people m ON p.manager_pk = m.pk ORDER BY 1") == [
            [.integer(1), .integer(2)], [.integer(2), .integer(1)], [.integer(3), .integer(3)],
        ])
    }

    @Test func idsAreConvertedToTheTargetsIdentityType() throws {
        let directory = TemporaryDirectory()
        let db = directory.file("p.sqlite")
        try importJSON(people(#"{"id": 1, "manager": "2"}, {"id": 2, "friends": ["1", 1.0]}"#), model: peopleModel(), into: db)
        #expect(try query(db, "SELECT m.id FROM people p JOIN people m ON p.manager_pk = m.pk") == [[.integer(2)]])
        #expect(try query(db, "SELECT count(*) FROM people_friends") == [[.integer(1)]])
    }

    @Test func wrongShapesAreRecordErrors() throws {
        var options = ImportOptions()
        options.onError = .skip
        let directory = TemporaryDirectory()
        let db = directory.file("p.sqlite")
        let report = try importJSON(people(#"{"id": 1, "employer": ["A"]}, {"id": 2, "manager": "x"}, {"id": 3, "friends": [[1]]}"#),
                                    model: peopleModel(), into: db, options: options)
        #expect(report.entities[0].rejected == 3)
        do {
            try importJSON(people(#"{"id": 1, "employer": ["A"]}"#), model: peopleModel(), into: directory.file("q.sqlite"))
        } catch {
            #expect(error.message == "Person.employer: expected one Company, got an array")
        }
        do {
            try importJSON(people(#"{"id": 2, "manager": "x"}"#), model: peopleModel(), into: directory.file("q.sqlite"))
        } catch {
            #expect(error.message == #"Person.manager: cannot convert "x" to integer (Person.id)"#)
        }
    }

    @Test func deleteMissingDeletesUnmentionedRootRowsAndTheirLinks() throws {
        let directory = TemporaryDirectory()
        let db = directory.file("p.sqlite")
        let model = peopleModel()
        try importJSON(people(#"{"id": 1, "friends": [2], "manager": 2}, {"id": 2, "phones": [{"number": "x"}], "friends": [3]}, {"id": 3, "manager": 2}"#),
                       model: model, into: db)
        var options = ImportOptions()
        options.deleteMissing = true
        let report = try importJSON(people(#"{"id": 1}, {"id": 3}"#), model: model, into: db, options: options)
        #expect(report.entities[0].deleted == 1)
        #expect(try query(db, "SELECT id, manager_pk FROM people ORDER BY id") == [[.integer(1), .null], [.integer(3), .null]])
        #expect(try query(db, "SELECT count(*) FROM people_friends") == [[.integer(0)]])
        #expect(try query(db, "SELECT number, owner_pk FROM phones") == [[.text("x"), .null]])
        #expect(try query(db, "PRAGMA foreign_key_check") == [])
    }

    /// A model built in code is checked as a model file is: an identity through a to-one of its
    /// own entity (a cycle `sluice check` refuses) is refused before the database is opened.
    @Test func anIdentityCycleInAModelBuiltInCodeIsRefused() throws {
        let category = Model.Entity(
            name: "Category", table: "categories", identity: ["parent", "name"], attributes: [.init(name: "name", type: .string)],
            relationships: [.init(name: "parent", entity: "Category"),
                            .init(name: "children", entity: "Category", toMany: true, inverse: "parent")])
        let model = Model(root: .entity("Category"), entities: [category])
        let directory = TemporaryDirectory()
        let db = directory.file("c.sqlite")
        #expect(throws: SluiceError.self) { try importJSON("[]", model: model, into: db) }
        do {
            _ = try importJSON("[]", model: model, into: db)
        } catch {
            #expect(error.kind == .usage)
            #expect(error.message == #"entities.Category.identity: "parent" leads back to Category (Category → Category): "#
                + "the rows an identity's to-one points at are written first, so identities cannot form a cycle")
        }
        #expect(!directory.exists("c.sqlite"))
    }
}

