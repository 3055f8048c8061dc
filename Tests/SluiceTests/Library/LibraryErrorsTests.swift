import Foundation
import SluiceTestSupport
import Testing
@testable import Sluice

/// Errors as an app meets them: in the library's words, of a kind that says what failed, with
/// the exit status a host's own command would use; the CLI's words where the CLI asks.
@Suite struct LibraryErrorsTests {
    static let model = #"{"entities": {"Stop": {"identity": "id", "attributes": {"id": "string"}}, "Trip": {"attributes": {"n": "integer"}}}}"#

    static func failure(_ options: ImportOptions, model: Bool = true) -> SluiceError? {
        let directory = TemporaryDirectory()
        let parsed = try! Model.parse(Array(Self.model.utf8), sourceName: "model.json")
        do throws(SluiceError) {
            if model {
                _ = try Importer(databasePath: directory.file("x.sqlite"), model: parsed, options: options)
            } else {
                _ = try Importer(databasePath: directory.file("x.sqlite"), table: "t", options: options)
            }
            return nil
        } catch {
            return error
        }
    }

    /// Each option that is refused, named as the app's code names it and as the command's user
    /// types it.
    @Test(arguments: [
        ("entity Stp", true, #"ImportOptions.entity: unknown entity "Stp"; the model has: Stop, Trip; did you mean "Stop"?"#,
         #"--entity: unknown entity "Stp"; the model has: Stop, Trip; did you mean "Stop"?"#),
        ("path only", true, "ImportOptions.path: needs ImportOptions.entity to say which entity the records are",
         "--path: needs --entity to say which entity the records are"),
        ("no root", true, "root: the model has no root and 2 entities: say which entity the records are with "
            + "ImportOptions.entity, or each key's (or file's) with ImportOptions.roots",
         "root: the model has no root and 2 entities: say which entity the records are with --entity, "
            + "or each key's (or file's) with --root KEY=ENTITY"),
        ("batch 0", true, "ImportOptions.batchSize must be at least 1", "--batch-size must be at least 1"),
        ("header+mapKey", true, "ImportOptions.header and ImportOptions.mapKey cannot be used together: a location is a map or a table, not both",
         "--header and --map-key cannot be used together: a location is a map or a table, not both"),
        ("entity, no model", false, "ImportOptions.entity needs a model: without a model, the records go to one table",
         "--entity needs --model: without a model, the records go to one table"),
        ("bad root", true, #"ImportOptions.roots "stops=": expected KEY=ENTITY, KEY a key path (stops, data.items) or a file name (stops.txt), ENTITY an entity of the model"#,
         #"--root "stops=": expected KEY=ENTITY, KEY a key path (stops, data.items) or a file name (stops.txt), ENTITY an entity of the model"#),
    ])
    func optionsAreNamedInTheCallersWords(_ setting: String, withModel: Bool, library: String, commandLine: String) {
        var options = ImportOptions()
        switch setting {
        case "entity Stp": options.entity = "Stp"
        case "path only": options.path = "data"
        case "no root": break
        case "batch 0": options.batchSize = 0
        case "header+mapKey": options.header = .first; options.mapKey = "id"
        case "entity, no model": options.entity = "Stop"
        default: options.roots = [Model.RootOverride(key: "stops", entity: "")]
        }
        let inLibrary = Self.failure(options, model: withModel)
        #expect(inLibrary?.kind == .usage)
        #expect(inLibrary?.description == library)
        options.optionNames = .commandLine
        #expect(Self.failure(options, model: withModel)?.description == commandLine)
    }

    /// A CSV input that no root names, through the importer.
    @Test func aCSVInputNoRootNames() throws {
        let directory = TemporaryDirectory()
        let parsed = try Model.parse(Array(Self.model.utf8), sourceName: "model.json")
        var options = ImportOptions()
        options.roots = [Model.RootOverride(key: "stops.csv", entity: "Stop")]
        let importer = try Importer(databasePath: directory.file("x.sqlite"), model: parsed, options: options)
        let input = directory.file("trips.csv")
        try "n\n1\n".write(toFile: input, atomically: true, encoding: .utf8)
        #expect { try importer.importFile(input) } throws: { error in
            "\(error)" == "\(input): the model's root names no entity for '\(input)': map it with ImportOptions.roots "
                + "(\(input)=ENTITY), the model's root (\"\(input)\": \"ENTITY\") or ImportOptions.entity"
        }
    }

    /// `ModelFile.load` throws `SluiceError` only: a model with problems carries them all, and
    /// reads as `sluice check` prints them.
    @Test func aModelThatDoesNotLoadIsATypedError() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("model.json")
        try #"{"root": "Stp", "entities": {"Stop": {"attributes": {"lat": "flaot"}}}}"#.write(toFile: path, atomically: true, encoding: .utf8)
        do {
            _ = try ModelFile.load(path: path)
            Issue.record("expected the model to be refused")
        } catch {
            #expect(error.kind == .usage)
            #expect(error.exitStatus == 64)
            #expect(error.modelError?.problems.count == 2)
            let lines = (error as any Error).localizedDescription.split(separator: "\n")
            #expect(lines.count == 2)
            #expect(lines.allSatisfy { $0.hasPrefix("\(path): ") })
        }
        do {
            _ = try ModelFile.load(path: directory.file("missing.json"))
            Issue.record("expected the missing model to be refused")
        } catch {
            #expect(error.kind == .cannotOpenInput)
            #expect(error.exitStatus == 66)
            #expect(error.modelError == nil)
        }
    }

    /// A PostgreSQL server that cannot be reached is not a file that cannot be created; the
    /// command's exit status stays 73 for both.
    @Test func aServerThatCannotBeReachedIsCannotConnect() throws {
        let parsed = try Model.parse(Array(Self.model.utf8), sourceName: "model.json")
        var options = ImportOptions()
        options.entity = "Stop"
        #expect {
            _ = try Importer(databasePath: "postgresql://127.0.0.1:1/nothing?connect_timeout=5", model: parsed, options: options)
        } throws: { error in
            (error as? SluiceError)?.kind == .cannotConnect && (error as? SluiceError)?.exitStatus == 73
        }
        let directory = TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: directory.file("dir.sqlite"), withIntermediateDirectories: true)
        #expect {
            _ = try Importer(databasePath: directory.file("dir.sqlite"), model: parsed, options: options)
        } throws: { error in
            (error as? SluiceError)?.kind == .cannotCreate && (error as? SluiceError)?.exitStatus == 73
        }
    }

    /// The table a host's own command exits by: the `sluice` command's (docs/cli.md).
    @Test func exitStatuses() {
        let kinds: [(SluiceError.Kind, Int32)] = [(.usage, 64), (.data, 65), (.cannotOpenInput, 66), (.cannotCreate, 73),
                                                  (.cannotConnect, 73), (.io, 74), (.interrupted, 130)]
        for (kind, status) in kinds { #expect(kind.exitStatus == status, "\(kind)") }
    }
}
