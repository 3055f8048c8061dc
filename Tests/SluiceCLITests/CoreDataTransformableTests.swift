import Foundation
import SluiceTestSupport
import Testing
@testable import Sluice

/// Transformable attributes (SPEC section 11). With a value transformer of the app's own the
/// model is not refused, the store is written with the attribute's column, and a value for it
/// is a record error naming the entity and attribute; `check` says the same. With one of Core
/// Data's default transformers (none named, `NSSecureUnarchiveFromData`) a value is written as
/// the keyed archive Core Data reads back (`KeyedArchive`).
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

    static let customNote = "sluice: note: Notes.xcdatamodel: entities.Note.attributes.colour.valueTransformerName: not applied: "
        + "Sluice's layout stores the value as JSON text; in Core Data's store (--layout coredata) the column is there and a value "
        + "for it is a record error, as only the app runs the transformer"
    static let defaultNote = "sluice: note: Notes.xcdatamodel: entities.Note.attributes.shape.valueTransformerName: not applied: "
        + "Sluice's layout stores the value as JSON text; in Core Data's store (--layout coredata) the value is written as the keyed "
        + "archive this transformer reads"

    /// `check` passes and notes what each named transformer's values get.
    @Test(arguments: [(CoreDataTransformableTests.model, [CoreDataTransformableTests.customNote], "1 note"),
                      (CoreDataTransformableTests.defaultsModel,
                       [CoreDataTransformableTests.defaultNote, CoreDataTransformableTests.customNote], "2 notes")])
    func checkSaysOneThing(_ model: String, _ notes: [String], _ count: String) throws {
        let workspace = Workspace()
        try workspace.writeCoreDataModel(entities: model, to: "Notes.xcdatamodel")
        let check = try workspace.sluice("check", "--layout", "coredata", "--model", "Notes.xcdatamodel")
        #expect(check.status == 0, "\(check)")
        #expect(check.stderrLines == notes, "\(check)")
        #expect(check.stdout == "Notes.xcdatamodel: ok, 1 entity, \(count), in Core Data's layout\n", "\(check)")
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

    static let defaultsModel = """
        <entity name="Note">
            <attribute name="noteID" attributeType="String"/>
            <attribute name="tags" optional="YES" attributeType="Transformable"/>
            <attribute name="shape" optional="YES" attributeType="Transformable" valueTransformerName="NSSecureUnarchiveFromData"/>
            <attribute name="colour" optional="YES" attributeType="Transformable" valueTransformerName="ColourTransformer"/>
        </entity>
        """

    /// `"round"` as `NSKeyedArchiver` writes it, from the format's definition: the top
    /// dictionary ($version, $objects, $archiver, $top), 100000, ["$null", "round"],
    /// "NSKeyedArchiver", {root: UID 1}, one-byte offsets and references.
    static let round = "62706c6973743030d4010203040506090a582476657273696f6e58246f626a65637473592461726368697665725424746f70"
        + "12000186a0a2070855246e756c6c55726f756e645f100f4e534b657965644172636869766572d10b0c54726f6f74800108111a232d32"
        + "373a4046585b600000000000000101000000000000000d00000000000000000000000000000062"

    static func bytes(hex: String) -> [UInt8] {
        stride(from: 0, to: hex.count, by: 2).map { offset in
            let start = hex.index(hex.startIndex, offsetBy: offset)
            return UInt8(hex[start..<hex.index(start, offsetBy: 2)], radix: 16)!
        }
    }

    @Test func defaultTransformersValuesAreTheirKeyedArchive() throws {
        let workspace = Workspace()
        try workspace.writeCoreDataModel(entities: Self.defaultsModel, to: "Notes.xcdatamodel")
        let input = #"[{"noteID": "n1", "tags": ["x", 1, 2.5, true, null, {"k": "x"}], "shape": "round"}, "#
            + #"{"noteID": "n2", "tags": {"b": [], "a": 9223372036854775807}, "shape": null}, {"noteID": "n3", "tags": -1.5e3}]"#
        let written = try run(workspace, input, ["--quiet"])
        #expect(written.status == 0, "\(written)")
        let db = try workspace.database("Notes.sqlite")
        #expect(try db.rows("SELECT ZSHAPE FROM ZNOTE ORDER BY Z_PK") == [[.blob(Self.bytes(hex: Self.round))], [.null], [.null]])
        let tags = try db.rows("SELECT ZTAGS FROM ZNOTE ORDER BY Z_PK").map { $0[0] }
        #expect(tags == [
            .blob(try KeyedArchive.archive(.array([.string("x"), .number("1"), .number("2.5"), .bool(true), .null,
                                                   .object([JSONValue.Member("k", .string("x"))])]))),
            .blob(try KeyedArchive.archive(.object([JSONValue.Member("b", .array([])),
                                                    JSONValue.Member("a", .number("9223372036854775807"))]))),
            .blob(try KeyedArchive.archive(.number("-1500.0"))),
        ])
        // Read back, each is the value given (numbers as their integer or double).
        let read = try tags.map { value throws -> JSONValue in
            guard case .blob(let bytes) = value else { return .null }
            return try KeyedArchive.value(of: bytes)
        }
        #expect(read == [
            .array([.string("x"), .number("1"), .number("2.5"), .bool(true), .null, .object([JSONValue.Member("k", .string("x"))])]),
            .object([JSONValue.Member("b", .array([])), JSONValue.Member("a", .number("9223372036854775807"))]),
            .number("-1500.0"),
        ])
        #expect(try db.rows("SELECT type FROM pragma_table_info('ZNOTE') WHERE name IN ('ZTAGS', 'ZSHAPE')") == [[.text("BLOB")], [.text("BLOB")]])
    }

    /// The same value again is the same archive: nothing is written, Z_OPT stays; another
    /// value is written and raises it.
    @Test func aReimportOfTheSameValueWritesNothing() throws {
        let workspace = Workspace()
        try workspace.writeCoreDataModel(entities: Self.defaultsModel, to: "Notes.xcdatamodel")
        let input = #"[{"noteID": "n1", "tags": {"a": [1, "b", null], "c": {"d": 2.5}}, "shape": "round"}]"#
        #expect(try run(workspace, input, ["--quiet"]).status == 0)
        let before = try workspace.database("Notes.sqlite").rows("SELECT Z_OPT, ZTAGS, ZSHAPE FROM ZNOTE")
        let again = try run(workspace, input, [])
        #expect(again.status == 0, "\(again)")
        #expect(again.stderrLines.contains("  Note         0        0          1         0"), "\(again)")
        #expect(try workspace.database("Notes.sqlite").rows("SELECT Z_OPT, ZTAGS, ZSHAPE FROM ZNOTE") == before)
        let changed = try run(workspace, #"[{"noteID": "n1", "tags": {"a": [1, "b", null], "c": {"d": 2.5}}, "shape": "square"}]"#, ["--quiet"])
        #expect(changed.status == 0, "\(changed)")
        #expect(try workspace.database("Notes.sqlite").rows("SELECT Z_OPT, ZSHAPE FROM ZNOTE")
            == [[.integer(2), .blob(try KeyedArchive.archive(.string("square")))]])
    }

    /// Beside archived attributes, the custom transformer's value is still the record's error,
    /// under abort (exit 65, nothing written) and skip (that record alone left out); a number
    /// beyond the double range is the record's error too.
    @Test func aCustomTransformerStaysARecordErrorBesideDefaultOnes() throws {
        let workspace = Workspace()
        try workspace.writeCoreDataModel(entities: Self.defaultsModel, to: "Notes.xcdatamodel")
        let input = #"[{"noteID": "n1", "tags": ["a"]}, {"noteID": "n2", "tags": ["b"], "colour": [1, 0, 0]}, "#
            + #"{"noteID": "n3", "shape": [1e400]}]"#
        let refused = try run(workspace, input, ["--quiet"])
        #expect(refused.status == 65, "\(refused)")
        #expect(refused.stderrLines == [
            "sluice: error: <stdin>:1:35: Note.colour: a transformable attribute: Core Data's store keeps its value as the value "
                + "transformer's archive, which Sluice does not write",
        ], "\(refused)")
        #expect(!FileManager.default.fileExists(atPath: workspace.file("Notes.sqlite")))
        let skipped = try run(workspace, input, ["--on-error", "skip"])
        #expect(skipped.status == 0, "\(skipped)")
        #expect(skipped.stderrLines.contains("  Note         1        0          0         2"), "\(skipped)")
        #expect(try workspace.database("Notes.sqlite").rows("SELECT ZNOTEID, ZTAGS FROM ZNOTE ORDER BY Z_PK")
            == [[.text("n1"), .blob(try KeyedArchive.archive(.array([.string("a")])))]])
        let overflow = try run(workspace, #"[{"noteID": "n3", "shape": [1e400]}]"#, ["--quiet"])
        #expect(overflow.status == 65, "\(overflow)")
        #expect(overflow.stderrLines == ["sluice: error: <stdin>:1:2: Note.shape: cannot convert 1e400 to double: out of the double range"],
                "\(overflow)")
    }
}
