import Foundation
import SluiceTestSupport
import Testing
@testable import Sluice

/// A many-to-many in Core Data's layout, through the binary with the input on standard input.
/// Which side names its join table is not known for every model, so only a store the app made
/// (which holds the table) takes one: CoreDataPlus's real store, with rows Core Data wrote, and
/// an empty store made here as the app would make it.
@Suite struct CoreDataManyToManyTests {
    static let folder = CoreDataStoreCommandTests.fixtures + "coredataplus/6739d000/Tests/"
    static let store = folder + "SampleModelV2.sqlite"
    /// Car 1 (SportCar 2, LuxuryCar 3), Maker 4, Person 5; `Car.previousOwners` ↔
    /// `Person.previousCars` in `Z_1PREVIOUSOWNERS (Z_1PREVIOUSCARS, Z_5PREVIOUSOWNERS)`.
    static let model = folder + "SampleModel.xcdatamodeld/SampleModel3.xcdatamodel"

    /// A new car with two previous owners, one already in the store (Alex Rathbun, `Z_PK` 8)
    /// and one new; then a new person whose previous cars are that car and car 1.
    static let cars = """
        {"cars": [{"numberPlate": "NEW-1", "model": "Panda", "previousOwners": [
          {"firstName": "Alex", "lastName": "Rathbun", "updatedAt": "2020-01-01T00:00:00Z"},
          {"firstName": "Ada", "lastName": "Lovelace", "updatedAt": "2020-01-01T00:00:00Z"}]}],
         "people": [{"firstName": "Grace", "lastName": "Hopper", "updatedAt": "2021-01-01T00:00:00Z",
           "previousCars": [{"numberPlate": "NEW-1"}, {"numberPlate": "122"}]}]}
        """

    private func realStore(in workspace: Workspace, named name: String = "App.sqlite") throws -> String {
        try FileManager.default.copyItem(atPath: PackageFiles.path(Self.store), toPath: workspace.file(name))
        chmod(workspace.file(name), 0o644)
        return name
    }

    private func importCars(_ workspace: Workspace, db: String = "App.sqlite", _ input: String = cars) throws -> SluiceResult {
        try workspace.sluice(["import", "--db", db, "--layout", "coredata", "--model", PackageFiles.path(Self.model),
                              "--root", "cars=Car", "--root", "people=Person", "-"], stdin: Array(input.utf8))
    }

