import Foundation
import SluiceTestSupport
import Testing
@testable import Sluice

/// An ordered to-many linked from its to-one side (each stop time names its trip) gets order
/// keys (`Z_FOK_TRIP`, `CoreDataOrderKeys`): per trip, from 0 and one apart, in input order,
/// after the trip's keys already there; a re-import writes nothing.
@Suite struct CoreDataOrderKeyTests {
    static let model = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
            <entity name="Trip" representedClassName="Trip">
                <attribute name="tripID" attributeType="String"/>
                <relationship name="stopTimes" optional="YES" toMany="YES" ordered="YES" deletionRule="Cascade" destinationEntity="StopTime" inverseName="trip" inverseEntity="StopTime">
                    <userInfo><entry key="relatedByAttribute" value="stopTimeID"/></userInfo>
                </relationship>
            </entity>
            <entity name="StopTime" representedClassName="StopTime">
                <attribute name="stopTimeID" attributeType="String"/>
                <relationship name="trip" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Trip" inverseName="stopTimes" inverseEntity="Trip">
                    <userInfo><entry key="relatedByAttribute" value="tripID"/><entry key="mappedKeyName" value="tripID"/></userInfo>
                </relationship>
            </entity>
        </model>
        """

    private func run(_ workspace: Workspace, _ input: String) throws -> SluiceResult {
        try workspace.sluice(["import", "--db", "Seed.sqlite", "--layout", "coredata", "--model", "Transit.xcdatamodel",
                              "--root", "stopTimes=StopTime", "--root", "trips=Trip", "--root", "more=StopTime",
                              "--batch-size", "1", "-"],
                             stdin: Array(input.utf8))
    }

    /// "id Z_OPT trip key" per stop time, then "id Z_OPT" per trip, by key.
    private func rows(_ workspace: Workspace) throws -> [String] {
        let db = try workspace.database("Seed.sqlite")
        return try (db.rows("""
            SELECT s.ZSTOPTIMEID || ' ' || s.Z_OPT || ' ' || ifnull(t.ZTRIPID, '-') || ' ' || ifnull(s.Z_FOK_TRIP, '-')
            FROM ZSTOPTIME s LEFT JOIN ZTRIP t ON t.Z_PK = s.ZTRIP ORDER BY s.Z_PK
            """) + db.rows("SELECT ZTRIPID || ' ' || Z_OPT FROM ZTRIP ORDER BY Z_PK")).map { $0[0].text ?? "?" }
    }

    @Test func keysFollowTheInputPerOwnerAfterTheKeysThere() throws {
        let workspace = Workspace()
        try workspace.writeCoreDataModel(Self.model, to: "Transit.xcdatamodel")
        // st1–st3 name trips not written yet (the second pass links them), st4 one written.
        let first = try run(workspace, """
            {"stopTimes": [{"stopTimeID": "st1", "tripID": "t1"}, {"stopTimeID": "st2", "tripID": "t2"},
                           {"stopTimeID": "st3", "tripID": "t1"}],
             "trips": [{"tripID": "t1"}, {"tripID": "t2"}],
             "more": [{"stopTimeID": "st4", "tripID": "t1"}]}
            """)
        #expect(first.status == 0, "\(first)")
        #expect(try rows(workspace) == ["st1 1 t1 0", "st2 1 t2 0", "st3 1 t1 1", "st4 1 t1 2", "t1 1", "t2 1"])

        // Into the store: a new stop time and st2, moved to t1, follow t1's keys; t3 starts at 0.
        let second = """
            {"trips": [{"tripID": "t3"}],
             "stopTimes": [{"stopTimeID": "st5", "tripID": "t1"}, {"stopTimeID": "st2", "tripID": "t1"}, {"stopTimeID": "st6", "tripID": "t3"}]}
            """
        #expect(try run(workspace, second).status == 0)
        let after = ["st1 1 t1 0", "st2 2 t1 4", "st3 1 t1 1", "st4 1 t1 2", "st5 1 t1 3", "st6 1 t3 0", "t1 2", "t2 2", "t3 1"]
        #expect(try rows(workspace) == after)
        // Again: nothing changes.
        #expect(try run(workspace, second).status == 0)
        #expect(try rows(workspace) == after)
    }

    /// From the to-many side, a stop time that moves to another trip at the key it had keeps
    /// the place its list gives, before the next one (the to-one side's trigger, which empties
    /// the key of a row whose link changes and whose key does not, does not take it for its own).
    @Test func theToManySideKeepsItsPlaces() throws {
        let workspace = Workspace()
        try workspace.writeCoreDataModel(Self.model, to: "Transit.xcdatamodel")
        #expect(try run(workspace, #"{"trips": [{"tripID": "t1"}], "more": [{"stopTimeID": "st1", "tripID": "t1"}, {"stopTimeID": "st7"}]}"#)
            .status == 0)
        #expect(try rows(workspace) == ["st1 1 t1 0", "st7 1 - -", "t1 1"])
        #expect(try run(workspace, #"{"trips": [{"tripID": "t2", "stopTimes": ["st1", "st7"]}]}"#).status == 0)
        #expect(try rows(workspace) == ["st1 2 t2 0", "st7 2 t2 1", "t1 2", "t2 1"])
    }
}
