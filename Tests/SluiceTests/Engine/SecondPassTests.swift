import SluiceTestSupport
import Testing
@testable import Sluice

/// The second pass over the to-ones of one entity (`docs/architecture.md`, the second pass):
/// their waiting links are made together, each row rewritten once, and a later record of the
/// same row decides its links. Each behaviour holds both where the waiting ids are kept aside
/// and where the rows hold them (`idsInRows`: attributes read from the same keys,
/// `LinkPlan.keyColumn`).
@Suite struct SecondPassTests {
    /// Items with two to-ones, a box and a shelf, that come after them; with `idsInRows`, the
    /// items also keep the two codes as attributes.
    static func model(box: Model.UnresolvedPolicy = .null, shelf: Model.UnresolvedPolicy = .null, idsInRows: Bool = false)
        -> Model
    {
        let codes = idsInRows ? #", "boxCode": { "type": "string", "key": "box" }, "shelfCode": { "type": "string", "key": "shelf" }"# : ""
        return try! Model.parse(Array("""
            { "root": { "items": "Item", "boxes": "Box", "shelves": "Shelf" },
              "entities": {
                "Item": { "table": "items", "identity": "id", "attributes": { "id": "integer"\(codes) },
                          "relationships": { "box": { "entity": "Box", "key": "box", "unresolved": "\(box.rawValue)" },
                                             "shelf": { "entity": "Shelf", "key": "shelf", "unresolved": "\(shelf.rawValue)" } } },
                "Box": { "table": "boxes", "identity": "code", "attributes": { "code": "string" } },
                "Shelf": { "table": "shelves", "identity": "code", "attributes": { "code": "string" } } } }
            """.utf8), sourceName: "model")
    }

    static func links(_ db: String) throws -> [[ColumnValue]] {
        try query(db, """
            SELECT i.id, b.code, s.code FROM items i LEFT JOIN boxes b ON b.pk = i.box_pk
            LEFT JOIN shelves s ON s.pk = i.shelf_pk ORDER BY i.id
            """)
    }

    static func options(batchSize: Int = 2) -> ImportOptions {
        var options = ImportOptions()
        options.batchSize = batchSize
        return options
    }

    /// Every item waits for both its links; one `UPDATE` of the items sets both columns, and no
    /// statement sets one of them alone afterwards.
    @Test(arguments: [false, true]) func bothWaitingToOnesOfARowAreSetByOneStatement(idsInRows: Bool) throws {
        let directory = TemporaryDirectory()
        let db = directory.file("t.sqlite")
        let json = #"{"items": [{"id": 1, "box": "B1", "shelf": "S2"}, {"id": 2, "box": "B2", "shelf": "S1"}, {"id": 3, "box": "B1"}],"#
            + #" "boxes": [{"code": "B1"}, {"code": "B2"}], "shelves": [{"code": "S1"}, {"code": "S2"}]}"#
        let statements = try importTracingSQL(json, model: Self.model(idsInRows: idsInRows), into: db, options: Self.options(batchSize: 1))
        let updates = statements.filter { $0.hasPrefix(#"UPDATE "items""#) }
        #expect(updates.count == 1, "\(updates)")
        // Kept aside, the ids are joined in; held by the rows, they are read there, and the
        // rows whose links wait are found by pk alone.
        let update = idsInRows
            ? #"UPDATE "items" AS s SET "box_pk" = CASE WHEN s."box_pk" IS NULL AND s."boxCode" IS NOT NULL THEN sluice_link(0, (SELECT t."pk" FROM "boxes" AS t WHERE t."code" = s."boxCode"), NULL) ELSE s."box_pk" END, "#
            : #"UPDATE "items" AS s SET "box_pk" = sluice_link(0, "t0"."pk", s."box_pk"), "shelf_pk" = sluice_link(1, "t1"."pk", s."shelf_pk")"#
        #expect(updates.first?.hasPrefix(update) == true, "\(updates)")
        #expect(updates.first?.contains("JOIN") == !idsInRows)
        #expect(try Self.links(db) == [
            [.integer(1), .text("B1"), .text("S2")], [.integer(2), .text("B2"), .text("S1")], [.integer(3), .text("B1"), .null],
        ])

        // The links are counted one by one (5), not by rows changed (3); a re-import waits for nothing.
        let again = try importTracingSQL(json, model: Self.model(idsInRows: idsInRows), into: db, options: Self.options())
        #expect(!again.contains { $0.hasPrefix(#"INSERT INTO "sluice_pending_"#) || $0.hasPrefix(#"UPDATE "items""#) })
        let report = try importJSON(json, model: Self.model(idsInRows: idsInRows), into: directory.file("counted.sqlite"), options: Self.options())
        #expect(report.entities[0].links == 5)
        #expect(report.unresolved == 0)
    }