    /// The links go into the store's join table, from either side; keys continue from
    /// `Z_MAX`; the rows Core Data wrote are kept; a re-import writes nothing.
    @Test func theRealStoresJoinTableTakesTheLinksFromEitherSide() throws {
        let workspace = Workspace()
        _ = try realStore(in: workspace)
        let original = try Connection(path: workspace.file("App.sqlite"), mode: .readOnly)
        let before = try original.rows("SELECT (SELECT Z_OPT FROM ZPERSON WHERE Z_PK = 8), (SELECT Z_OPT FROM ZCAR WHERE Z_PK = 1)")
        original.close()
        // Opened only after the imports: a store in WAL mode held open cannot leave it.
        let result = try importCars(workspace)
        #expect(result.status == 0, "\(result)")
        let db = try workspace.database("App.sqlite")
        #expect(try db.rows("SELECT Z_PK FROM ZCAR WHERE ZNUMBERPLATE = '122'") == [[.integer(1)]])
        // Car 126; Alex Rathbun is person 8; Ada 21 and Grace 22 are new.
        #expect(try db.rows("SELECT Z_PK, ZFIRSTNAME FROM ZPERSON WHERE Z_PK > 20 ORDER BY Z_PK")
            == [[.integer(21), .text("Ada")], [.integer(22), .text("Grace")]])
        #expect(try db.rows("SELECT * FROM Z_1PREVIOUSOWNERS WHERE Z_1PREVIOUSCARS = 126 OR Z_5PREVIOUSOWNERS > 20 ORDER BY 1, 2") == [
            [.integer(1), .integer(22)], [.integer(126), .integer(8)], [.integer(126), .integer(21)], [.integer(126), .integer(22)],
        ])
        #expect(try db.rows("SELECT count(*) FROM Z_1PREVIOUSOWNERS") == [[.integer(122)]])
        #expect(try db.rows("SELECT Z_NAME, Z_MAX FROM Z_PRIMARYKEY WHERE Z_SUPER = 0 ORDER BY Z_ENT")
            == [[.text("Car"), .integer(126)], [.text("Maker"), .integer(11)], [.text("Person"), .integer(22)]])
        #expect(try db.scalar("PRAGMA journal_mode") == .text("delete"))
        // Alex (a previous car more, and his updatedAt) and car 1 (a previous owner more):
        // one save each, one more version.
        let after = try db.rows("SELECT (SELECT Z_OPT FROM ZPERSON WHERE Z_PK = 8), (SELECT Z_OPT FROM ZCAR WHERE Z_PK = 1)")
        #expect(after == before.map { $0.map { .integer(($0.integerValue ?? 0) + 1) } }, "\(before) → \(after)")
        #expect(try db.rows("SELECT Z_OPT FROM ZPERSON WHERE Z_PK > 20") == [[.integer(1)], [.integer(1)]])

        let versions = try db.rows("SELECT Z_PK, Z_OPT FROM ZPERSON ORDER BY Z_PK")
        // The first import left the store in journal mode DELETE: an open reader no longer stops it.
        let again = try importCars(workspace)
        #expect(again.status == 0, "\(again)")
        #expect(again.stderr.contains("  total          0        0          6         0      0           0"), "\(again.stderr)")
        #expect(try db.rows("SELECT count(*) FROM Z_1PREVIOUSOWNERS") == [[.integer(122)]])
        #expect(try db.rows("SELECT Z_PK, Z_OPT FROM ZPERSON ORDER BY Z_PK") == versions)
    }

    /// A store whose join table is named after the other side (as third-party stores show for
    /// some models) is written under that name.
    @Test func theOtherSidesNameIsTakenFromTheStore() throws {
        let workspace = Workspace()
        _ = try realStore(in: workspace)
        let connection = try Connection(path: workspace.file("App.sqlite"))
        try connection.execute("ALTER TABLE Z_1PREVIOUSOWNERS RENAME TO Z_5PREVIOUSCARS")
        connection.close()
        let result = try importCars(workspace)
        #expect(result.status == 0, "\(result)")
        let db = try workspace.database("App.sqlite")
        #expect(try db.rows("SELECT Z_5PREVIOUSOWNERS FROM Z_5PREVIOUSCARS WHERE Z_1PREVIOUSCARS = 126 ORDER BY 1")
            == [[.integer(8)], [.integer(21)], [.integer(22)]])
    }

    /// A new store is refused before anything is written, with one line naming both names.
    @Test func aNewStoreIsRefused() throws {
        let workspace = Workspace()
        let result = try importCars(workspace, db: "New.sqlite")
        #expect(result.status == 64, "\(result)")
        #expect(result.stderrLines == [
            "sluice: error: \(PackageFiles.path(Self.model)): entities.Car.relationships.previousOwners: a many-to-many with "
                + "Person.previousCars: Core Data names its join table Z_1PREVIOUSOWNERS or Z_5PREVIOUSCARS, and which is not "
                + "known; a new store is refused: import into a store the app made, which has the table",
        ], "\(result)")
        #expect(!FileManager.default.fileExists(atPath: workspace.file("New.sqlite")))
    }

    static let garage = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
            <entity name="Car" representedClassName="Car">
                <attribute name="carID" attributeType="String"/>
                <relationship name="previousOwners" optional="YES" toMany="YES" ordered="YES" destinationEntity="Person" inverseName="previousCars" inverseEntity="Person">
                    <userInfo><entry key="relatedByAttribute" value="personID"/></userInfo>
                </relationship>
            </entity>
            <entity name="Person" representedClassName="Person">
                <attribute name="personID" attributeType="String"/>
                <relationship name="previousCars" optional="YES" toMany="YES" destinationEntity="Car" inverseName="previousOwners" inverseEntity="Car"/>
            </entity>
        </model>
        """

    /// The empty store an app makes for `garage`: Core Data's statements, `Z_PRIMARYKEY` and
    /// `Z_METADATA`, with the join table `joinTable`.
    private func emptyAppStore(in workspace: Workspace, joinTable: String) throws {
        let model = try CoreDataModel.read(path: workspace.file("Garage.xcdatamodel"))
        let layout = try CoreDataStoreLayout(model, sourceName: "Garage", existingTables: [joinTable])
        let connection = try Connection(path: workspace.file("App.sqlite"))
        defer { connection.close() }
        for statement in CoreDataStoreLayout.pragmas + layout.statements { try connection.execute(statement) }
        for row in layout.primaryKeyRows {
            _ = try connection.rows("INSERT INTO Z_PRIMARYKEY VALUES (?, ?, ?, ?)", row)
        }
        _ = try connection.rows("INSERT INTO Z_METADATA VALUES (?, ?, ?)", layout.metadataRow(storeUUID: CoreDataImportLayout.newStoreUUID()))
    }

    /// An ordered many-to-many keeps each list's order in the other side's `Z_FOK_` column,
    /// increasing in the input's order, after a forward reference (the second pass); under
    /// either name of the join table.
    @Test(arguments: ["Z_1PREVIOUSOWNERS", "Z_2PREVIOUSCARS"])
    func anOrderedManyToManyKeepsItsOrderInZFOK(_ joinTable: String) throws {
        let workspace = Workspace()
        try workspace.writeCoreDataModel(Self.garage, to: "Garage.xcdatamodel")
        try emptyAppStore(in: workspace, joinTable: joinTable)
        let input = """
            {"cars": [{"carID": "c1", "previousOwners": ["p3", "p1", "p2"]}, {"carID": "c2", "previousOwners": ["p2"]}],
             "people": [{"personID": "p1"}, {"personID": "p2"}, {"personID": "p3"}]}
            """
        let result = try workspace.sluice(["import", "--db", "App.sqlite", "--layout", "coredata", "--model", "Garage.xcdatamodel",
                                           "--root", "cars=Car", "--root", "people=Person", "-"], stdin: Array(input.utf8))
        #expect(result.status == 0, "\(result)")
        let db = try workspace.database("App.sqlite")
        let order = try db.rows("""
            SELECT c.ZCARID, p.ZPERSONID FROM \(joinTable) AS j JOIN ZCAR AS c ON c.Z_PK = j.Z_1PREVIOUSCARS
            JOIN ZPERSON AS p ON p.Z_PK = j.Z_2PREVIOUSOWNERS ORDER BY c.ZCARID, j.Z_FOK_2PREVIOUSOWNERS
            """)
        #expect(order == [[.text("c1"), .text("p3")], [.text("c1"), .text("p1")], [.text("c1"), .text("p2")],
                          [.text("c2"), .text("p2")]])
        #expect(try db.rows("SELECT count(DISTINCT Z_FOK_2PREVIOUSOWNERS) FROM \(joinTable) WHERE Z_1PREVIOUSCARS = 1") == [[.integer(3)]])
    }
}
