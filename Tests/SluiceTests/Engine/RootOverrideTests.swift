import SluiceTestSupport
import Testing
@testable import Sluice

/// `ImportOptions.roots` (`--root KEY=ENTITY` in the library): merged into the model's root,
/// checked as `--entity` is, and what `Importer.model` then says.
@Suite struct RootOverrideTests {
    private let model = Model(entities: [
        Model.Entity(name: "Stop", identity: ["id"], attributes: [.init(name: "id", type: .string)]),
        Model.Entity(name: "Trip", identity: ["id"], attributes: [.init(name: "id", type: .string)]),
    ])

    @Test func anImportWithRootsReadsEachKeysRecords() throws {
        let directory = TemporaryDirectory()
        var options = ImportOptions()
        options.roots = [.init(key: "stops", entity: "Stop"), .init(key: "trips.txt", entity: "Trip")]
        let importer = try Importer(databasePath: directory.file("out.sqlite"), model: model, options: options)
        #expect(importer.model?.root == .paths([(JSONKeyPath(["stops"]), "Stop"), (JSONKeyPath(["trips", "txt"]), "Trip")]))
        try importer.importBytes(Array(#"{"stops": [{"id": "a"}, {"id": "b"}], "trips": {"txt": [{"id": "t"}]}}"#.utf8))
        let report = try importer.finish()
        #expect(report.entities.map(\.inserted) == [2, 1])
    }

    @Test func mergingOverridesAKeyDropsItsMapAndTableAndAddsTheRest() {
        var base = model
        base.root = .paths([(JSONKeyPath(["a"]), "Stop"), (JSONKeyPath(["b"]), "Stop")])
        base.rootMaps = [JSONKeyPath(["a"]): "id"]
        base.rootTable = (JSONKeyPath(["b"]), TabularHeader("first"))
        let merged = base.addingRoots([.init(key: "a", entity: "Trip"), .init(key: "c.d", entity: "Trip")])
        #expect(merged.root == .paths([(JSONKeyPath(["a"]), "Trip"), (JSONKeyPath(["b"]), "Stop"), (JSONKeyPath(["c", "d"]), "Trip")]))
        #expect(merged.rootMaps.isEmpty)
        #expect(merged.rootTable?.path == JSONKeyPath(["b"]))
        #expect(base.addingRoots([.init(key: "b", entity: "Stop")]).rootTable == nil)

        var single = model
        single.root = .entity("Stop")
        #expect(single.addingRoots([.init(key: "x", entity: "Trip")]).root == .paths([(JSONKeyPath(["x"]), "Trip")]))
        #expect(single.addingRoots([]).root == .entity("Stop"))
    }

    @Test func parsingSplitsAtTheLastEquals() {
        #expect(Model.RootOverride(parsing: "stops.txt=Stop") == .init(key: "stops.txt", entity: "Stop"))
        #expect(Model.RootOverride(parsing: "a=b=Stop") == .init(key: "a=b", entity: "Stop"))
        #expect(Model.RootOverride(parsing: "stops") == nil)
        #expect(Model.RootOverride(parsing: "=Stop") == nil)
        #expect(Model.RootOverride(parsing: "stops=") == nil)
    }

    @Test func anUnknownEntityOrAConflictIsAUsageErrorBeforeTheDatabaseIsOpened() {
        let directory = TemporaryDirectory()
        func error(_ options: ImportOptions, model: Model?) -> SluiceError? {
            do {
                _ = try model.map { try Importer(databasePath: directory.file("out.sqlite"), model: $0, options: options) }
                    ?? Importer(databasePath: directory.file("out.sqlite"), table: "t", options: options)
                return nil
            } catch { return error as? SluiceError }
        }
        var options = ImportOptions()
        options.roots = [.init(key: "stops", entity: "Stp")]
        let unknown = error(options, model: model)
        #expect(unknown?.kind == .usage)
        #expect(unknown?.message == #"ImportOptions.roots "stops=Stp": unknown entity "Stp"; the model has: Stop, Trip; did you mean "Stop"?"#)
        options.roots = [.init(key: "stops", entity: "Stop")]
        options.entity = "Stop"
        #expect(error(options, model: model)?.message.hasPrefix("ImportOptions.roots and ImportOptions.entity cannot be used together") == true)
        options.entity = nil
        #expect(error(options, model: nil)?.message == "ImportOptions.roots needs a model: without a model, the records go to one table")
        #expect(!directory.exists("out.sqlite"))
    }
}
