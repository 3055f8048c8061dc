import Foundation
import SluiceTestSupport
import Testing
@testable import Sluice

/// A store `sluice import --layout coredata` refuses is left byte for byte as it was: its main
/// file, `-wal` and `-shm`. Copies of the real stores of `Tests/Fixtures/CoreDataStores`, each
/// with rows in its `-wal` as an app leaves its store (an app's store in WAL mode keeps what it
/// last saved there until a checkpoint), through the binary.
@Suite struct CoreDataRefusalTests {
    static let fixtures = CoreDataStoreCommandTests.fixtures
    static let bergier = fixtures + "bergier-migration/bc960768/CoreDataMigration/"
    static let bergierModel = bergier + "CoreDataMigration/Model.xcdatamodeld/"

    /// Copies the real store `fixture` (its three files) to `name` in `workspace`, and leaves
    /// `change` in its `-wal`: the change is made on a copy held open, whose three files are
    /// copied before it closes (closing the last connection would checkpoint the `-wal`).
    private func storeWithRowsInItsWAL(_ fixture: String, as name: String, in workspace: Workspace,
                                       change: String = "UPDATE Z_PRIMARYKEY SET Z_MAX = Z_MAX + 1") throws {
        try workspace.copyStore(fixture, to: "source")
        let writer = try Connection(path: workspace.file("source"), mode: .readWrite)
        try writer.execute(change)
        for suffix in ["", "-wal", "-shm"] {
            try FileManager.default.copyItem(atPath: workspace.file("source" + suffix), toPath: workspace.file(name + suffix))
        }
        writer.close()
    }

    /// The bytes of the store's three files (nil for one that is not there).
    private func files(_ name: String, in workspace: Workspace) -> [Data?] {
        ["", "-wal", "-shm"].map { FileManager.default.contents(atPath: workspace.file(name + $0)) }
    }

    private func refusal(_ workspace: Workspace, store: String, model: String, entity: String) throws -> SluiceResult {
        let before = files(store, in: workspace)
        #expect(before.allSatisfy { $0 != nil } && (before[1]?.count ?? 0) > 0, "the copy has rows in its -wal")
        let result = try workspace.sluice(["import", "--db", store, "--layout", "coredata", "--model", model, "--entity", entity, "-"],
                                          stdin: Array(#"[{"name": "x"}]"#.utf8))
        #expect(files(store, in: workspace) == before, "the three files are untouched")
        return result
    }

    /// A store of another model than the one given: CartKit's store and the model its
    /// repository holds now (two attributes and two inverses later).
    @Test func aStoreOfAnotherModel() throws {
        let workspace = Workspace()
        try storeWithRowsInItsWAL(CoreDataStoreCommandTests.cartKitStore, as: "Cart.sqlite", in: workspace)
        let model = PackageFiles.path(Self.fixtures + "cartkit/4eee788d/Sources/CartKitStorageCoreData/Resources/CartStorage.xcdatamodeld")
        let result = try refusal(workspace, store: "Cart.sqlite", model: model, entity: "CDCart")
        #expect(result.status == 65, "\(result)")
        #expect(result.stderrLines == [
            "sluice: error: database 'Cart.sqlite' is a Core Data store of another version of the model than '\(model)': entity "
                + "\"CDCart\" has another version hash; nothing was written (import into a new file, or give the model version the "
                + "store was written with)",
        ], "\(result)")
    }

