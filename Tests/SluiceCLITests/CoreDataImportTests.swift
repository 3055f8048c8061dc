import Foundation
import SluiceTestSupport
import Testing
@testable import Sluice

/// `sluice import --layout coredata`: the records of a Core Data model written into the store
/// Core Data keeps for it, through the binary with the input on standard input.
@Suite struct CoreDataImportTests {
    static let model = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
            <entity name="Route" representedClassName="Route">
                <attribute name="routeID" attributeType="String"/>
                <attribute name="name" optional="YES" attributeType="String"/>
                <relationship name="stops" optional="YES" toMany="YES" ordered="YES" destinationEntity="Stop" inverseName="route" inverseEntity="Stop">
                    <userInfo><entry key="relatedByAttribute" value="stopID"/></userInfo>
                </relationship>
                <relationship name="vehicles" optional="YES" toMany="YES" destinationEntity="Vehicle" inverseName="route" inverseEntity="Vehicle"/>
            </entity>
            <entity name="Stop" representedClassName="Stop">
                <attribute name="stopID" attributeType="String"/>
                <attribute name="name" optional="YES" attributeType="String"/>
                <attribute name="opened" optional="YES" attributeType="Date"/>
                <attribute name="uuid" optional="YES" attributeType="UUID"/>
                <attribute name="fare" optional="YES" attributeType="Decimal"/>
                <attribute name="accessible" optional="YES" attributeType="Boolean"/>
                <attribute name="tags" optional="YES" attributeType="Transformable"/>
                <relationship name="route" optional="YES" maxCount="1" destinationEntity="Route" inverseName="stops" inverseEntity="Route">
                    <userInfo><entry key="relatedByAttribute" value="routeID"/><entry key="mappedKeyName" value="routeID"/></userInfo>
                </relationship>
            </entity>
            <entity name="Vehicle" representedClassName="Vehicle">
                <attribute name="vehicleID" attributeType="String"/>
                <attribute name="kind" optional="YES" attributeType="String"/>
                <relationship name="route" optional="YES" maxCount="1" destinationEntity="Route" inverseName="vehicles" inverseEntity="Route">
                    <userInfo><entry key="relatedByAttribute" value="routeID"/><entry key="mappedKeyName" value="routeID"/></userInfo>
                </relationship>
            </entity>
            <entity name="Bus" representedClassName="Bus" parentEntity="Vehicle">
                <attribute name="seats" optional="YES" attributeType="Integer 32"/>
            </entity>
            <entity name="Driver" representedClassName="Driver">
                <attribute name="driverID" attributeType="String"/>
                <relationship name="vehicle" optional="YES" maxCount="1" destinationEntity="Vehicle">
                    <userInfo><entry key="relatedByAttribute" value="vehicleID"/><entry key="mappedKeyName" value="vehicleID"/></userInfo>
                </relationship>
            </entity>
        </model>
        """

    /// Routes first: their ordered stops wait for the second pass.
    static let input = """
        {"routes": [{"routeID": "r1", "name": "U2", "stops": ["s2", "s1"]}, {"routeID": "r2", "name": "S5"}],
         "stops": [
          {"stopID": "s1", "name": "Alex", "opened": "2020-01-02T03:04:05Z", "uuid": "6F9619FF-8B86-D011-B42D-00CF4FC964FF",
           "fare": "2.50", "accessible": true, "routeID": "r1"},
          {"stopID": "s2", "name": "Zoo", "opened": "2001-01-01T00:00:01.5Z", "fare": 3, "routeID": "r1"},
          {"stopID": "s3", "name": "Hbf", "routeID": "r2"}],
         "vehicles": [{"vehicleID": "v1", "kind": "tram", "routeID": "r1"}],
         "buses": [{"vehicleID": "b1", "kind": "bus", "seats": 40, "routeID": "r2"}],
         "drivers": [{"driverID": "d1", "vehicleID": "b1"}, {"driverID": "d2", "vehicleID": "v1"}]}
        """

    static let roots = ["--root", "routes=Route", "--root", "stops=Stop", "--root", "vehicles=Vehicle", "--root", "buses=Bus",
                        "--root", "drivers=Driver"]

    private func importInput(_ workspace: Workspace, _ input: String = input, db: String = "Seed.sqlite") throws -> SluiceResult {
        try workspace.sluice(["import", "--db", db, "--layout", "coredata", "--model", "Transit.xcdatamodel"] + Self.roots + ["-"],
                             stdin: Array(input.utf8))
    }

    private func workspaceWithModel() throws -> Workspace {
        let workspace = Workspace()
        try workspace.writeCoreDataModel(Self.model, to: "Transit.xcdatamodel")
        return workspace
    }

    @Test func writesCoreDatasTablesKeysAndValues() throws {
        let workspace = try workspaceWithModel()
        let result = try importInput(workspace)
        #expect(result.status == 0, "\(result)")
        let db = try workspace.database("Seed.sqlite")
        // Entity numbers: roots by name, each followed by its sub-entities.
        #expect(try db.rows("SELECT Z_ENT, Z_NAME, Z_SUPER, Z_MAX FROM Z_PRIMARYKEY ORDER BY Z_ENT") == [
            [.integer(1), .text("Driver"), .integer(0), .integer(2)],
            [.integer(2), .text("Route"), .integer(0), .integer(2)],
            [.integer(3), .text("Stop"), .integer(0), .integer(3)],
            [.integer(4), .text("Vehicle"), .integer(0), .integer(2)],
            [.integer(5), .text("Bus"), .integer(4), .integer(0)],
        ])
        // Dates in seconds since 2001 (whole ones as SQLite keeps them: integers), UUIDs as
        // 16 bytes, decimals as numbers, booleans 0/1; Z_OPT 1 in a new row.
        #expect(try db.rows("SELECT Z_PK, Z_ENT, Z_OPT, ZSTOPID, ZNAME, ZOPENED, hex(ZUUID), ZFARE, ZACCESSIBLE, ZROUTE FROM ZSTOP ORDER BY Z_PK") == [
            [.integer(1), .integer(3), .integer(1), .text("s1"), .text("Alex"), .integer(599_627_045),
             .text("6F9619FF8B86D011B42D00CF4FC964FF"), .real(2.5), .integer(1), .integer(1)],
            [.integer(2), .integer(3), .integer(1), .text("s2"), .text("Zoo"), .real(1.5), .text(""), .integer(3), .null, .integer(1)],
            [.integer(3), .integer(3), .integer(1), .text("s3"), .text("Hbf"), .null, .text(""), .null, .null, .integer(2)],
        ])
        // The ordered to-many's order keys increase in the order of the list: s2, then s1.
        let order = try db.rows("SELECT ZSTOPID FROM ZSTOP WHERE ZROUTE = 1 ORDER BY Z_FOK_ROUTE").map { $0[0] }
        #expect(order == [.text("s2"), .text("s1")])
        // A sub-entity's rows in its root's table with its own Z_ENT; a to-one to a family
        // holds the destination's Z_ENT beside its Z_PK.
        #expect(try db.rows("SELECT Z_PK, Z_ENT, ZVEHICLEID, ZSEATS, ZROUTE FROM ZVEHICLE ORDER BY Z_PK") == [
            [.integer(1), .integer(4), .text("v1"), .null, .integer(1)],
            [.integer(2), .integer(5), .text("b1"), .integer(40), .integer(2)],
        ])
        #expect(try db.rows("SELECT ZDRIVERID, ZVEHICLE, Z4_VEHICLE FROM ZDRIVER ORDER BY Z_PK") == [
            [.text("d1"), .integer(2), .integer(5)],
            [.text("d2"), .integer(1), .integer(4)],
        ])
        // One self-contained file of Core Data's format, with only Core Data's tables and indexes.
        #expect(try db.scalar("PRAGMA page_size") == .integer(4096))
        #expect(try db.scalar("PRAGMA auto_vacuum") == .integer(2))
        #expect(try db.scalar("PRAGMA journal_mode") == .text("delete"))
        #expect(try db.tables() == ["ZDRIVER", "ZROUTE", "ZSTOP", "ZVEHICLE", "Z_METADATA", "Z_PRIMARYKEY"])
        #expect(try db.rows("SELECT name FROM sqlite_master WHERE type = 'index' AND name NOT LIKE 'sqlite_%' ORDER BY name")
            .map { $0[0] } == ["ZDRIVER_ZVEHICLE_INDEX", "ZSTOP_ZROUTE_INDEX", "ZVEHICLE_ZROUTE_INDEX", "ZVEHICLE_Z_ENT_INDEX"]
            .map(ColumnValue.text))
        // The metadata Core Data checks: the model's hashes.
        guard case .blob(let plist)? = try db.scalar("SELECT Z_PLIST FROM Z_METADATA") else { Issue.record("no metadata"); return }
        let metadata = try BinaryPropertyList.read(plist)
        let expected = try VersionHash.entityHashes(of: CoreDataModel.read(path: workspace.file("Transit.xcdatamodel")), sourceName: "m")
        #expect(metadata["NSStoreType"] == .string("SQLite"))
        #expect(metadata["NSStoreModelVersionHashes"]?.dictionary?.count == 5)
        for (name, hash) in expected { #expect(metadata["NSStoreModelVersionHashes"]?[name] == .data(hash), "\(name)") }
    }

    /// `--vacuum` on a new store: built in 16 KiB pages without auto-vacuum, the file that lands is
    /// its vacuumed copy in Core Data's format, holding every row the store without `--vacuum`
    /// holds (its UUID aside), the same schema, no free page, and nothing else beside it.
    @Test func aVacuumedNewStoreIsCoreDatasFormatWithTheSameRows() throws {
        let workspace = try workspaceWithModel()
        for db in ["Plain.sqlite", "Vacuumed.sqlite"] {
            let vacuum = db == "Vacuumed.sqlite" ? ["--vacuum"] : []
            let result = try workspace.sluice(["import", "--db", db, "--layout", "coredata", "--model", "Transit.xcdatamodel"]
                                                + Self.roots + vacuum + ["-"], stdin: Array(Self.input.utf8))
            #expect(result.status == 0, "\(result)")
        }
        let plain = try workspace.database("Plain.sqlite")
        let vacuumed = try workspace.database("Vacuumed.sqlite")
        #expect(try vacuumed.scalar("PRAGMA page_size") == .integer(4096))
        #expect(try vacuumed.scalar("PRAGMA auto_vacuum") == .integer(2))
        #expect(try vacuumed.scalar("PRAGMA journal_mode") == .text("delete"))
        #expect(try vacuumed.scalar("PRAGMA freelist_count") == .integer(0))
        #expect(try vacuumed.scalar("PRAGMA integrity_check") == .text("ok"))
        let schema = "SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY name"
        #expect(try vacuumed.rows(schema) == plain.rows(schema))
        // The metadata but Sluice's import log (`SluiceLastImport`), which holds each import's own times.
        let metadata = { (db: TestDatabase) throws -> PropertyList? in
            guard case .blob(let plist)? = try db.scalar("SELECT Z_PLIST FROM Z_METADATA"),
                  case .dictionary(let members) = try BinaryPropertyList.read(plist) else { return nil }
            return .dictionary(members.filter { $0.key != CoreDataImportLog.key })
        }
        #expect(try metadata(vacuumed) == metadata(plain))
        for table in try plain.tables() where table != "Z_METADATA" {
            #expect(try vacuumed.rows("SELECT * FROM \(table) ORDER BY 1, 2") == plain.rows("SELECT * FROM \(table) ORDER BY 1, 2"), "\(table)")
        }
        #expect(workspace.contents.filter { $0.hasPrefix(".") } == [])
    }

    /// A re-import writes nothing and leaves `Z_OPT`; a changed row is written once more and
    /// its `Z_OPT` grows by one.
    @Test func reimportWritesNothingAndAnUpdateRaisesZOPT() throws {
        let workspace = try workspaceWithModel()
        #expect(try importInput(workspace).status == 0)
        let again = try importInput(workspace)
        #expect(again.status == 0, "\(again)")
        #expect(again.stderr.contains("  total           0        0          9         0      0           0"), "\(again.stderr)")
        let db = try workspace.database("Seed.sqlite")
        #expect(try db.rows("SELECT DISTINCT Z_OPT FROM ZSTOP") == [[.integer(1)]])

        let changed = try importInput(workspace, Self.input.replacingOccurrences(of: "\"Zoo\"", with: "\"Zoologischer Garten\""))
        #expect(changed.status == 0, "\(changed)")
        #expect(try db.rows("SELECT ZSTOPID, Z_OPT, ZNAME FROM ZSTOP ORDER BY Z_PK") == [
            [.text("s1"), .integer(1), .text("Alex")],
            [.text("s2"), .integer(2), .text("Zoologischer Garten")],
            [.text("s3"), .integer(1), .text("Hbf")],
        ])
        #expect(try db.rows("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = 3") == [[.integer(3)]])
    }

    /// `Z_OPT` grows by one per import that changes a row of the store: its attributes, its
    /// to-one (set by the second pass too), or its to-many (the route a stop leaves and the one
    /// it joins); once, however many of those; and a row the import creates keeps 1.
    @Test func aChangedLinkRaisesZOPTOnceAtBothEnds() throws {
        let workspace = try workspaceWithModel()
        #expect(try importInput(workspace).status == 0)
        // s3 leaves r2 for r3, named only after it (a forward reference), and is renamed; s9 is
        // new and updated by a later record of the same import.
        let result = try importInput(workspace, """
            {"stops": [{"stopID": "s3", "name": "Hauptbahnhof", "routeID": "r3"}, {"stopID": "s9", "name": "Nord"},
                       {"stopID": "s9", "name": "Nordbahnhof"}],
             "routes": [{"routeID": "r3", "name": "S7"}]}
            """)
        #expect(result.status == 0, "\(result)")
        let db = try workspace.database("Seed.sqlite")
        #expect(try db.rows("SELECT ZSTOPID, Z_OPT FROM ZSTOP ORDER BY Z_PK")
            == [[.text("s1"), .integer(1)], [.text("s2"), .integer(1)], [.text("s3"), .integer(2)], [.text("s9"), .integer(1)]])
        #expect(try db.rows("SELECT ZROUTEID, Z_OPT FROM ZROUTE ORDER BY Z_PK")
            == [[.text("r1"), .integer(1)], [.text("r2"), .integer(2)], [.text("r3"), .integer(1)]])
        #expect(try db.rows("SELECT r.ZROUTEID FROM ZSTOP AS s JOIN ZROUTE AS r ON r.Z_PK = s.ZROUTE WHERE s.ZSTOPID = 's3'")
            == [[.text("r3")]])

        // The same again changes nothing: no version moves.
        let again = try importInput(workspace, """
            {"stops": [{"stopID": "s3", "name": "Hauptbahnhof", "routeID": "r3"}], "routes": [{"routeID": "r3", "name": "S7"}]}
            """)
        #expect(again.status == 0, "\(again)")
        #expect(try db.rows("SELECT sum(Z_OPT) FROM ZSTOP") == [[.integer(5)]])
        #expect(try db.rows("SELECT sum(Z_OPT) FROM ZROUTE") == [[.integer(4)]])
    }

    /// New rows continue from `Z_MAX`, even beyond the largest `Z_PK` left (rows deleted).
    @Test func keysContinueFromZMAX() throws {
        let workspace = try workspaceWithModel()
        #expect(try importInput(workspace).status == 0)
        let db = try Connection(path: workspace.file("Seed.sqlite"))
        try db.execute("DELETE FROM ZSTOP WHERE Z_PK = 3; UPDATE Z_PRIMARYKEY SET Z_MAX = 7 WHERE Z_ENT = 3")
        db.close()
        let result = try importInput(workspace, #"{"stops": [{"stopID": "s9", "name": "Nord"}]}"#)
        #expect(result.status == 0, "\(result)")
        let check = try workspace.database("Seed.sqlite")
        #expect(try check.rows("SELECT Z_PK, ZSTOPID FROM ZSTOP WHERE Z_PK > 2") == [[.integer(8), .text("s9")]])
        #expect(try check.rows("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = 3") == [[.integer(8)]])
    }

    /// `--delete-missing` deletes the rows an import does not mention, and unlinks what pointed
    /// at them; their keys are not issued again (`Z_MAX` stays).
    @Test func deleteMissingDeletesTheRowsNotMentioned() throws {
        let workspace = try workspaceWithModel()
        #expect(try importInput(workspace).status == 0)
        let result = try workspace.sluice(["import", "--db", "Seed.sqlite", "--layout", "coredata", "--model", "Transit.xcdatamodel",
                                           "--delete-missing", "--root", "routes=Route", "-"],
                                          stdin: Array(#"{"routes": [{"routeID": "r1", "name": "U2"}]}"#.utf8))
        #expect(result.status == 0, "\(result)")
        let db = try workspace.database("Seed.sqlite")
        #expect(try db.rows("SELECT ZROUTEID FROM ZROUTE") == [[.text("r1")]])
        #expect(try db.rows("SELECT ZSTOPID, ZROUTE FROM ZSTOP ORDER BY Z_PK") == [
            [.text("s1"), .integer(1)], [.text("s2"), .integer(1)], [.text("s3"), .null],
        ])
        #expect(try db.rows("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'Route'") == [[.integer(2)]])
    }

    /// `--unresolved stub` makes the missing targets as rows Core Data reads: with their entity
    /// number and version.
    @Test func stubRowsHaveTheirEntityAndVersion() throws {
        let workspace = try workspaceWithModel()
        let result = try workspace.sluice(["import", "--db", "Seed.sqlite", "--layout", "coredata", "--model", "Transit.xcdatamodel",
                                           "--unresolved", "stub", "--root", "stops=Stop", "--root", "drivers=Driver", "-"],
                                          stdin: Array(#"{"stops": [{"stopID": "s1", "routeID": "r9"}], "drivers": [{"driverID": "d1", "vehicleID": "v9"}]}"#.utf8))
        #expect(result.status == 0, "\(result)")
        let db = try workspace.database("Seed.sqlite")
        #expect(try db.rows("SELECT Z_PK, Z_ENT, Z_OPT, ZROUTEID FROM ZROUTE") == [[.integer(1), .integer(2), .integer(1), .text("r9")]])
        #expect(try db.rows("SELECT Z_PK, Z_ENT, Z_OPT, ZVEHICLEID FROM ZVEHICLE") == [[.integer(1), .integer(4), .integer(1), .text("v9")]])
        #expect(try db.rows("SELECT ZVEHICLE, Z4_VEHICLE FROM ZDRIVER") == [[.integer(1), .integer(4)]])
        #expect(try db.rows("SELECT Z_NAME, Z_MAX FROM Z_PRIMARYKEY WHERE Z_SUPER = 0 ORDER BY Z_ENT") == [
            [.text("Driver"), .integer(1)], [.text("Route"), .integer(1)], [.text("Stop"), .integer(1)], [.text("Vehicle"), .integer(1)],
        ])
    }

    /// A store written for another version of the model is refused before anything is
    /// written: exit 65, the file unchanged.
    @Test func aStoreOfAnotherModelVersionIsRefusedUntouched() throws {
        let workspace = try workspaceWithModel()
        #expect(try importInput(workspace).status == 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: workspace.file("Seed.sqlite")))
        try workspace.writeCoreDataModel(Self.model.replacingOccurrences(
            of: #"<attribute name="kind" optional="YES" attributeType="String"/>"#,
            with: #"<attribute name="kind" optional="YES" attributeType="Integer 16"/>"#), to: "Transit2.xcdatamodel")
        let result = try workspace.sluice(["import", "--db", "Seed.sqlite", "--layout", "coredata", "--model", "Transit2.xcdatamodel",
                                           "--root", "stops=Stop", "-"], stdin: Array(#"{"stops": []}"#.utf8))
        #expect(result.status == 65, "\(result)")
        #expect(result.stderrLines == [
            "sluice: error: database 'Seed.sqlite' is a Core Data store of another version of the model than 'Transit2.xcdatamodel': "
                + "entity \"Bus\" has another version hash; nothing was written (import into a new file, or give the model version "
                + "the store was written with)",
        ])
        #expect(try Data(contentsOf: URL(fileURLWithPath: workspace.file("Seed.sqlite"))) == before)
    }

    /// A database of another kind (Sluice's own tables here) is not taken for a Core Data store.
    @Test func aDatabaseThatIsNoCoreDataStoreIsRefused() throws {
        let workspace = try workspaceWithModel()
        let sluice = try workspace.sluice(["import", "--db", "Other.sqlite", "--model", "Transit.xcdatamodel", "--root", "stops=Stop", "-"],
                                          stdin: Array(#"{"stops": [{"stopID": "s1"}]}"#.utf8))
        #expect(sluice.status == 0, "\(sluice)")
        let result = try importInput(workspace, db: "Other.sqlite")
        #expect(result.status == 65, "\(result)")
        #expect(result.stderrLines == [
            "sluice: error: database 'Other.sqlite' is not a Core Data store (it has tables but no Z_METADATA); nothing was written: "
                + "import into a new file, or into a Core Data store",
        ])
    }

    /// A transformable attribute with no transformer named keeps its value as Core Data's
    /// default transformer does: the keyed archive (`CoreDataTransformableTests` has the rest).
    @Test func aValueForATransformableAttributeIsItsKeyedArchive() throws {
        let workspace = try workspaceWithModel()
        let result = try importInput(workspace, #"{"stops": [{"stopID": "s1", "tags": ["a", "b"]}, {"stopID": "s2", "tags": "a"}, "#
                                     + #"{"stopID": "s3", "tags": null}]}"#)
        #expect(result.status == 0, "\(result)")
        #expect(try workspace.database("Seed.sqlite").rows("SELECT ZTAGS FROM ZSTOP ORDER BY ZSTOPID") == [
            [.blob(try KeyedArchive.archive(.array([.string("a"), .string("b")])))], [.blob(try KeyedArchive.archive(.string("a")))],
            [.null],
        ])
    }

    /// A real store Core Data wrote (CartKit's) takes an import through its model: the hashes
    /// match, the WAL is checkpointed into the one file, and nothing else changes.
    @Test func aRealStoreTakesAnImportThroughItsModel() throws {
        let workspace = Workspace()
        try CoreDataStoreCommandTests.copyCartKitStore(into: workspace, as: "Cart.sqlite")
        let model = PackageFiles.path(CoreDataStoreCommandTests.cartKitModel)
        let result = try workspace.sluice(["import", "--db", "Cart.sqlite", "--layout", "coredata", "--model", model, "--entity", "CDCart", "-"],
                                          stdin: Array("[]".utf8))
        #expect(result.status == 0, "\(result)")
        #expect(!FileManager.default.fileExists(atPath: workspace.file("Cart.sqlite-wal")))
        let real = try workspace.database("Cart.sqlite")
        #expect(try real.scalar("PRAGMA journal_mode") == .text("delete"))

        // A new store made through the same model records the same hashes and entities.
        let made = try workspace.sluice(["import", "--db", "New.sqlite", "--layout", "coredata", "--model", model, "--entity", "CDCart", "-"],
                                        stdin: Array("[]".utf8))
        #expect(made.status == 0, "\(made)")
        let new = try workspace.database("New.sqlite")
        func hashes(_ db: TestDatabase) throws -> [String: [UInt8]]? {
            guard case .blob(let bytes)? = try db.scalar("SELECT Z_PLIST FROM Z_METADATA"),
                  let members = try BinaryPropertyList.read(bytes)["NSStoreModelVersionHashes"]?.dictionary else { return nil }
            return Dictionary(uniqueKeysWithValues: members.compactMap { member in member.value.data.map { (member.key, $0) } })
        }
        #expect(try hashes(new) != nil)
        #expect(try hashes(new) == hashes(real))
        #expect(try new.rows("SELECT Z_ENT, Z_NAME, Z_SUPER FROM Z_PRIMARYKEY ORDER BY Z_ENT")
            == real.rows("SELECT Z_ENT, Z_NAME, Z_SUPER FROM Z_PRIMARYKEY ORDER BY Z_ENT"))
    }

    @Test func theLayoutNeedsAModelAndAnSQLiteFile() throws {
        let workspace = try workspaceWithModel()
        let noModel = try workspace.sluice(["import", "--db", "x.sqlite", "--layout", "coredata", "-"], stdin: Array("[]".utf8))
        #expect(noModel.status == 64)
        #expect(noModel.stderrLines.first == "sluice: error: --layout coredata needs --model with a Core Data model "
                    + "(.xcdatamodeld, .xcdatamodel or .momd), or --db naming a Core Data store that carries its model: Core "
                    + "Data's store is made from one")
        let gtfs = try workspace.sluice(["import", "--db", "x.sqlite", "--layout", "coredata", "--model", "gtfs", "-"], stdin: Array("[]".utf8))
        #expect(gtfs.status == 64)
        #expect(gtfs.stderrLines.first == noModel.stderrLines.first)
        let json = try workspace.write(#"{"entities": {"Stop": {"attributes": {"stopID": "string"}}}}"#, to: "m.json")
        let jsonModel = try workspace.sluice(["import", "--db", "x.sqlite", "--layout", "coredata", "--model", json, "-"],
                                             stdin: Array("[]".utf8))
        #expect(jsonModel.status == 64, "\(jsonModel)")
        #expect(jsonModel.stderrLines.last?.contains("--layout coredata needs a Core Data model") == true, "\(jsonModel)")
    }

    /// Hooks find a family member's entity by its number in `Z_ENT`: a sub-entity's hook runs
    /// for its records, and what it sets is written.
    @Test func hooksOfASubEntityRunInCoreDatasLayout() throws {
        let workspace = try workspaceWithModel()
        var options = ImportOptions()
        options.layout = .coreData
        options.roots = [Model.RootOverride(parsing: "vehicles=Vehicle")!, Model.RootOverride(parsing: "buses=Bus")!]
        options.hooks["Bus"] = EntityHooks(willImport: { record in record["kind"] = .text("bus (hooked)") })
        let file = try ModelFile.load(path: workspace.file("Transit.xcdatamodel"))
        let importer = try Importer(databasePath: workspace.file("h.sqlite"), modelFile: file, options: options)
        try importer.importBytes(Array(#"{"vehicles": [{"vehicleID": "v1", "kind": "tram"}], "buses": [{"vehicleID": "b1", "kind": "bus"}]}"#.utf8))
        _ = try importer.finish()
        #expect(try workspace.database("h.sqlite").rows("SELECT ZVEHICLEID, Z_ENT, ZKIND FROM ZVEHICLE ORDER BY Z_PK") == [
            [.text("v1"), .integer(4), .text("tram")], [.text("b1"), .integer(5), .text("bus (hooked)")],
        ])
    }

    /// A model Core Data's store cannot hold as Core Data would is refused by the import with
    /// the lines `check --layout coredata` prints; no file is made.
    @Test func anImportRefusesWhatCheckRefuses() throws {
        let workspace = Workspace()
        try workspace.writeCoreDataModel(CoreDataStoreCommandTests.refusedModel, to: "Books.xcdatamodel")
        let check = try workspace.sluice("check", "--layout", "coredata", "--model", "Books.xcdatamodel")
        let result = try workspace.sluice(["import", "--db", "b.sqlite", "--layout", "coredata", "--model", "Books.xcdatamodel",
                                           "--entity", "Book", "-"], stdin: Array("[]".utf8))
        #expect(result.status == 64, "\(result)")
        let errors = result.stderrLines.filter { $0.hasPrefix("sluice: error: ") }
        #expect(errors.count == 3)
        #expect(errors == check.stderrLines.filter { $0.hasPrefix("sluice: error: ") })
        #expect(!FileManager.default.fileExists(atPath: workspace.file("b.sqlite")))
    }

    /// An entity identified by its uniqueness constraint finds its rows through the constraint's
    /// own index: the store holds Core Data's indexes only, and a re-import writes nothing.
    @Test func aUniquenessConstraintIsTheIdentityAndItsIndex() throws {
        let workspace = Workspace()
        try workspace.writeCoreDataModel(entities: """
            <entity name="Visit">
                <attribute name="person" attributeType="String"/>
                <attribute name="day" attributeType="Integer 32"/>
                <attribute name="note" optional="YES" attributeType="String"/>
                <uniquenessConstraints><uniquenessConstraint><constraint value="person"/><constraint value="day"/></uniquenessConstraint></uniquenessConstraints>
            </entity>
            """, to: "Visits.xcdatamodel")
        // The third record is the first's identity: one row, the later values.
        let input = Array(#"[{"person": "a", "day": 1, "note": "x"}, {"person": "a", "day": 2}, {"person": "a", "day": 1, "note": "y"}]"#.utf8)
        func run() throws -> SluiceResult {
            try workspace.sluice(["import", "--db", "v.sqlite", "--layout", "coredata", "--model", "Visits.xcdatamodel", "--entity", "Visit", "-"],
                                 stdin: input)
        }
        #expect(try run().status == 0)
        let again = try run()
        #expect(again.status == 0, "\(again)")
        // The merge of the batch's two records of one identity counts as one update; no row changes.
        #expect(again.stderr.contains("  Visit         0        1          2         0"), "\(again.stderr)")
        let db = try workspace.database("v.sqlite")
        #expect(try db.rows("SELECT ZPERSON, ZDAY, ZNOTE, Z_OPT FROM ZVISIT ORDER BY Z_PK") == [
            [.text("a"), .integer(1), .text("y"), .integer(1)], [.text("a"), .integer(2), .null, .integer(1)],
        ])
        #expect(try db.rows("SELECT sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL") == [
            [.text("CREATE UNIQUE INDEX Z_Visit_UNIQUE_person_day ON ZVISIT (ZPERSON COLLATE BINARY ASC, ZDAY COLLATE BINARY ASC)")],
        ])
    }

    /// A store another connection holds open in WAL mode cannot be left in journal mode DELETE:
    /// the import is committed, and says that the file is not yet one self-contained file.
    @Test func aStoreHeldOpenInWALModeIsCommittedAndSaysSo() throws {
        let workspace = try workspaceWithModel()
        #expect(try importInput(workspace).status == 0)
        let reader = try Connection(path: workspace.file("Seed.sqlite"))
        defer { reader.close() }
        try reader.execute("PRAGMA journal_mode=WAL; BEGIN; SELECT count(*) FROM ZSTOP;")
        let result = try importInput(workspace, #"{"stops": [{"stopID": "s9", "name": "Nord"}]}"#)
        #expect(result.status == 74, "\(result)")
        #expect(result.stderrLines.last == "sluice: error: database 'Seed.sqlite': the import is committed, but the file could "
                    + "not be left in journal mode DELETE (database is locked): its -wal file still holds part of it; close what "
                    + "has it open and import again (an import that changes nothing only checkpoints it)")
        try reader.execute("COMMIT")
        #expect(try reader.rows("SELECT ZSTOPID FROM ZSTOP WHERE ZSTOPID = 's9'") == [[.text("s9")]])
    }

    /// The library: the Core Data layout is made from the model's file.
    @Test func theLibraryTakesTheLayoutWithTheModelsFile() throws {
        let workspace = try workspaceWithModel()
        var options = ImportOptions()
        options.layout = .coreData
        let file = try ModelFile.load(path: workspace.file("Transit.xcdatamodel"))
        let refused = #expect(throws: SluiceError.self) {
            try Importer(databasePath: workspace.file("a.sqlite"), model: file.model, options: options)
        }
        #expect(refused?.kind == .usage)
        #expect(refused?.message == "the Core Data layout is made from the Core Data model's file: "
                    + "use Importer(databasePath:modelFile:options:)")
        options.roots = [Model.RootOverride(parsing: "stops=Stop")!]
        let importer = try Importer(databasePath: workspace.file("a.sqlite"), modelFile: file, options: options)
        try importer.importBytes(Array(#"{"stops": [{"stopID": "s1", "opened": 0}]}"#.utf8))
        _ = try importer.finish()
        #expect(try workspace.database("a.sqlite").rows("SELECT ZSTOPID, ZOPENED FROM ZSTOP") == [[.text("s1"), .integer(-978_307_200)]])
    }
}
