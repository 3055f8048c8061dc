import Foundation
import Testing
@testable import Sluice

/// `sluice infer` on the real GTFS feeds (converted to one JSON object holding record
/// arrays): an entity per GTFS table, the ids as identities, the references between them as
/// relationships; the model imports the feed with every reference linked, and again with
/// nothing changed.
@Suite
struct InferGTFSTests {
    @Test(arguments: ["cairns_gtfs.zip", "nyc_subway_gtfs.zip"])
    func inferredModelOfARealFeed(_ feed: String) throws {
        let workspace = Workspace()
        try GTFSFixture.convert(feed, into: workspace)
        let inferred = try workspace.sluice("infer", "feed.json")
        try #require(inferred.status == 0, "\(inferred)")
        #expect(inferred.stderrLines == [
            "sluice: note: StopTime: identity (trip_id, stop_sequence): it has no id of its own, but every sampled record holds both and no pair repeats",
        ])
        let model = try Model.parse(Array(inferred.stdout.utf8), sourceName: "inferred")
        guard case .paths(let paths)? = model.root else { Issue.record("root: \(inferred.stdout)"); return }
        #expect(paths.map { "\($0.path)=\($0.entity)" } == ["stop_times=StopTime", "trips=Trip", "routes=Route", "stops=Stop"])
        #expect(model.entities.map { "\($0.name) \($0.table) \($0.identity)" } == [
            #"StopTime stop_times ["trip_id", "stop_sequence"]"#, #"Trip trips ["trip_id"]"#,
            #"Route routes ["route_id"]"#, #"Stop stops ["stop_id"]"#,
        ])
        #expect(model.entities.map { $0.relationships.map { "\($0.name)->\($0.entity) by \($0.keys[0])" } } == [
            ["trip->Trip by trip_id", "stop->Stop by stop_id"], ["route->Route by route_id"], [], [],
        ])
        #expect(model.type("StopTime", "arrival_time") == .string)  // times past 24:00 are no dates
        #expect(model.type("StopTime", "stop_sequence") == .integer)
        #expect(model.type("Stop", "stop_lat") == .double)
        #expect(model.type("Route", "route_type") == .integer)

        try workspace.write(inferred.stdout, to: "model.json")
        let check = try workspace.sluice("check", "--model", "model.json")
        #expect(check.status == 0, "\(check)")
    }

    /// The smaller feed is imported with the inferred model, twice.
    @Test func inferredModelImportsTheFeedAndReimportsNothing() throws {
        let workspace = Workspace()
        try GTFSFixture.convert("cairns_gtfs.zip", into: workspace)
        let inferred = try workspace.sluice("infer", "feed.json")
        try #require(inferred.status == 0, "\(inferred)")
        try workspace.write(inferred.stdout, to: "model.json")
        let input = try #require(workspace.bytes(of: "feed.json"))

        let first = try workspace.sluice("import", "--db", "gtfs.sqlite", "--model", "model.json", stdin: input)
        try #require(first.status == 0, "\(first)")
        #expect(first.entityLines.first == "StopTime: inserted 37,790, updated 0, unchanged 0, rejected 0, links 75,580, unresolved 0", "\(first)")
        let db = try workspace.database("gtfs.sqlite")
        #expect(try db.scalar(#"SELECT count(*) FROM stop_times WHERE trip_pk IS NULL OR stop_pk IS NULL"#) == .integer(0))
        #expect(try db.scalar(#"SELECT count(*) FROM trips WHERE route_pk IS NULL"#) == .integer(0))
        let tables = ["stop_times", "trips", "routes", "stops"]
        let before = try tables.map { try db.dump($0) }

        let second = try workspace.sluice("import", "--db", "gtfs.sqlite", "--model", "model.json", stdin: input)
        try #require(second.status == 0, "\(second)")
        #expect(second.entityLines.count == 5, "four entities and the totals: \(second)")
        #expect(second.entityLines.allSatisfy { $0.contains(": inserted 0, updated 0, unchanged ") && ($0.hasSuffix(", rejected 0, links 0, unresolved 0") || $0.hasSuffix(", rejected 0, links -, unresolved -")) }, "\(second)")
        #expect(try tables.map { try workspace.database("gtfs.sqlite").dump($0) } == before)
    }
}

extension Model {
    fileprivate func type(_ entity: String, _ attribute: String) -> AttributeType? {
        self.entity(named: entity)?.attribute(named: attribute)?.type
    }
}
