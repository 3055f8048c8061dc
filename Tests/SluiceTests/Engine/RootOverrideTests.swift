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

    /// A JSON input the root names by its file name holds its values where that entry's
    /// records stand, chosen by the name before the input is read: the entry's map makes the
    /// file's object a map (its members the records), and the entry's table makes its arrays
    /// rows (SPEC section 12's root keys).
    @Test func aJSONFileNamedByTheRootIsReadAsItsEntrySays() throws {
        let directory = TemporaryDirectory()
        var named = model
        named.root = .paths([(JSONKeyPath(["stops", "json"]), "Stop"), (JSONKeyPath(["trips", "json"]), "Trip")])
        named.rootMaps = [JSONKeyPath(["stops", "json"]): "id"]
        named.rootTable = (JSONKeyPath(["trips", "json"]), TabularHeader("first"))
        let database = directory.file("out.sqlite")
        let importer = try Importer(databasePath: database, model: named)
        try importer.importBytes(Array(#"{"a": {}, "b": {}}"#.utf8), name: "stops.json")
        try importer.importBytes(Array(#"[["id"], ["t1"], ["t2"]]"#.utf8), name: "feed/trips.json")
        let report = try importer.finish()
        #expect(report.entities.map(\.inserted) == [2, 2])
        #expect(try query(database, "SELECT id FROM Stop ORDER BY id") == [[.text("a")], [.text("b")]])
        #expect(try query(database, "SELECT id FROM Trip ORDER BY id") == [[.text("t1")], [.text("t2")]])
    }

    /// When entries of the root name one input several ways, the most specific name wins,
    /// whatever the root's order: the input's path as given, then its file name, then (CSV
    /// only) its file name without the extension. A JSON input is not named by the last: there
    /// `stops` is a key of the top-level object.
    @Test func theMostSpecificNameOfAnInputChoosesItsEntry() throws {
        let directory = TemporaryDirectory()
        let entities = ["ByStem", "ByFileName", "ByPath"].map {
            Model.Entity(name: $0, identity: ["id"], attributes: [.init(name: "id", type: .string)])
        }
        var named = Model(entities: entities)
        named.root = .paths([(JSONKeyPath(["stops"]), "ByStem"), (JSONKeyPath(["stops", "txt"]), "ByFileName"),
                             (JSONKeyPath(parsing: "data/stops.txt"), "ByPath")])
        // An archive's entries are named by their paths in it, as a file by its path as given.
        try directory.writeFile(try ZipBuilder([
            .init("data/stops.txt", Array("id\npath\n".utf8)),
            .init("other/stops.txt", Array("id\nfile\n".utf8)),
            .init("stops.csv", Array("id\nstem\n".utf8)),
            .init("stops.json", Array(#"{"stops": [{"id": "key"}]}"#.utf8)),
        ]).bytes(), named: "feed.zip")
        let database = directory.file("out.sqlite")
        let importer = try Importer(databasePath: database, model: named)
        try importer.importFile(directory.file("feed.zip"))
        let report = try importer.finish()
        #expect(report.entities.map(\.inserted) == [2, 1, 1])
        #expect(try query(database, "SELECT id FROM ByPath") == [[.text("path")]])
        #expect(try query(database, "SELECT id FROM ByFileName") == [[.text("file")]])
        #expect(try query(database, "SELECT id FROM ByStem ORDER BY id") == [[.text("key")], [.text("stem")]])
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
