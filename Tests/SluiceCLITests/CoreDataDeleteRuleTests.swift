import Foundation
import SluiceTestSupport
import Testing
@testable import Sluice

/// `--delete-missing` into a Core Data store follows each relationship's `deletionRule`
/// (`docs/import-semantics.md`, deleting): Cascade deletes the rows it reaches, across
/// entities; Deny refuses the import while a row that stays is linked; Nullify empties the
/// other side; No Action leaves it naming the deleted key. Through the binary, input on stdin.
@Suite struct CoreDataDeleteRuleTests {
    static let model = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
            <entity name="Agency" representedClassName="Agency">
                <attribute name="agencyID" attributeType="String"/>
                <relationship name="routes" optional="YES" toMany="YES" deletionRule="Deny" destinationEntity="Route" inverseName="agency" inverseEntity="Route"/>
            </entity>
            <entity name="Route" representedClassName="Route">
                <attribute name="routeID" attributeType="String"/>
                <relationship name="agency" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Agency" inverseName="routes" inverseEntity="Agency">
                    <userInfo><entry key="relatedByAttribute" value="agencyID"/><entry key="mappedKeyName" value="agencyID"/></userInfo>
                </relationship>
                <relationship name="trips" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Trip" inverseName="route" inverseEntity="Trip"/>
            </entity>
            <entity name="Trip" representedClassName="Trip">
                <attribute name="tripID" attributeType="String"/>
                <relationship name="route" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Route" inverseName="trips" inverseEntity="Route">
                    <userInfo><entry key="relatedByAttribute" value="routeID"/><entry key="mappedKeyName" value="routeID"/></userInfo>
                </relationship>
                <relationship name="stopTimes" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="StopTime" inverseName="trip" inverseEntity="StopTime"/>
                <relationship name="notes" optional="YES" toMany="YES" deletionRule="No Action" destinationEntity="Note" inverseName="trip" inverseEntity="Note"/>
            </entity>
            <entity name="StopTime" representedClassName="StopTime">
                <attribute name="stopTimeID" attributeType="String"/>
                <relationship name="trip" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Trip" inverseName="stopTimes" inverseEntity="Trip">
                    <userInfo><entry key="relatedByAttribute" value="tripID"/><entry key="mappedKeyName" value="tripID"/></userInfo>
                </relationship>
                <relationship name="stop" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Stop" inverseName="stopTimes" inverseEntity="Stop">
                    <userInfo><entry key="relatedByAttribute" value="stopID"/><entry key="mappedKeyName" value="stopID"/></userInfo>
                </relationship>
            </entity>
            <entity name="Stop" representedClassName="Stop">
                <attribute name="stopID" attributeType="String"/>
                <relationship name="stopTimes" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="StopTime" inverseName="stop" inverseEntity="StopTime"/>
            </entity>
            <entity name="Note" representedClassName="Note">
                <attribute name="noteID" attributeType="String"/>
                <relationship name="trip" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Trip" inverseName="notes" inverseEntity="Trip">
                    <userInfo><entry key="relatedByAttribute" value="tripID"/><entry key="mappedKeyName" value="tripID"/></userInfo>
                </relationship>
            </entity>
        </model>
        """

    static let setup = """
        {"agencies": [{"agencyID": "a1"}, {"agencyID": "a2"}],
         "routes": [{"routeID": "r1", "agencyID": "a1"}, {"routeID": "r2", "agencyID": "a2"}],
         "trips": [{"tripID": "t1", "routeID": "r1"}, {"tripID": "t2", "routeID": "r2"}],
         "stops": [{"stopID": "s1"}],
         "stopTimes": [{"stopTimeID": "st1", "tripID": "t1", "stopID": "s1"}, {"stopTimeID": "st2", "tripID": "t1", "stopID": "s1"},
                       {"stopTimeID": "st3", "tripID": "t2", "stopID": "s1"}],
         "notes": [{"noteID": "n1", "tripID": "t1"}, {"noteID": "n2", "tripID": "t2"}]}
        """

    static let roots = ["agencies=Agency", "routes=Route", "trips=Trip", "stops=Stop", "stopTimes=StopTime", "notes=Note"]

    private func store() throws -> Workspace {
        let workspace = Workspace()
        try workspace.writeCoreDataModel(Self.model, to: "Transit.xcdatamodel")
        let result = try importInto(workspace, Self.setup, roots: Self.roots, layout: ["--layout", "coredata"])
        try #require(result.status == 0, "\(result)")
        return workspace
    }

    private func importInto(_ workspace: Workspace, _ input: String, roots: [String], layout: [String],
                            db: String = "Seed.sqlite", deleteMissing: Bool = false) throws -> SluiceResult {
        try workspace.sluice(["import", "--db", db, "--model", "Transit.xcdatamodel"] + layout
                                + roots.flatMap { ["--root", $0] } + (deleteMissing ? ["--delete-missing"] : []) + ["-"],
                             stdin: Array(input.utf8))
    }

    /// Every row of the store's entity tables as (table, id, Z_OPT, links…), to compare whole.
    private func rows(_ db: TestDatabase) throws -> [[ColumnValue]] {
        try db.rows("SELECT 'A', ZAGENCYID, Z_OPT, NULL, NULL FROM ZAGENCY ORDER BY Z_PK")
            + db.rows("SELECT 'R', ZROUTEID, Z_OPT, ZAGENCY, NULL FROM ZROUTE ORDER BY Z_PK")
            + db.rows("SELECT 'T', ZTRIPID, Z_OPT, ZROUTE, NULL FROM ZTRIP ORDER BY Z_PK")
            + db.rows("SELECT 'S', ZSTOPID, Z_OPT, NULL, NULL FROM ZSTOP ORDER BY Z_PK")
            + db.rows("SELECT 'ST', ZSTOPTIMEID, Z_OPT, ZTRIP, ZSTOP FROM ZSTOPTIME ORDER BY Z_PK")
            + db.rows("SELECT 'N', ZNOTEID, Z_OPT, ZTRIP, NULL FROM ZNOTE ORDER BY Z_PK")
    }

    private static func row(_ kind: String, _ id: String, _ opt: Int64, _ first: Int64?, _ second: Int64? = nil) -> [ColumnValue] {
        [.text(kind), .text(id), .integer(opt), first.map(ColumnValue.integer) ?? .null, second.map(ColumnValue.integer) ?? .null]
    }

    /// Route r1 is not mentioned: its trip goes by Route.trips (Cascade), the trip's stop times
    /// by Trip.stopTimes (Cascade); the trip's note keeps naming it (Trip.notes, No Action);
    /// the agency and the stop, whose to-manys lost rows, are raised a version.
    @Test func cascadeGoesAcrossEntitiesAndNoActionLeavesTheOtherSide() throws {
        let workspace = try store()
        let result = try importInto(workspace, #"{"routes": [{"routeID": "r2", "agencyID": "a2"}]}"#, roots: ["routes=Route"],
                                    layout: ["--layout", "coredata"], deleteMissing: true)
        #expect(result.status == 0, "\(result)")
        let db = try workspace.database("Seed.sqlite")
        #expect(try rows(db) == [
            Self.row("A", "a1", 2, nil), Self.row("A", "a2", 1, nil),
            Self.row("R", "r2", 1, 2),
            Self.row("T", "t2", 1, 2),
            Self.row("S", "s1", 2, nil),
            Self.row("ST", "st3", 1, 2, 1),
            Self.row("N", "n1", 1, 1), Self.row("N", "n2", 1, 2),
        ])
        #expect(result.entityLines.contains { $0.hasPrefix("Route: ") && $0.contains("deleted 1") }, "\(result)")
        #expect(result.entityLines.contains { $0.hasPrefix("Trip: ") && $0.contains("deleted 1") }, "\(result)")
        #expect(result.entityLines.contains { $0.hasPrefix("StopTime: ") && $0.contains("deleted 2") }, "\(result)")
    }

    /// Agency a1 is not mentioned but still has route r1, which stays: Agency.routes (Deny)
    /// refuses the whole import, exit 65, one line naming the relationship and the rows, and
    /// the store's file is unchanged.
    @Test func denyRefusesTheImportAndWritesNothing() throws {
        let workspace = try store()
        let before = try Data(contentsOf: URL(fileURLWithPath: workspace.file("Seed.sqlite")))
        let result = try importInto(workspace, #"{"agencies": [{"agencyID": "a2"}, {"agencyID": "a3"}]}"#, roots: ["agencies=Agency"],
                                    layout: ["--layout", "coredata"], deleteMissing: true)
        #expect(result.status == 65, "\(result)")
        #expect(result.stderrLines.last == "sluice: error: --delete-missing: Agency.routes has the deletion rule Deny, and the Agency row "
            + "ZAGENCY.Z_PK = 1, which this import does not mention, still links ZROUTE.Z_PK = 1, which stays; nothing was written",
            "\(result)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: workspace.file("Seed.sqlite"))) == before)
    }

    /// The route a1 denies deleting goes in the same import (with its trip and stop times, by
    /// Cascade): nothing that stays is linked, so the agency goes too.
    @Test func denyAllowsWhatGoesWithTheRow() throws {
        let workspace = try store()
        let result = try importInto(workspace, #"{"agencies": [{"agencyID": "a2"}], "routes": [{"routeID": "r2", "agencyID": "a2"}]}"#,
                                    roots: ["agencies=Agency", "routes=Route"], layout: ["--layout", "coredata"], deleteMissing: true)
        #expect(result.status == 0, "\(result)")
        let db = try workspace.database("Seed.sqlite")
        #expect(try rows(db) == [
            Self.row("A", "a2", 1, nil),
            Self.row("R", "r2", 1, 2),
            Self.row("T", "t2", 1, 2),
            Self.row("S", "s1", 2, nil),
            Self.row("ST", "st3", 1, 2, 1),
            Self.row("N", "n1", 1, 1), Self.row("N", "n2", 1, 2),
        ])
    }

    /// Nullify: stop s1 is not mentioned; its stop times stay, their link emptied and their
    /// version raised.
    @Test func nullifyEmptiesTheOtherSide() throws {
        let workspace = try store()
        let result = try importInto(workspace, #"{"stops": [{"stopID": "s2"}]}"#, roots: ["stops=Stop"],
                                    layout: ["--layout", "coredata"], deleteMissing: true)
        #expect(result.status == 0, "\(result)")
        let db = try workspace.database("Seed.sqlite")
        #expect(try db.rows("SELECT ZSTOPID FROM ZSTOP ORDER BY Z_PK") == [[.text("s2")]])
        #expect(try db.rows("SELECT ZSTOPTIMEID, Z_OPT, ZTRIP, ZSTOP FROM ZSTOPTIME ORDER BY Z_PK") == [
            [.text("st1"), .integer(2), .integer(1), .null],
            [.text("st2"), .integer(2), .integer(1), .null],
            [.text("st3"), .integer(2), .integer(2), .null],
        ])
    }

    /// The rules come from the model, whatever the layout and store: in Sluice's own layout,
    /// on SQLite and PostgreSQL, the same Core Data model cascades, leaves No Action's side,
    /// and denies alike (the statements are shared, `TouchedRows+DeleteRules.swift`).
    @Test(arguments: StoreKind.allCases)
    func sluicesLayoutFollowsACoreDataModelsRules(_ store: StoreKind) throws {
        let workspace = Workspace()
        try workspace.writeCoreDataModel(Self.model, to: "Transit.xcdatamodel")
        let db = try store.makeDatabase(in: workspace)
        func run(_ input: String, roots: [String], deleteMissing: Bool = true) throws -> SluiceResult {
            try workspace.sluice(["import", "--db", db.target, "--model", "Transit.xcdatamodel"] + roots.flatMap { ["--root", $0] }
                                    + (deleteMissing ? ["--delete-missing"] : []) + ["-"], stdin: Array(input.utf8))
        }
        let setup = try run(Self.setup, roots: Self.roots, deleteMissing: false)
        try #require(setup.status == 0, "\(setup)")
        let cascade = try run(#"{"routes": [{"routeID": "r2", "agencyID": "a2"}]}"#, roots: ["routes=Route"])
        #expect(cascade.status == 0, "\(cascade)")
        #expect(try db.rows(#"SELECT "tripID" FROM "Trip" ORDER BY "pk""#) == ["t2"])
        #expect(try db.rows(#"SELECT "stopTimeID" FROM "StopTime" ORDER BY "pk""#) == ["st3"])
        #expect(try db.rows(#"SELECT "noteID", "trip_pk" FROM "Note" ORDER BY "pk""#) == ["n1|1", "n2|2"])
        let deny = try run(#"{"agencies": [{"agencyID": "a1"}]}"#, roots: ["agencies=Agency"])
        #expect(deny.status == 65, "\(deny)")
        #expect(deny.stderrLines.last == "sluice: error: --delete-missing: Agency.routes has the deletion rule Deny, and the Agency row "
            + "Agency.pk = 2, which this import does not mention, still links Route.pk = 2, which stays; nothing was written", "\(deny)")
        #expect(try db.rows(#"SELECT "agencyID" FROM "Agency" ORDER BY "pk""#) == ["a1", "a2"])
    }
}
