import Foundation
import Testing
@testable import Sluice

/// `infer` finds record arrays however deep an envelope holds them (GBFS's `data.stations`,
/// `response.items`) and leaves the envelope's metadata out. Through the binary.
@Suite struct DeepEnvelopeTests {
    static let gbfs = """
        {"last_updated": 1700000000, "ttl": 60, "version": "2.3",
         "data": {"stations": [
           {"station_id": "s1", "name": "Main St", "lat": 40.1, "lon": -73.9, "capacity": 20},
           {"station_id": "s2", "name": "Oak Ave", "lat": 40.2, "lon": -73.8, "capacity": 15}
         ]}}
        """

    @Test func gbfsStationsAreFoundUnderData() throws {
        let workspace = Workspace()
        try workspace.write(Self.gbfs, to: "station_information.json")
        let infer = try workspace.sluice("infer", "station_information.json")
        #expect(infer.status == 0, "\(infer)")
        #expect(infer.stdout.contains(#""data.stations": "Station""#), "\(infer.stdout)")
        #expect(infer.stderrLines.contains(#"sluice: note: the input is one object holding record arrays; its other keys are left out: "last_updated", "ttl", "version""#))
        try workspace.write(infer.stdout, to: "model.json")
        for _ in 0..<2 {
            let result = try workspace.sluice("import", "--db", "out.sqlite", "--model", "model.json", "station_information.json")
            #expect(result.status == 0, "\(result)")
        }
        let database = try workspace.database("out.sqlite")
        #expect(try database.rows("SELECT station_id, capacity FROM stations ORDER BY pk") == [[.text("s1"), .integer(20)], [.text("s2"), .integer(15)]])
        #expect(try database.tables().filter { $0 != "sluice_imports" } == ["stations"])
    }

    @Test func itemsUnderAResponseAndMetadataBesideThem() throws {
        let workspace = Workspace()
        try workspace.write(#"""
            {"status": "ok", "response": {"count": 2, "page": {"next": null},
                                          "items": [{"id": 1, "title": "a"}, {"id": 2, "title": "b"}]}}
            """#, to: "api.json")
        let infer = try workspace.sluice("infer", "api.json")
        #expect(infer.status == 0, "\(infer)")
        #expect(infer.stdout.contains(#""response.items": "Item""#), "\(infer.stdout)")
        #expect(infer.stderrLines.contains(#"sluice: note: the input is one object holding record arrays; its other keys are left out: "status", "response.count", "response.page""#))
        try workspace.write(infer.stdout, to: "model.json")
        let first = try workspace.sluice("import", "--db", "out.sqlite", "--model", "model.json", "--quiet", "api.json")
        #expect(first.status == 0, "\(first)")
        let again = try workspace.sluice("import", "--db", "out.sqlite", "--model", "model.json", "api.json")
        #expect(again.entityLines == ["Item: inserted 0, updated 0, unchanged 2, rejected 0"], "\(again)")
    }
}
