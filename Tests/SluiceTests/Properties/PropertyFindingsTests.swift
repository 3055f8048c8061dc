import Testing
@testable import Sluice

/// What the property tests found, each as the smallest case that shows it.
@Suite struct PropertyFindingsTests {
    private static func parents(merge: String, inverse: Bool) throws -> Model {
        let kids = inverse
            ? #""kids": {"entity": "Kid", "toMany": true, "inverse": "owner", "merge": "\#(merge)"}"#
            : #""kids": {"entity": "Kid", "toMany": true, "merge": "\#(merge)"}"#
        let owner = inverse ? #", "relationships": {"owner": {"entity": "Parent", "inverse": "kids"}}"# : ""
        let text = """
            {"root": "Parent", "entities": {
              "Parent": {"table": "parents", "identity": "id", "attributes": {"id": "integer"}, "relationships": {\(kids)}},
              "Kid": {"table": "kids", "identity": "code", "attributes": {"code": "string"}\(owner)}}}
            """
        return try Model.parse(Array(text.utf8), sourceName: "model.json")
    }

    /// Finding 1: two records of one parent in one batch, each with a `merge: replace` list.
    /// The later list must leave exactly its own links, as it does when the records are in
    /// different batches (`--batch-size 1`); `EntityBatch.merge` added the lists up.
    @Test(arguments: [false, true])
    func aLaterReplaceListInTheSameBatchWins(inverse: Bool) throws {
        let model = try Self.parents(merge: "replace", inverse: inverse)
        let json = """
            {"id": 2, "kids": [{"code": "b"}]}
            {"id": 2, "kids": [{"code": "a"}]}
            """
        let linked = inverse
            ? "SELECT k.code FROM kids k JOIN parents p ON k.owner_pk = p.pk ORDER BY 1"
            : "SELECT k.code FROM parents_kids j JOIN kids k ON k.pk = j.target_pk ORDER BY 1"
        for batchSize in [1, 5_000] {
            let directory = PropertyCase.scratchDirectory()
            let db = directory.file("p.sqlite")
            var options = ImportOptions()
            options.batchSize = batchSize
            try importJSON(json, model: model, into: db, options: options)
            #expect(try query(db, linked) == [[.text("a")]], "batch size \(batchSize)")
        }
    }

    /// Under `merge: add` the lists of one row do add up, in one batch or in several.
    @Test(arguments: [false, true])
    func addListsOfOneRowAddUpInAnyBatch(inverse: Bool) throws {
        let model = try Self.parents(merge: "add", inverse: inverse)
        let json = """
            {"id": 2, "kids": [{"code": "b"}]}
            {"id": 2, "kids": [{"code": "a"}]}
            """
        let linked = inverse
            ? "SELECT k.code FROM kids k JOIN parents p ON k.owner_pk = p.pk ORDER BY 1"
            : "SELECT k.code FROM parents_kids j JOIN kids k ON k.pk = j.target_pk ORDER BY 1"
        for batchSize in [1, 5_000] {
            let directory = PropertyCase.scratchDirectory()
            let db = directory.file("p.sqlite")
            var options = ImportOptions()
            options.batchSize = batchSize
            try importJSON(json, model: model, into: db, options: options)
            #expect(try query(db, linked) == [[.text("a")], [.text("b")]], "batch size \(batchSize)")
        }
    }
}
