import Foundation
import SluiceTestSupport
import Testing
@testable import Sluice

/// Names Core Data's tables cannot hold (`docs/coredata-store.md#refused`): Core Data's SQL
/// names tables and columns bare and upper-cased, so `check --layout coredata` refuses a name
/// SQLite does not read as one identifier, and an entity whose table another table already is;
/// and it accepts exactly what an import into a new store can write.
@Suite struct CoreDataNameTests {
    /// The `<entity>` elements of entities named `name`, each with String attributes `attributes`.
    static func entities(_ entities: [(name: String, attributes: [String])]) -> String {
        entities.map { entity in
            "<entity name=\"\(ModelText.xml(entity.name))\">" + entity.attributes.map {
                "<attribute name=\"\(ModelText.xml($0))\" optional=\"YES\" attributeType=\"String\"/>"
            }.joined() + "</entity>"
        }.joined(separator: "\n")
    }

    struct Refused: Sendable, CustomTestStringConvertible {
        var name: String
        var entities: [(name: String, attributes: [String])]
        var problem: String
        var testDescription: String { name }
    }

    static let refused: [Refused] = [
        Refused(name: "Straße and STRASSE", entities: [("Straße", ["id"]), ("STRASSE", ["id"])],
                problem: #"entities.Straße: its table ZSTRASSE is also the table of entity "STRASSE" (Core Data upper-cases names); rename the entity"#),
        Refused(name: "_PRIMARYKEY", entities: [("_PRIMARYKEY", ["id"])],
                problem: "entities._PRIMARYKEY: its table Z_PRIMARYKEY is also Core Data's own table (Core Data upper-cases names); rename the entity"),
        Refused(name: "_metadata", entities: [("_metadata", ["id"])],
                problem: "entities._metadata: its table Z_METADATA is also Core Data's own table (Core Data upper-cases names); rename the entity"),
        Refused(name: "_MODELCACHE", entities: [("_MODELCACHE", ["id"])],
                problem: "entities._MODELCACHE: its table Z_MODELCACHE is also Core Data's own table (Core Data upper-cases names); rename the entity"),
        Refused(name: "an attribute with a double quote", entities: [("Item", ["a\"b"])],
                problem: #"entities.Item.attributes.a"b: Core Data names its column "ZA\"B" in SQL without quotes, where "\"" cannot stand; use letters, digits and _"#),
        Refused(name: "an attribute with a single quote", entities: [("Item", ["a'b"])],
                problem: #"entities.Item.attributes.a'b: Core Data names its column "ZA'B" in SQL without quotes, where "'" cannot stand; use letters, digits and _"#),
        Refused(name: "an entity with a space", entities: [("My Item", ["id"])],
                problem: #"entities.My Item: Core Data names its table "ZMY ITEM" in SQL without quotes, where " " cannot stand; use letters, digits and _"#),
        Refused(name: "an attribute named _PK", entities: [("Item", ["_PK"])],
                problem: "entities.Item.attributes._PK: its column Z_PK is taken in ZITEM: Core Data's name for the second one (Z_PK1?) is not verified; refused"),
        Refused(name: "an attribute named _opt", entities: [("Item", ["_opt"])],
                problem: "entities.Item.attributes._opt: its column Z_OPT is taken in ZITEM: Core Data's name for the second one (Z_OPT1?) is not verified; refused"),
    ]

    /// `check` names each with one line and exits 64; the import refuses the same before it
    /// writes anything.
    @Test(arguments: refused)
    func checkAndImportRefuseANameCoreDatasTablesCannotHold(_ refused: Refused) throws {
        let workspace = Workspace()
        try workspace.writeCoreDataModel(entities: Self.entities(refused.entities), to: "M.xcdatamodel")

        let check = try workspace.sluice("check", "--layout", "coredata", "--model", "M.xcdatamodel")
        #expect(check.status == 64, "\(check)")
        #expect(check.stderrLines == ["sluice: error: M.xcdatamodel: " + refused.problem], "\(check)")

        let result = try workspace.sluice(["import", "--db", "new.sqlite", "--layout", "coredata", "--model", "M.xcdatamodel",
                                           "--entity", refused.entities[0].name, "-"], stdin: Array("{}".utf8))
        #expect(result.status == 64, "\(result)")
        #expect(result.stderrLines.last == "sluice: error: M.xcdatamodel: " + refused.problem, "\(result)")
        #expect(workspace.contents == ["M.xcdatamodel"])
    }

    /// An attribute and a to-many relationship of one name (the fuzz target's crash-3fd85e7a):
    /// a to-many has no column to clash, so `check` accepted it and the import refused the
    /// first record whose key named both. Core Data keeps an entity's properties (its parents'
    /// included) by name; `check` and the import now refuse it with the same line, writing
    /// nothing. (Sluice's own models may give both one name: the GTFS model's `parent_station`.)
    @Test func anAttributeAndARelationshipOfOneNameAreRefusedByBoth() throws {
        let workspace = Workspace()
        try workspace.writeCoreDataModel(entities: """
            <entity name="Item"><attribute name="x" optional="YES" attributeType="String"/>\
            <relationship name="parent" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Item" \
            inverseName="x" inverseEntity="Item"/>\
            <relationship name="x" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Item" \
            inverseName="parent" inverseEntity="Item"/></entity>
            """, to: "M.xcdatamodel")
        let problem = "sluice: error: M.xcdatamodel: entities.Item.relationships.x: \"x\" is both an attribute and a relationship "
            + "of Item (Core Data keeps one property of a name); rename one"
        let check = try workspace.sluice("check", "--layout", "coredata", "--model", "M.xcdatamodel")
        #expect(check.status == 64, "\(check)")
        #expect(check.stderrLines == [problem], "\(check)")
        let result = try workspace.sluice(["import", "--db", "new.sqlite", "--layout", "coredata", "--model", "M.xcdatamodel",
                                           "--entity", "Item", "-"], stdin: Array(#"{"x": "v"}"#.utf8))
        #expect(result.status == 64, "\(result)")
        #expect(result.stderrLines == [problem], "\(result)")
        #expect(workspace.contents == ["M.xcdatamodel"])

        // An attribute named as a to-many the entity inherits.
        try workspace.writeCoreDataModel(entities: """
            <entity name="Item"><relationship name="owner" optional="YES" toMany="YES" deletionRule="Nullify" \
            destinationEntity="Item"/></entity>
            <entity name="Book" parentEntity="Item"><attribute name="owner" optional="YES" attributeType="String"/></entity>
            """, to: "M.xcdatamodel")
        let inherited = try workspace.sluice("check", "--layout", "coredata", "--model", "M.xcdatamodel")
        #expect(inherited.status == 64, "\(inherited)")
        #expect(inherited.stderrLines == ["sluice: error: M.xcdatamodel: entities.Book.attributes.owner: \"owner\" is both an "
            + "attribute of Book and a relationship it inherits (Core Data keeps one property of a name); rename one"], "\(inherited)")
    }

    /// Names that look reserved but are not: `METADATA`'s table is `ZMETADATA`, not Core Data's
    /// `Z_METADATA`; names beyond ASCII are bare identifiers to SQLite.
    @Test func namesThatOnlyLookReservedAreWritten() throws {
        let workspace = Workspace()
        try workspace.writeCoreDataModel(entities: Self.entities([("METADATA", ["PRIMARYKEY", "größe"]), ("MODELCACHE", ["名前"])]),
                                         to: "M.xcdatamodel")
        let check = try workspace.sluice("check", "--layout", "coredata", "--model", "M.xcdatamodel")
        #expect(check.status == 0, "\(check)")
        let result = try workspace.sluice(["import", "--db", "new.sqlite", "--layout", "coredata", "--model", "M.xcdatamodel",
                                           "--entity", "METADATA", "-"], stdin: Array(#"{"PRIMARYKEY": "p", "größe": "g"}"#.utf8))
        #expect(result.status == 0, "\(result)")
        #expect(try workspace.database("new.sqlite").rows(#"SELECT ZPRIMARYKEY, "ZGRÖSSE" FROM ZMETADATA"#) == [[.text("p"), .text("g")]])
    }

    // MARK: The property

    /// Characters of every kind a name may hold: ASCII identifier characters, letters whose
    /// upper case is longer or ASCII (`ß`, `ﬁ`, `ı`, `ſ`), other scripts, combining marks,
    /// emoji, format characters; and, more rarely, SQL's quotes and punctuation.
    static let alphabet: [String] = ["a", "b", "Z", "k", "0", "7", "_", "$", "ß", "ä", "Ä", "ı", "İ", "ſ", "ﬁ", "ǅ", "Σ", "ς", "é",
                                     "e\u{301}", "日", "😀", "\u{200B}", "\u{FEFF}"]
    static let punctuation: [String] = ["\"", "'", "`", " ", "-", ".", "[", "]", ";", "("]

    /// Whole names that meet Core Data's own: its bookkeeping tables and columns, and SQL words.
    static let reserved = ["_PRIMARYKEY", "_METADATA", "_MODELCACHE", "_pk", "_ENT", "_OPT", "_FOK_X", "PRIMARYKEY", "METADATA",
                           "PK", "ENT", "OPT", "select", "table", "1", "_1X", "_"]

    static func name(_ random: inout PropertyRandom) -> String {
        switch random.below(4) {
        case 0: return random.pick(reserved)
        default: return (0...random.below(6)).map { _ in random.below(12) == 0 ? random.pick(punctuation) : random.pick(alphabet) }.joined()
        }
    }

    /// A name and another one that differs only in case, or is the same upper-cased.
    static func twin(of name: String, _ random: inout PropertyRandom) -> String {
        switch random.below(3) {
        case 0: return name.uppercased()
        case 1: return name.lowercased()
        default: return name.replacingOccurrences(of: "ss", with: "ß").replacingOccurrences(of: "SS", with: "ß")
        }
    }

    static let cases = 160

    /// Generated models of one or two entities: whatever `check --layout coredata` accepts, an
    /// import into a new store writes, and reads back under Core Data's names; whatever it
    /// refuses (64), the import refuses too, before writing.
    @Test func checkAcceptsExactlyWhatTheImportCanWrite() throws {
        var random = PropertyRandom(seed: 52)
        var accepted = 0
        for index in 0..<Self.cases {
            let workspace = Workspace()
            var entities: [(name: String, attributes: [String])] = []
            let first = Self.name(&random)
            var attributes = [Self.name(&random)]
            if random.below(2) == 0 { attributes.append(random.below(2) == 0 ? Self.twin(of: attributes[0], &random) : Self.name(&random)) }
            entities.append((first, attributes))
            if random.below(3) == 0 {
                entities.append((random.below(2) == 0 ? Self.twin(of: first, &random) : Self.name(&random), [Self.name(&random)]))
            }
            try workspace.writeCoreDataModel(entities: Self.entities(entities), to: "M.xcdatamodel")
            let described = "case \(index): \(entities)"

            let check = try workspace.sluice("check", "--layout", "coredata", "--model", "M.xcdatamodel")
            let record = "{" + attributes.enumerated().map { ModelText.json($1) + ": " + ModelText.json("v\($0)") }.joined(separator: ", ") + "}"
            let result = try workspace.sluice(["import", "--db", "new.sqlite", "--layout", "coredata", "--model", "M.xcdatamodel",
                                               "--entity", first, "-"], stdin: Array(record.utf8))
            guard check.status == 0 else {
                #expect(check.status == 64, "\(described)\n\(check)")
                #expect(result.status == 64, "check refused, the import must too: \(described)\n\(check)\n\(result)")
                #expect(!workspace.contents.contains("new.sqlite"), "\(described)")
                continue
            }
            accepted += 1
            #expect(result.status == 0, "check accepted, the import failed: \(described)\n\(result)")
            guard result.status == 0 else { continue }
            let columns = attributes.map { quoteIdentifier("Z" + $0.uppercased()) }.joined(separator: ", ")
            let rows = try workspace.database("new.sqlite").rows("SELECT \(columns) FROM \(quoteIdentifier("Z" + first.uppercased()))")
            #expect(rows == [attributes.indices.map { .text("v\($0)") }], "\(described)")
        }
        // The generator must reach both sides.
        #expect(accepted > Self.cases / 4 && accepted < Self.cases * 3 / 4, "accepted \(accepted) of \(Self.cases)")
    }
}