    /// A store of another version of the model's bundle: the line names the version it was
    /// written with.
    @Test func aStoreOfAnotherVersionOfTheBundle() throws {
        let workspace = Workspace()
        try storeWithRowsInItsWAL(Self.bergier + "CoreDataMigrationTests/Example_v1.0.0.sqlite", as: "Example.sqlite", in: workspace)
        let model = PackageFiles.path(Self.bergierModel + "v2.0.0.xcdatamodel")
        let result = try refusal(workspace, store: "Example.sqlite", model: model, entity: "BasicEntity")
        #expect(result.status == 65, "\(result)")
        #expect(result.stderrLines.count == 1, "\(result)")
        #expect(result.stderrLines.first?.hasPrefix("sluice: error: database 'Example.sqlite' is a Core Data store of another "
            + "version of the model than '\(model)': ") == true, "\(result)")
        #expect(result.stderrLines.first?.hasSuffix("; nothing was written (import into a new file, or give the version the store "
            + "was written with: --model '\(PackageFiles.path(Self.bergierModel + "v1.0.0.xcdatamodel"))')") == true, "\(result)")
    }

    /// What is not a Core Data store Sluice can read: a database with tables but no `Z_METADATA`,
    /// and a `Z_METADATA` whose property list holds no version hashes (here a real store that the
    /// change in its `-wal` made so).
    @Test(arguments: [
        ("DROP TABLE Z_METADATA", "is not a Core Data store (it has tables but no Z_METADATA); nothing was written: import into "
            + "a new file, or into a Core Data store"),
        ("UPDATE Z_METADATA SET Z_PLIST = x'00'", "is not a Core Data store Sluice can read: its Z_METADATA holds no entity "
            + "version hashes"),
    ])
    func notAStoreSluiceCanRead(_ change: String, _ why: String) throws {
        let workspace = Workspace()
        try storeWithRowsInItsWAL(CoreDataStoreCommandTests.cartKitStore, as: "Cart.sqlite", in: workspace, change: change)
        let result = try refusal(workspace, store: "Cart.sqlite", model: PackageFiles.path(CoreDataStoreCommandTests.cartKitModel),
                                 entity: "CDCart")
        #expect(result.status == 65, "\(result)")
        #expect(result.stderrLines == ["sluice: error: database 'Cart.sqlite' \(why)"], "\(result)")
    }

    /// A store another program is writing (an app saving: here the sqlite3 shell, another
    /// process, since a process drops its own locks on a file when it closes any descriptor of
    /// it) is refused after the busy timeout, and the files are as that program left them.
    @Test(.enabled(if: TutorialTests.sqlite3 != nil, "needs the sqlite3 shell (scripts/install-deps installs it)"))
    func aStoreAnotherProgramIsWriting() throws {
        let workspace = Workspace()
        try storeWithRowsInItsWAL(CoreDataStoreCommandTests.cartKitStore, as: "Cart.sqlite", in: workspace)
        let app = Process()
        app.executableURL = URL(fileURLWithPath: TutorialTests.sqlite3!)
        app.arguments = [workspace.file("Cart.sqlite")]
        let (input, output) = (Pipe(), Pipe())
        (app.standardInput, app.standardOutput) = (input, output)
        try app.run()
        defer {
            try? input.fileHandleForWriting.write(contentsOf: Array("ROLLBACK;\n.quit\n".utf8))
            app.waitUntilExit()
        }
        try input.fileHandleForWriting.write(contentsOf: Array("BEGIN IMMEDIATE;\nUPDATE Z_PRIMARYKEY SET Z_MAX = Z_MAX + 1;\nSELECT 'saving';\n".utf8))
        #expect(String(decoding: output.fileHandleForReading.availableData, as: UTF8.self) == "saving\n")
        let result = try refusal(workspace, store: "Cart.sqlite", model: PackageFiles.path(CoreDataStoreCommandTests.cartKitModel),
                                 entity: "CDCart")
        #expect(result.status == 73, "\(result)")
        #expect(result.stderrLines == ["sluice: error: cannot write database 'Cart.sqlite': database is locked"], "\(result)")
    }

    /// Sluice's layout is never written into a Core Data store: refused before the store is
    /// opened to write, untouched too.
    @Test func sluicesLayoutIntoAStore() throws {
        let workspace = Workspace()
        try storeWithRowsInItsWAL(CoreDataStoreCommandTests.cartKitStore, as: "Cart.sqlite", in: workspace)
        try workspace.write(#"{"entities": {"T": {"identity": "id", "attributes": {"id": "string"}}}}"#, to: "model.json")
        let before = files("Cart.sqlite", in: workspace)
        let result = try workspace.sluice(["import", "--db", "Cart.sqlite", "--model", "model.json", "--entity", "T", "-"],
                                          stdin: Array(#"[{"id": "x"}]"#.utf8))
        #expect(files("Cart.sqlite", in: workspace) == before, "the three files are untouched")
        #expect(result.status == 64, "\(result)")
        #expect(result.stderrLines == [
            "sluice: error: database 'Cart.sqlite' is a Core Data store (it has Z_METADATA and Z_PRIMARYKEY): Sluice's tables "
                + "beside Core Data's would hold rows the app never reads; import into it with its Core Data model in Core Data's "
                + "layout (--layout coredata), or into another file",
        ], "\(result)")
    }

    /// The store's own model takes the import, which checkpoints the `-wal` into the file: what
    /// the copy held in its `-wal` is in the file afterwards.
    @Test func theStoresOwnModelTakesTheImport() throws {
        let workspace = Workspace()
        try storeWithRowsInItsWAL(CoreDataStoreCommandTests.cartKitStore, as: "Cart.sqlite", in: workspace,
                                  change: "UPDATE ZCDCART SET ZSTOREID = 'in the wal'")
        let result = try workspace.sluice(["import", "--db", "Cart.sqlite", "--layout", "coredata", "--model",
                                           PackageFiles.path(CoreDataStoreCommandTests.cartKitModel), "--entity", "CDCart", "-"],
                                          stdin: Array("[]".utf8))
        #expect(result.status == 0, "\(result)")
        #expect(!FileManager.default.fileExists(atPath: workspace.file("Cart.sqlite-wal")))
        #expect(try workspace.database("Cart.sqlite").rows("SELECT DISTINCT ZSTOREID FROM ZCDCART") == [[.text("in the wal")]])
    }
}
