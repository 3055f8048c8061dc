import Foundation
import SluiceTestSupport
import Testing
@testable import Sluice

/// A small corpus of real JSON shapes (`Tests/Fixtures/shapes/`): a GBFS feed, a GeoJSON
/// FeatureCollection, a Firebase export, a pandas split table, NDJSON with a header, contacts
/// with nested phones and emails and trips with nested stop times (no ids of their own). Each
/// goes through `infer` → `import` → `import` again, which must write nothing.
@Suite struct RealShapesTests {
    struct Shape: Sendable, CustomTestStringConvertible {
        var file: String
        /// What `infer` must propose in `root`.
        var root: String
        /// Each entity and its rows after the import.
        var rows: [String: Int]
        var testDescription: String { file }
    }

    static let shapes = [
        Shape(file: "station_information.json", root: #""data.stations": "Station""#, rows: ["stations": 3]),
        Shape(file: "parks.geojson", root: #""features": "Feature""#, rows: ["features": 3]),
        Shape(file: "chat-export.json", root: #""map": "id""#, rows: ["users": 3, "messages": 3]),
        Shape(file: "prices.json", root: #""header": "columns""#, rows: ["prices": 4]),
        Shape(file: "products.ndjson", root: #""header": "first""#, rows: ["products": 3]),
        Shape(file: "contacts.ndjson", root: #""identity": ["contact", "position"]"#, rows: ["contacts": 3, "phones": 3, "emails": 3]),
        Shape(file: "trips.json", root: #""identity": ["trip", "stop_sequence"]"#, rows: ["trips": 2, "stop_times": 5]),
    ]

    @Test(arguments: shapes)
    func inferImportReimportWritesNothing(_ shape: Shape) throws {
        let workspace = Workspace()
        let input = PackageFiles.path("Tests/Fixtures/shapes/\(shape.file)")
        let infer = try workspace.sluice("infer", input)
        #expect(infer.status == 0, "\(infer)")
        #expect(infer.stdout.contains(shape.root), "\(infer.stdout)")
        try workspace.write(infer.stdout, to: "model.json")
        #expect(try workspace.sluice("check", "--model", "model.json").status == 0)

        let first = try workspace.sluice("import", "--db", "out.sqlite", "--model", "model.json", "--quiet", input)
        #expect(first.status == 0, "\(first)")
        let database = try workspace.database("out.sqlite")
        for (table, count) in shape.rows {
            #expect(try database.count(table) == Int64(count), "\(table)")
        }
        let again = try workspace.sluice("import", "--db", "out.sqlite", "--model", "model.json", "--stats", "again.json", input)
        #expect(again.status == 0, "\(again)")
        let stats = try #require(try JSONSerialization.jsonObject(with: Data(workspace.bytes(of: "again.json") ?? [])) as? [String: Any])
        let totals = try #require(stats["totals"] as? [String: Any])
        #expect(totals["inserted"] as? Int == 0 && totals["updated"] as? Int == 0 && totals["links"] as? Int == 0,
                "\(again.stderr)")
        #expect(totals["unchanged"] as? Int == shape.rows.values.reduce(0, +))
    }
}
