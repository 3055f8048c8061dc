import Foundation
import SluiceTestSupport
import Testing
@testable import Sluice

/// A Core Data store's own model (`Z_MODELCACHE`): `--model Store.sqlite`, or no `--model` with
/// `--layout coredata` and a `--db` that carries one, as a SwiftData app's store does (its model
/// is Swift code, not a file). On every real store of the fixtures, through the binary.
@Suite struct CoreDataStoreModelTests {
    static let fixtures = CoreDataStoreCommandTests.fixtures
    static let bergier = CoreDataRefusalTests.bergier

    /// Each store with its model cache, and the `.xcdatamodel` that wrote it.
    static let stores: [(store: String, model: String, entities: Int)] = [
        (CoreDataStoreCommandTests.cartKitStore, CoreDataStoreCommandTests.cartKitModel, 3),
        (fixtures + "coredataplus/6739d000/Tests/SampleModelV2.sqlite",
         fixtures + "coredataplus/6739d000/Tests/SampleModel.xcdatamodeld/SampleModel3.xcdatamodel", 5),
    ] + ["1.0.0", "1.1.0", "1.1.2", "1.2.0", "2.0.0"].map { version in
        (bergier + "CoreDataMigrationTests/Example_v\(version).sqlite",
         CoreDataRefusalTests.bergierModel + "v\(version).xcdatamodel", 1)
    }