    /// The stage and the phase of the pass name both relationships; its progress counts the
    /// records whose links wait.
    @Test(arguments: [false, true]) func thePassIsNamedByItsRelationshipsAndCountsRecords(idsInRows: Bool) throws {
        let directory = TemporaryDirectory()
        let calls = ImportProgressTests.Calls()
        var options = Self.options()
        options.progress = { calls.append($0) }
        let json = #"{"items": [{"id": 1, "box": "B1", "shelf": "S1"}, {"id": 2, "box": "B1"}, {"id": 3, "shelf": "S1"}],"#
            + #" "boxes": [{"code": "B1"}], "shelves": [{"code": "S1"}]}"#
        let report = try importJSON(json, model: Self.model(idsInRows: idsInRows), into: directory.file("t.sqlite"), options: options)
        let linking = calls.all.map(\.stage).filter { if case .linking = $0 { return true } else { return false } }
        #expect(linking.first == .linking(relationship: "Item.box, Item.shelf", done: 0, total: 3))
        #expect(linking.last == .linking(relationship: "Item.box, Item.shelf", done: 3, total: 3))
        #expect(report.phases.linking.map(\.relationship) == ["Item.box, Item.shelf"])
        #expect(report.entities[0].links == 4)
    }

    /// A row found again later in the import: an id its later record names replaces the one
    /// waiting, a link it makes itself wins over the one waiting, and a link it does not
    /// mention keeps waiting.
    @Test(arguments: [false, true]) func aLaterRecordOfTheSameRowDecidesItsWaitingLinks(idsInRows: Bool) throws {
        let directory = TemporaryDirectory()
        let db = directory.file("t.sqlite")
        var importer: Importer? = try Importer(databasePath: db, model: Self.model(idsInRows: idsInRows), options: Self.options(batchSize: 1))
        // Item 1 waits for GHOST (never defined) and S1; item 2 for B9 and S2.
        try importer!.importBytes(Array(#"{"items": [{"id": 1, "box": "GHOST", "shelf": "S1"}, {"id": 2, "box": "B9", "shelf": "S2"}]}"#.utf8), name: "a.json")
        try importer!.importBytes(Array(#"{"boxes": [{"code": "B1"}, {"code": "B9"}], "shelves": [{"code": "S1"}, {"code": "S2"}]}"#.utf8), name: "b.json")
        // Item 1 now names a box that comes later; item 2 a box known by now, and no shelf.
        try importer!.importBytes(Array(#"{"items": [{"id": 1, "box": "B7"}, {"id": 2, "box": "B1", "shelf": null}]}"#.utf8), name: "c.json")
        try importer!.importBytes(Array(#"{"boxes": [{"code": "B7"}]}"#.utf8), name: "d.json")
        let report = try importer!.finish()
        importer = nil
        #expect(try Self.links(db) == [[.integer(1), .text("B7"), .text("S1")], [.integer(2), .text("B1"), .null]])
        #expect(report.unresolved == 0)
        #expect(report.unresolvedExamples.isEmpty)
    }

    /// One of the two to-ones of a row cannot be found: the other is linked, and only the
    /// missing one is counted and named, at its record.
    @Test(arguments: [false, true]) func aMissingTargetLeavesTheOtherLinkOfTheRowMade(idsInRows: Bool) throws {
        let directory = TemporaryDirectory()
        let db = directory.file("t.sqlite")
        let json = #"{"items": [{"id": 1, "box": "B1", "shelf": "S1"},"# + "\n"
            + #"{"id": 2, "box": "NOWHERE", "shelf": "S1"}], "boxes": [{"code": "B1"}], "shelves": [{"code": "S1"}]}"#
        let report = try importJSON(json, model: Self.model(idsInRows: idsInRows), into: db, options: Self.options())
        #expect(try Self.links(db) == [[.integer(1), .text("B1"), .text("S1")], [.integer(2), .null, .text("S1")]])
        #expect(report.unresolved == 1)
        #expect(report.entities[0].links == 3)
        #expect(report.unresolvedExamples == [#"Item.box "NOWHERE" at in.json:2:1"#])

        // `fail` stops the import at that record; nothing is left behind.
        let failing = directory.file("fail.sqlite")
        #expect {
            _ = try importJSON(json, model: Self.model(box: .fail, idsInRows: idsInRows), into: failing, options: Self.options())
        } throws: { error in
            (error as? SluiceError)?.description == #"in.json:2:1: Item.box: unresolved reference "NOWHERE""#
        }
    }

    /// `stub` creates the missing targets and links them, in the same pass as the other to-one.
    @Test(arguments: [false, true]) func stubsAreLinkedWithTheOtherToOnes(idsInRows: Bool) throws {
        let directory = TemporaryDirectory()
        let db = directory.file("t.sqlite")
        let json = #"{"items": [{"id": 1, "box": "NEW", "shelf": "S1"}, {"id": 2, "box": "NEW"}, {"id": 3, "shelf": "S1"}],"#
            + #" "shelves": [{"code": "S1"}]}"#
        let report = try importJSON(json, model: Self.model(box: .stub, idsInRows: idsInRows), into: db, options: Self.options())
        #expect(try Self.links(db) == [
            [.integer(1), .text("NEW"), .text("S1")], [.integer(2), .text("NEW"), .null], [.integer(3), .null, .text("S1")],
        ])
        #expect(report.entities.map(\.inserted) == [3, 1, 1])
        #expect(report.entities[0].links == 4)
        #expect(report.unresolved == 0)
    }

    /// Where the rows hold the ids, the pass goes through the rows of this import only: a row
    /// of an earlier import whose link was left empty, though its id is there, stays as it was.
    @Test func aRowOfAnEarlierImportIsLeftAsItWas() throws {
        let directory = TemporaryDirectory()
        let db = directory.file("t.sqlite")
        let first = try importJSON(#"{"items": [{"id": 1, "box": "GONE"}]}"#, model: Self.model(idsInRows: true), into: db)
        #expect(first.unresolved == 1)
        let second = try importJSON(#"{"items": [{"id": 2, "box": "GONE"}], "boxes": [{"code": "GONE"}]}"#,
                                    model: Self.model(idsInRows: true), into: db, options: Self.options(batchSize: 1))
        #expect(try Self.links(db) == [[.integer(1), .null, .null], [.integer(2), .text("GONE"), .null]])
        #expect(second.entities[0].links == 1)
        #expect(second.unresolved == 0)
    }

    /// An attribute with a default is not where the id is: a record that names no box gets the
    /// default code, and still no box.
    @Test func anAttributeWithADefaultIsNotTheId() throws {
        let directory = TemporaryDirectory()
        let db = directory.file("t.sqlite")
        let model = try Model.parse(Array("""
            { "root": { "items": "Item", "boxes": "Box" },
              "entities": {
                "Item": { "table": "items", "identity": "id",
                          "attributes": { "id": "integer", "boxCode": { "type": "string", "key": "box", "default": "B1" } },
                          "relationships": { "box": { "entity": "Box", "key": "box" } } },
                "Box": { "table": "boxes", "identity": "code", "attributes": { "code": "string" } } } }
            """.utf8), sourceName: "model")
        let report = try importJSON(#"{"items": [{"id": 1}, {"id": 2, "box": "B1"}], "boxes": [{"code": "B1"}]}"#, model: model,
                                    into: db, options: Self.options(batchSize: 1))
        #expect(try query(db, "SELECT i.id, i.boxCode, b.code FROM items i LEFT JOIN boxes b ON b.pk = i.box_pk ORDER BY i.id") == [
            [.integer(1), .text("B1"), .null], [.integer(2), .text("B1"), .text("B1")],
        ])
        #expect(report.entities[0].links == 1)
    }

    /// Which attribute holds a to-one's id: one read from the same keys, of the related-by
    /// attribute's type, without a default; none when hooks run (they may change either).
    @Test func theColumnHoldingTheIdIsChosenFromTheModel() throws {
        func keyColumn(_ attributes: String, hooks: Bool = false) throws -> String? {
            let model = try Model.parse(Array("""
                { "root": { "items": "Item" },
                  "entities": {
                    "Item": { "table": "items", "attributes": { \(attributes) },
                              "relationships": { "box": { "entity": "Box", "key": "box" } } },
                    "Box": { "table": "boxes", "identity": "code", "attributes": { "code": "string" } } } }
                """.utf8), sourceName: "model")
            let plan = try MappingPlan(model: model)
            let plans = LinkPlan.plans(model: plan.storageModel, mapping: plan, layout: DatabaseLayout(model), hooks: hooks)
            return plans[0][0].keyColumn
        }
        #expect(try keyColumn(#""boxCode": { "type": "string", "key": "box", "column": "box_code" }"#) == "box_code")
        #expect(try keyColumn(#""boxCode": { "type": "string", "key": "box" }"#, hooks: true) == nil)
        #expect(try keyColumn(#""boxCode": { "type": "string", "key": "crate" }"#) == nil)
        #expect(try keyColumn(#""boxCode": { "type": "integer", "key": "box" }"#) == nil)
        #expect(try keyColumn(#""boxCode": { "type": "string", "key": "box", "default": "B1" }"#) == nil)
        #expect(try keyColumn(#""boxCode": { "type": "string", "key": ["box", "crate"] }"#) == nil)
    }
}
