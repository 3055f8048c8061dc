import Foundation
import SluiceTestSupport
import Testing
@testable import Sluice

/// A one-to-one in a Core Data store (`CoreDataOneToOnes`): both columns are set, whichever
/// side the input gives and whenever the link is made (with the row, in the second pass);
/// relinking empties the old partner's column, a target linked from two sources keeps the
/// last, `Z_OPT` grows on every row whose column changed, and a re-import writes nothing.
@Suite struct CoreDataOneToOneTests {
    static let model = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
            <entity name="Recipe" representedClassName="Recipe">
                <attribute name="recipeID" attributeType="String"/>
                <relationship name="image" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Image" inverseName="recipe" inverseEntity="Image">
                    <userInfo><entry key="relatedByAttribute" value="imageID"/><entry key="mappedKeyName" value="imageID"/></userInfo>
                </relationship>
            </entity>
            <entity name="Image" representedClassName="Image">
                <attribute name="imageID" attributeType="String"/>
                <relationship name="recipe" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Recipe" inverseName="image" inverseEntity="Recipe">
                    <userInfo><entry key="relatedByAttribute" value="recipeID"/><entry key="mappedKeyName" value="recipeID"/></userInfo>
                </relationship>
            </entity>
        </model>
        """

    private func run(_ workspace: Workspace, _ input: String) throws -> SluiceResult {
        try workspace.sluice(["import", "--db", "Seed.sqlite", "--layout", "coredata", "--model", "Food.xcdatamodel",
                              "--root", "recipes=Recipe", "--root", "images=Image", "--root", "later=Recipe", "-"],
                             stdin: Array(input.utf8))
    }

    /// (kind, id, Z_OPT, the partner's id) per row, recipes then images, by key.
    private func rows(_ workspace: Workspace) throws -> [String] {
        let db = try workspace.database("Seed.sqlite")
        return try (db.rows("""
            SELECT 'R ' || r.ZRECIPEID || ' ' || r.Z_OPT || ' ' || ifnull(i.ZIMAGEID, '-') FROM ZRECIPE r
            LEFT JOIN ZIMAGE i ON i.Z_PK = r.ZIMAGE ORDER BY r.Z_PK
            """) + db.rows("""
            SELECT 'I ' || i.ZIMAGEID || ' ' || i.Z_OPT || ' ' || ifnull(r.ZRECIPEID, '-') FROM ZIMAGE i
            LEFT JOIN ZRECIPE r ON r.Z_PK = i.ZRECIPE ORDER BY i.Z_PK
            """)).map { $0[0].text ?? "?" }
    }

    @Test func bothColumnsFollowEitherSideInEveryPass() throws {
        let workspace = Workspace()
        try workspace.writeCoreDataModel(Self.model, to: "Food.xcdatamodel")
        // r1 names i1 before it exists (second pass, recipe side); i2 names r2, written (with
        // the row, image side); i3 names r3 before it exists (second pass, image side).
        let first = try run(workspace, """
            {"recipes": [{"recipeID": "r1", "imageID": "i1"}, {"recipeID": "r2"}],
             "images": [{"imageID": "i1"}, {"imageID": "i2", "recipeID": "r2"}, {"imageID": "i3", "recipeID": "r3"}],
             "later": [{"recipeID": "r3"}]}
            """)
        #expect(first.status == 0, "\(first)")
        #expect(try rows(workspace) == ["R r1 1 i1", "R r2 1 i2", "R r3 1 i3", "I i1 1 r1", "I i2 1 r2", "I i3 1 r3"])

        // Relinked from the recipe side: i1 and r2 lose their partners.
        let relink = #"{"recipes": [{"recipeID": "r1", "imageID": "i2"}]}"#
        #expect(try run(workspace, relink).status == 0)
        #expect(try rows(workspace) == ["R r1 2 i2", "R r2 2 -", "R r3 1 i3", "I i1 2 -", "I i2 2 r1", "I i3 1 r3"])
        // The same again changes nothing.
        #expect(try run(workspace, relink).status == 0)
        #expect(try rows(workspace) == ["R r1 2 i2", "R r2 2 -", "R r3 1 i3", "I i1 2 -", "I i2 2 r1", "I i3 1 r3"])

        // Relinked from the image side: r3 loses i3, r2 gets it.
        #expect(try run(workspace, #"{"images": [{"imageID": "i3", "recipeID": "r2"}]}"#).status == 0)
        #expect(try rows(workspace) == ["R r1 2 i2", "R r2 3 i3", "R r3 2 -", "I i1 2 -", "I i2 2 r1", "I i3 2 r2"])

        // Two recipes name i1 in one import: the later keeps it; each changed row is raised once.
        #expect(try run(workspace, #"{"recipes": [{"recipeID": "r1", "imageID": "i1"}, {"recipeID": "r3", "imageID": "i1"}]}"#).status == 0)
        #expect(try rows(workspace) == ["R r1 3 -", "R r2 3 i3", "R r3 3 i1", "I i1 3 r3", "I i2 3 -", "I i3 2 r2"])
    }

    /// A stub made for an id no record gives (`--unresolved stub`) names its partner too.
    @Test func aStubNamesItsPartner() throws {
        let workspace = Workspace()
        try workspace.writeCoreDataModel(Self.model, to: "Food.xcdatamodel")
        let result = try workspace.sluice(["import", "--db", "Seed.sqlite", "--layout", "coredata", "--model", "Food.xcdatamodel",
                                           "--root", "recipes=Recipe", "--unresolved", "stub", "-"],
                                          stdin: Array(#"{"recipes": [{"recipeID": "r1", "imageID": "i9"}]}"#.utf8))
        #expect(result.status == 0, "\(result)")
        #expect(try rows(workspace) == ["R r1 1 i9", "I i9 1 r1"])
    }

    /// Deleting one side (`--delete-missing`, Nullify) empties the other side's column.
    @Test func deletingASideEmptiesTheOther() throws {
        let workspace = Workspace()
        try workspace.writeCoreDataModel(Self.model, to: "Food.xcdatamodel")
        #expect(try run(workspace, #"{"recipes": [{"recipeID": "r1", "imageID": "i1"}], "images": [{"imageID": "i1"}]}"#).status == 0)
        let result = try workspace.sluice(["import", "--db", "Seed.sqlite", "--layout", "coredata", "--model", "Food.xcdatamodel",
                                           "--root", "recipes=Recipe", "--delete-missing", "-"], stdin: Array(#"{"recipes": []}"#.utf8))
        #expect(result.status == 0, "\(result)")
        #expect(try rows(workspace) == ["I i1 2 -"])
    }

    /// Where one side's entity has sub-entities, the other side's column has an entity column
    /// beside it (`Z<n>RECIPE`): the mirrored link names the partner's entity too, and an
    /// emptied link empties it, or Core Data would fault the partner as the wrong entity.
    @Test func theEntityColumnFollowsTheKey() throws {
        let workspace = Workspace()
        let family = Self.model.replacingOccurrences(of: "</model>", with: """
                <entity name="SpecialRecipe" representedClassName="SpecialRecipe" parentEntity="Recipe">
                    <attribute name="chef" optional="YES" attributeType="String"/>
                </entity>
            </model>
            """)
        try workspace.writeCoreDataModel(family, to: "Food.xcdatamodel")
        func import_(_ input: String) throws {
            let result = try workspace.sluice(["import", "--db", "Seed.sqlite", "--layout", "coredata", "--model", "Food.xcdatamodel",
                                               "--root", "recipes=Recipe", "--root", "special=SpecialRecipe", "--root", "images=Image", "-"],
                                              stdin: Array(input.utf8))
            #expect(result.status == 0, "\(result)")
        }
        /// (image, its recipe's id, the entity its entity column names), by key.
        func images() throws -> [String] {
            let db = try workspace.database("Seed.sqlite")
            let entityColumn = try #require(try db.rows("SELECT name FROM pragma_table_info('ZIMAGE')").compactMap { $0[0].text }
                .first { $0 != "ZRECIPE" && $0.hasSuffix("RECIPE") })
            return try db.rows("""
                SELECT i.ZIMAGEID || ' ' || ifnull(r.ZRECIPEID, '-') || ' ' || ifnull(e.Z_NAME, '-') FROM ZIMAGE i
                LEFT JOIN ZRECIPE r ON r.Z_PK = i.ZRECIPE LEFT JOIN Z_PRIMARYKEY e ON e.Z_ENT = i.\(entityColumn) ORDER BY i.Z_PK
                """).map { $0[0].text ?? "?" }
        }
        // Linked from the recipe side (with the row, and in the second pass).
        try import_(#"{"recipes": [{"recipeID": "r1", "imageID": "i1"}], "special": [{"recipeID": "s1", "imageID": "i2"}], "images": [{"imageID": "i1"}, {"imageID": "i2"}]}"#)
        #expect(try images() == ["i1 r1 Recipe", "i2 s1 SpecialRecipe"])
        // Relinked from the image side: i1 loses r1, key and entity both.
        try import_(#"{"images": [{"imageID": "i2", "recipeID": "r1"}]}"#)
        #expect(try images() == ["i1 - -", "i2 r1 Recipe"])
    }
}