    /// The model read from the store gives the statements of the model that wrote it, in both
    /// layouts (its hashes are checked against the store's `Z_METADATA` as it is read).
    @Test(arguments: stores.map(\.store))
    func theStoresModelIsTheModelThatWroteIt(_ store: String) throws {
        let entry = try #require(Self.stores.first { $0.store == store })
        let workspace = Workspace()
        try CoreDataModelFormatTests.expectSameSchema(PackageFiles.path(store), as: PackageFiles.path(entry.model), in: workspace)
        let check = try workspace.sluice("check", "--layout", "coredata", "--model", PackageFiles.path(store))
        let reference = try workspace.sluice("check", "--layout", "coredata", "--model", PackageFiles.path(entry.model))
        #expect(check.status == reference.status, "\(check)")
        #expect(check.stderrLines.count == reference.stderrLines.count, "\(check) \(reference)")
        if reference.status == 0 {
            #expect(check.stdout == "\(PackageFiles.path(store)): ok, \(entry.entities) \(entry.entities == 1 ? "entity" : "entities"), "
                + "in Core Data's layout\n", "\(check)")
        }
    }

    /// No `--model`: the import into a copy of the store follows the store's own model; keys are
    /// the attribute names, and the model cache is left as it was.
    @Test func anImportIntoAStoreWithoutAModelFile() throws {
        let workspace = Workspace()
        try workspace.copyStore(Self.bergier + "CoreDataMigrationTests/Example_v2.0.0.sqlite", to: "App.sqlite")
        let cache = try workspace.database("App.sqlite").rows("SELECT * FROM Z_MODELCACHE")
        let before = try #require(try workspace.database("App.sqlite").count("ZBASICENTITY"))
        let columns = try workspace.database("App.sqlite").rows("SELECT name FROM pragma_table_info('ZBASICENTITY') ORDER BY cid")
        #expect(columns.count > 3, "\(columns)")
        let result = try workspace.sluice(["import", "--db", "App.sqlite", "--layout", "coredata", "--entity", "BasicEntity", "-"],
                                          stdin: Array(#"[{}, {}]"#.utf8))
        #expect(result.status == 0, "\(result)")
        let db = try workspace.database("App.sqlite")
        #expect(try db.count("ZBASICENTITY") == before + 2)
        #expect(try db.rows("SELECT * FROM Z_MODELCACHE") == cache)
        // Without --layout too: the layout follows the store, and so does the model.
        let unnamed = try workspace.sluice(["import", "--db", "App.sqlite", "--entity", "BasicEntity", "-"], stdin: Array("[{}]".utf8))
        #expect(unnamed.status == 0, "\(unnamed)")
        #expect(try workspace.database("App.sqlite").count("ZBASICENTITY") == before + 3)

        // Without the layout, no model: a zero-config import as before, which needs --layout
        // coredata to take the store's model.
        let plain = try workspace.sluice(["import", "--db", "New.sqlite", "--layout", "coredata", "--entity", "BasicEntity", "-"],
                                         stdin: Array("[]".utf8))
        #expect(plain.status == 64, "\(plain)")
        #expect(plain.stderrLines.first == "sluice: error: --layout coredata needs --model with a Core Data model (.xcdatamodeld, "
            + ".xcdatamodel or .momd), or --db naming a Core Data store that carries its model: Core Data's store is made from one")
    }

    /// `--mapping` gives a store's model the keys it cannot carry: here the identity and the key
    /// of bergier's v2 store's one attribute. The record naming the store's row updates it; a
    /// mistake in the mapping is a usage error naming its place.
    @Test func aMappingGivesTheKeysAStoresModelCannotCarry() throws {
        let workspace = Workspace()
        try workspace.copyStore(Self.bergier + "CoreDataMigrationTests/Example_v2.0.0.sqlite", to: "App.sqlite")
        try workspace.write("""
            // The store's own row holds "A Known Value".
            { "BasicEntity": { "relatedByAttribute": "v2_0_0_name",
                               "attributes": { "v2_0_0_name": { "mappedKeyName": "title" } } } }
            """, to: "mapping.json")
        func run(_ mapping: String, _ input: String) throws -> SluiceResult {
            try workspace.sluice(["import", "--db", "App.sqlite", "--layout", "coredata", "--mapping", mapping, "--entity", "BasicEntity",
                                  "--quiet", "-"], stdin: Array(input.utf8))
        }
        let result = try run("mapping.json", #"[{"title": "A Known Value"}, {"title": "New"}]"#)
        #expect(result.status == 0, "\(result)")
        #expect(try workspace.database("App.sqlite").rows("SELECT Z_PK, ZV2_0_0_NAME FROM ZBASICENTITY ORDER BY Z_PK") == [
            [.integer(1), .text("A Known Value")], [.integer(2), .text("New")],
        ])

        try workspace.write(#"{ "BasicEntity": { "attributes": { "name": { "mappedKeyName": "title" } } } }"#, to: "wrong.json")
        let wrong = try run("wrong.json", "[]")
        #expect(wrong.status == 64, "\(wrong)")
        #expect(wrong.stderrLines == ["sluice: error: wrong.json: BasicEntity.attributes.name: BasicEntity has no attribute \"name\""],
                "\(wrong)")
        try workspace.write(#"{"entities": {"T": {"attributes": {"id": "string"}}}}"#, to: "model.json")
        let json = try workspace.sluice("check", "--model", "model.json", "--mapping", "mapping.json")
        #expect(json.status == 64, "\(json)")
        #expect(json.stderrLines == ["sluice: error: --mapping is for a Core Data model, whose userInfo it adds to; 'model.json' is "
            + "not one (a Sluice model file names its keys itself)"], "\(json)")
    }

    /// A model cache whose model does not give the hashes the store records is refused, naming
    /// both, rather than guessed.
    @Test func aCacheThatIsNotTheStoresModelIsRefused() throws {
        let workspace = Workspace()
        try FileManager.default.copyItem(atPath: PackageFiles.path(Self.bergier + "CoreDataMigrationTests/Example_v1.0.0.sqlite"),
                                         toPath: workspace.file("A.sqlite"))
        try FileManager.default.copyItem(atPath: PackageFiles.path(Self.bergier + "CoreDataMigrationTests/Example_v2.0.0.sqlite"),
                                         toPath: workspace.file("B.sqlite"))
        chmod(workspace.file("A.sqlite"), 0o644)
        let a = try Connection(path: workspace.file("A.sqlite"), mode: .readWrite)
        try a.execute("PRAGMA journal_mode=DELETE; ATTACH '\(workspace.file("B.sqlite"))' AS b; "
            + "UPDATE Z_MODELCACHE SET Z_CONTENT = (SELECT Z_CONTENT FROM b.Z_MODELCACHE); DETACH b;")
        a.close()
        let result = try workspace.sluice("check", "--layout", "coredata", "--model", "A.sqlite")
        #expect(result.status == 64, "\(result)")
        #expect(result.stderrLines.count == 1, "\(result)")
        #expect(result.stderrLines.first?.hasPrefix("sluice: error: 'A.sqlite': the model in its Z_MODELCACHE does not give the "
            + "version hashes its Z_METADATA records (database 'A.sqlite' is a Core Data store of another version of the model than "
            + "'A.sqlite (Z_MODELCACHE)': entity \"BasicEntity\" has another version hash") == true, "\(result)")
    }
}
