// The Swift examples of docs/library.md and README.md, each compiled here as it is written
// there (`DocExamplesTests` checks that every block of those pages is in this file, line for
// line). What a block needs from the lines before it on its page comes first in its function.
// Sluice is imported as a consumer imports it, not `@testable`: an example that used anything
// but the public API would not compile here.
import Foundation
import Synchronization
import Sluice

enum DocExamples {
    static func fiveLines() throws {
        let file = try ModelFile.load(path: "model.json")       // or build a `Model` in code
        let importer = try Importer(database: .sqlite(path: "transit.sqlite"), modelFile: file)
        try importer.importFile("stops.json")                     // also importStandardInput(), importBytes(_:)
        let report = try importer.finish()                        // commits; cancel() rolls back
        print(report.inserted, report.updated, report.unchanged)
    }

    static func destinations() async throws -> (ImportReport, ImportReport) {
        let file = try ModelFile.load(path: "model.json")
        let imported = try Importer.withImport(.file("transit.sqlite", model: file.model)) { importer in
            try importer.importFile("stops.json")
        }
        let awaited = try await Importer.run(.database(.sqlite(path: "transit.sqlite"), modelFile: file), inputs: ["stops.json"])
        return (imported, awaited)
    }

    static func scoped() throws -> ImportReport {
        let file = try ModelFile.load(path: "model.json")
        let imported = try Importer.withImport(.file("transit.sqlite", model: file.model)) { importer in
            try importer.importFile("stops.json")
            try importer.importFile("trips.json")
        }   // returned: committed, the report; thrown: rolled back
        return imported
    }

    static func modelInCode() -> Model {
        let model = Model(root: .entity("Stop"), entities: [
            Model.Entity(name: "Stop", table: "stops", identity: ["stopID"], attributes: [
                Model.Attribute(name: "stopID", type: .string, keys: [JSONKeyPath(parsing: "stop_id")]),
                Model.Attribute(name: "name", type: .string, keys: [JSONKeyPath(parsing: "stop_name"), JSONKeyPath(parsing: "name")]),
                Model.Attribute(name: "lat", type: .double, keys: [JSONKeyPath(parsing: "location.lat")]),
            ]),
        ])
        return model
    }

    /// Imports `json` zero-config into `database`; the latest progress the example kept.
    static func progress(importing json: String, into database: String) throws -> ImportProgress? {
        let latest = Mutex(ImportProgress?.none)   // import Synchronization
        var options = ImportOptions()
        options.progress = { progress in latest.withLock { $0 = progress } }
        let importer = try Importer(databasePath: database, table: "t", options: options)
        try importer.importBytes(Array(json.utf8), name: "in.json")
        _ = try importer.finish()
        return latest.withLock { $0 }
    }

    /// Imports `json` with `model` into `database`; the pks the example collected.
    static func collectingPKs(importing json: String, model: Model, into database: String) throws -> [Int64] {
        var options = ImportOptions()
        let pks = Mutex<[Int64]>([])   // import Synchronization
        options.hooks["Stop"] = EntityHooks(didImport: { _, pk in pks.withLock { $0.append(pk) } })
        let importer = try Importer(databasePath: database, model: model, options: options)
        try importer.importBytes(Array(json.utf8), name: "in.json")
        _ = try importer.finish()
        return pks.withLock { $0 }
    }

    static func relationshipHooks() -> ImportOptions {
        var options = ImportOptions()
        // "employer": {"code": "ACME", ...} or "employer": "ACME" or "employer": "none"
        options.hooks["Person"] = EntityHooks(relationships: [
            "employer": { raw in
                switch raw {
                case .object: return .ids([raw["code"] ?? .null])
                case .string("none"): return .clear
                case .string: return .ids([raw])
                default: return .unchanged
                }
            },
            // "tags": "1,4,9": one string of ids
            "tags": { raw in
                guard case .string(let text) = raw else { return .unchanged }
                return .ids(text.split(separator: ",").map { .number(String($0)) })
            },
        ])
        return options
    }

    static func hooks() -> ImportOptions {
        var options = ImportOptions()
        options.hooks["Stop"] = EntityHooks(
            shouldImport: { record in record["status"] != .text("deleted") },
            didImport: { record, pk in print("Stop \(record["remoteID"]!) is row \(pk)") },
            attributes: ["remoteID": { raw in
                switch raw {
                case .number(let text), .string(let text): return .text(text)   // 00123, 1.50: as written
                default: return .null
                }
            }])
        return options
    }

    static func async(model: Model) async throws -> ImportReport {
        let report = try await Importer.run(.file("transit.sqlite", model: model), inputs: ["stops.json"])
        // zero-config: Importer.run(.file("dump.sqlite", table: "items"), inputs: ["items.ndjson"])
        return report
    }

    static func chunks(model: Model) async throws -> ImportReport {
        let (chunks, feed) = AsyncStream<[UInt8]>.makeStream()   // feed.yield(bytes) as they arrive, then feed.finish()
        let imported = try await Importer.run(.file("transit.sqlite", model: model), chunks: chunks, name: "stops.json")
        _ = feed
        return imported
    }

    static func progressSequence(model: Model) async throws -> ImportReport {
        let run = Importer.start(.file("transit.sqlite", model: model), inputs: ["stops.json"])
        for await progress in run.progress { print(progress.records, progress.stageDescription) }
        let report = try await run.report
        return report
    }

    static func databaseValue() async throws -> ImportReport {
        let store = try Importer.Database.coreDataStore(URL(fileURLWithPath: "Seed.sqlite"))
        let file = try ModelFile.load(path: "Transit.xcdatamodeld")
        var options = ImportOptions()
        options.roots = [Model.RootOverride(key: "stops", entity: "Stop")]
        let report = try await Importer.run(.database(store, modelFile: file), options: options,
                                            inputs: [URL(fileURLWithPath: "stops.json")])
        return report
    }

    static func oneEntityPerInput(model: Model) throws -> ImportReport {
        let report = try Importer.withImport(.file("transit.sqlite", model: model)) { importer in
            try importer.importFile("stops.json")                              // the model's root: Stop
            try importer.importFile("trips.json", entity: "Trip", path: "data.trips")
        }
        return report
    }

    static func unchangedInputs() throws {
        let importer = try Importer(databasePath: "transit.sqlite", modelFile: ModelFile.load(path: "gtfs"))
        if let last = try importer.skipIfUnchanged(files: ["feed.zip"]) {
            print("unchanged since import \(last.number)")
        } else {
            try importer.importFile("feed.zip")
            _ = try importer.finish()
        }
    }
}
