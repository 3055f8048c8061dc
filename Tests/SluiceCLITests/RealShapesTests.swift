import Foundation
import SluiceTestSupport
import Testing
@testable import Sluice

/// A small corpus of real JSON shapes (`Tests/Fixtures/shapes/`): a GBFS feed, a GeoJSON
/// FeatureCollection, a Firebase export, a pandas split table, NDJSON with a header, contacts
/// with nested phones and emails, trips with nested stop times (no ids of their own), a
/// tracker module's patterns of rows and a Jenkins server's API dump (generated look-alikes, no
/// ids anywhere, an entity with no attributes). Each goes through `infer` → `import` → `import`
/// again, which must write nothing in any entity that has an identity.
@Suite struct RealShapesTests {
    struct Shape: Sendable, CustomTestStringConvertible {
        var file: String
        /// What `infer` must propose in `root`.
        var root: String
        /// Each entity and its rows after the import.
        var rows: [String: Int]
        /// The entities `infer` leaves without identity (append-only): a re-import adds their
        /// rows again. Every other entity must have one.
        var appendOnly: Set<String> = []
        /// What `infer` must not propose.
        var absent: String?
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
        // Patterns have no id, and their place in the envelope is none: their rows, and so
        // their data identified through them, are new on every import.
        Shape(file: "tracker.json", root: #""patterns": "Pattern""#, rows: ["patterns": 4, "data": 14],
              appendOnly: ["Pattern", "Data"], absent: #""identity""#),
        Shape(file: "jenkins.json", root: #""assignedLabels": "AssignedLabel""#,
              rows: ["assignedLabels": 1, "jobs": 3, "views": 2], appendOnly: ["AssignedLabel", "Job", "View"]),
    ]

    @Test(arguments: shapes)
    func inferImportReimportWritesNothing(_ shape: Shape) throws {
        let workspace = Workspace()
        let input = PackageFiles.path("Tests/Fixtures/shapes/\(shape.file)")
        let infer = try workspace.sluice("infer", input)
        #expect(infer.status == 0, "\(infer)")
        #expect(infer.stdout.contains(shape.root), "\(infer.stdout)")
        if let absent = shape.absent { #expect(!infer.stdout.contains(absent), "\(infer.stdout)") }
        try workspace.write(infer.stdout, to: "model.json")
        let model = try Model.parse(Array(infer.stdout.utf8), sourceName: "model.json")
        for entity in model.entities {
            #expect(entity.identity.isEmpty == shape.appendOnly.contains(entity.name), "\(entity.name): \(infer.stderr)")
        }
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
        let entities = try #require(stats["entities"] as? [[String: Any]])
        var unchanged = 0
        for counts in entities {
            let name = counts["entity"] as? String ?? "?"
            guard !shape.appendOnly.contains(name) else { continue }
            #expect(counts["inserted"] as? Int == 0 && counts["updated"] as? Int == 0 && counts["links"] as? Int == 0,
                    "\(name): \(again.stderr)")
            unchanged += counts["unchanged"] as? Int ?? 0
        }
        let identified = model.entities.filter { !shape.appendOnly.contains($0.name) }.map(\.table)
        #expect(unchanged == identified.map { shape.rows[$0] ?? 0 }.reduce(0, +))
    }
}
