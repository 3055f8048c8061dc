import Foundation
import SluiceTestSupport
import Testing
@testable import Sluice

/// A transformable attribute with a value transformer of the app's own (SPEC section 11): the
/// model is not refused, the store is written with the attribute's column, and a value for it
/// is a record error naming the entity and attribute; `check` says the same.
@Suite struct CoreDataTransformableTests {
    static let model = """
        <entity name="Note">
            <attribute name="noteID" attributeType="String"/>
            <attribute name="text" optional="YES" attributeType="String"/>
            <attribute name="colour" optional="YES" attributeType="Transformable" valueTransformerName="ColourTransformer"/>
        </entity>
        """

    private func run(_ workspace: Workspace, _ input: String, _ extra: [String] = []) throws -> SluiceResult {
        try workspace.sluice(["import", "--db", "Notes.sqlite", "--layout", "coredata", "--model", "Notes.xcdatamodel",
                              "--entity", "Note"] + extra + ["-"], stdin: Array(input.utf8))
    }

    @Test func checkSaysOneThing() throws {
        let workspace = Workspace()
        try workspace.writeCoreDataModel(entities: Self.model, to: "Notes.xcdatamodel")
        let check = try workspace.sluice("check", "--layout", "coredata", "--model", "Notes.xcdatamodel")
        #expect(check.status == 0, "\(check)")
        #expect(check.stderrLines == [
            "sluice: note: Notes.xcdatamodel: entities.Note.attributes.colour.valueTransformerName: not applied: Sluice's layout "
                + "stores the value as JSON text; in Core Data's store (--layout coredata) the column is there and a value for "
                + "it is a record error, as only the app runs the transformer",
        ], "\(check)")
        #expect(check.stdout == "Notes.xcdatamodel: ok, 1 entity, 1 note, in Core Data's layout\n", "\(check)")
    }

    @Test func theStoreIsWrittenAndAValueIsARecordError() throws {
        let workspace = Workspace()
        try workspace.writeCoreDataModel(entities: Self.model, to: "Notes.xcdatamodel")
        let written = try run(workspace, #"[{"noteID": "n1", "text": "a", "colour": null}, {"noteID": "n2"}]"#, ["--quiet"])
        #expect(written.status == 0, "\(written)")
        let db = try workspace.database("Notes.sqlite")
        #expect(try db.rows("SELECT ZNOTEID, ZTEXT, ZCOLOUR FROM ZNOTE ORDER BY Z_PK") == [
            [.text("n1"), .text("a"), .null], [.text("n2"), .null, .null],
        ])
        #expect(try db.rows("SELECT type FROM pragma_table_info('ZNOTE') WHERE name = 'ZCOLOUR'") == [[.text("BLOB")]])

        let refused = try run(workspace, #"[{"noteID": "n3", "colour": "red"}]"#, ["--quiet"])
        #expect(refused.status == 65, "\(refused)")
        #expect(refused.stderrLines == [
            "sluice: error: <stdin>:1:2: Note.colour: a transformable attribute: Core Data's store keeps its value as the value "
                + "transformer's archive, which Sluice does not write",
        ], "\(refused)")

        // Under --on-error skip the whole record is skipped, the others written.
        let skipped = try run(workspace, #"[{"noteID": "n4", "text": "kept"}, {"noteID": "n5", "text": "lost", "colour": [1, 0, 0]}]"#,
                              ["--on-error", "skip", "--quiet"])
        #expect(skipped.status == 0, "\(skipped)")
        #expect(try workspace.database("Notes.sqlite").rows("SELECT ZNOTEID, ZTEXT FROM ZNOTE WHERE Z_PK > 2 ORDER BY Z_PK") == [
            [.text("n4"), .text("kept")],
        ])
    }
}
