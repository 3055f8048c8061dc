import Foundation
import SluiceTestSupport
import Testing
@testable import Sluice

/// `sluice schema --layout coredata` and `sluice check --layout coredata`, through the binary.
@Suite struct CoreDataStoreCommandTests {
    static let fixtures = "Tests/Fixtures/CoreDataStores/"
    static let cartKitModel = fixtures + "cartkit/reconstructed/CartStorage_v1.xcdatamodel"
    static let cartKitStore = fixtures + "cartkit/4eee788d/Tests/CartKitStorageCoreDataTests/LegacyCoreData/CartStorage_v1.sqlite"

    /// Copies CartKit's store (in WAL mode: its `-wal` and `-shm` too) into `workspace` as
    /// `name`, writable.
    static func copyCartKitStore(into workspace: Workspace, as name: String) throws {
        for suffix in ["", "-wal", "-shm"] {
            try FileManager.default.copyItem(atPath: PackageFiles.path(cartKitStore + suffix), toPath: workspace.file(name + suffix))
            chmod(workspace.file(name + suffix), 0o644)
        }
    }

    /// What `schema` prints, run into an empty file, makes the schema of the real store Core
    /// Data wrote with that model (but `Z_MODELCACHE`, which Sluice does not write).
    @Test func schemaPrintsTheStatementsOfTheRealStore() throws {
        let workspace = Workspace()
        let result = try workspace.sluice("schema", "--layout", "coredata", "--model", PackageFiles.path(Self.cartKitModel))
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr == "")
        #expect(result.stdout.hasPrefix("PRAGMA page_size = 4096;\nPRAGMA auto_vacuum = INCREMENTAL;\nCREATE TABLE ZCDCART ( Z_PK INTEGER PRIMARY KEY, "))

        let made = try Connection(path: workspace.path + "/made.sqlite")
        try made.execute(result.stdout)
        try Self.copyCartKitStore(into: workspace, as: "real.sqlite")
        let real = try Connection(path: workspace.path + "/real.sqlite", mode: .readOnly)
        #expect(try schema(made) == schema(real).filter { !$0.contains("Z_MODELCACHE") })
        #expect(try schema(made).count == 8)  // three tables, three indexes, Z_PRIMARYKEY, Z_METADATA
    }

    private func schema(_ connection: Connection) throws -> [String] {
        let statement = try connection.prepare("SELECT sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY name")
        var texts: [String] = []
        while try statement.step() { if case .text(let text) = statement.value(at: 0) { texts.append(text) } }
        return texts
    }

    @Test func checkAcceptsAModelCoreDatasStoreCanHold() throws {
        let workspace = Workspace()
        let model = PackageFiles.path(Self.cartKitModel)
        let result = try workspace.sluice("check", "--layout", "coredata", "--model", model)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == "\(model): ok, 3 entities, in Core Data's layout\n")
    }

    static let refusedModel = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
            <entity name="Book">
                <attribute name="bookID" attributeType="String"/>
                <attribute name="cover" optional="YES" attributeType="Binary" allowsExternalBinaryDataStorage="YES"/>
                <relationship name="authors" toMany="YES" destinationEntity="Author" inverseName="books" inverseEntity="Author"/>
            </entity>
            <entity name="Author">
                <attribute name="authorID" attributeType="String"/>
                <attribute name="bookCount" attributeType="Integer 64" derived="YES" derivationExpression="books.@count"/>
                <relationship name="books" toMany="YES" destinationEntity="Book" inverseName="authors" inverseEntity="Book"/>
            </entity>
        </model>
        """

    /// One line per property the store could not hold as Core Data would, naming it; exit 64.
    @Test func checkListsWhatCannotBeWrittenFaithfully() throws {
        let workspace = Workspace()
        try FileManager.default.createDirectory(atPath: workspace.file("Books.xcdatamodel"), withIntermediateDirectories: false)
        try workspace.write(Self.refusedModel, to: "Books.xcdatamodel/contents")
        let result = try workspace.sluice("check", "--layout", "coredata", "--model", "Books.xcdatamodel")
        #expect(result.status == 64, "\(result)")
        #expect(result.stdout == "")
        #expect(result.stderrLines.filter { !$0.hasPrefix("sluice: note: ") } == [
            "sluice: error: Books.xcdatamodel: entities.Author.attributes.bookCount: a derived attribute: Core Data keeps its value "
                + "with triggers that Sluice does not write; refused",
            "sluice: error: Books.xcdatamodel: entities.Author.relationships.books: a many-to-many with Book.authors: Core Data "
                + "names its join table Z_1BOOKS or Z_2AUTHORS, and which is not known; a new store is refused: import into a "
                + "store the app made, which has the table",
            "sluice: error: Books.xcdatamodel: entities.Book.attributes.cover: allows external binary storage: Core Data's marker "
                + "byte and external files are not written; refused",
        ], "\(result)")

        // In Sluice's own layout the same model is fine.
        let sluiceLayout = try workspace.sluice("check", "--model", "Books.xcdatamodel")
        #expect(sluiceLayout.status == 0, "\(sluiceLayout)")
        // And schema prints Core Data's statements anyway, with a note that check lists the problems.
        let schema = try workspace.sluice("schema", "--layout", "coredata", "--model", "Books.xcdatamodel")
        #expect(schema.status == 0, "\(schema)")
        #expect(schema.stdout.contains("CREATE TABLE Z_1BOOKS ( Z_1AUTHORS INTEGER, Z_2BOOKS INTEGER, PRIMARY KEY (Z_1AUTHORS, Z_2BOOKS) );\n"))
        #expect(schema.stderrLines == [
            "sluice: note: Books.xcdatamodel: 3 problems for Core Data's store; sluice check --layout coredata --model "
                + "Books.xcdatamodel lists them",
        ])
    }

    /// Core Data's store is made from a Core Data model: a Sluice model file is a usage error.
    @Test(arguments: ["schema", "check"])
    func coreDataLayoutNeedsACoreDataModel(_ command: String) throws {
        let workspace = Workspace()
        try workspace.write(#"{ "entities": { "T": { "identity": "id", "attributes": { "id": { "type": "string" } } } } }"#,
                            to: "model.json")
        let result = try workspace.sluice(command, "--layout", "coredata", "--model", "model.json")
        #expect(result.status == 64, "\(result)")
        #expect(result.stdout == "")
        #expect(result.stderrLines == [
            "sluice: error: --layout coredata needs a Core Data model (.xcdatamodeld, .xcdatamodel or its contents, or .momd): "
                + "Core Data's store is made from one, and 'model.json' is not one",
        ], "\(result)")
    }

    @Test func coreDataLayoutHasNoPostgreSQLDialect() throws {
        let workspace = Workspace()
        let result = try workspace.sluice("schema", "--layout", "coredata", "--dialect", "postgresql",
                                          "--model", PackageFiles.path(Self.cartKitModel))
        #expect(result.status == 64, "\(result)")
        #expect(result.stderrLines.first?.contains("--layout coredata is Core Data's SQLite store: it has no --dialect postgresql") == true,
                "\(result)")
    }

    /// The compiled model an app bundle holds gives the same store as its `.xcdatamodeld`, and
    /// converts to the same Sluice model.
    @Test func aMomdGivesTheSameSchemaAsItsXcdatamodeld() throws {
        let workspace = Workspace()
        let bundle = PackageFiles.path(Self.fixtures + "cartkit/4eee788d/Sources/CartKitStorageCoreData/Resources/")
        for layout in ["coredata", "sluice"] {
            let compiled = try workspace.sluice("schema", "--layout", layout, "--model", bundle + "CartStorage.momd")
            let xml = try workspace.sluice("schema", "--layout", layout, "--model", bundle + "CartStorage.xcdatamodeld")
            #expect(compiled.status == 0 && xml.status == 0, "\(compiled) \(xml)")
            #expect(compiled.stdout == xml.stdout, "\(layout)")
        }
        let check = try workspace.sluice("check", "--layout", "coredata", "--model", bundle + "CartStorage.momd")
        #expect(check.stdout == "\(bundle)CartStorage.momd: ok, 3 entities, in Core Data's layout\n", "\(check)")
    }

    @Test func theDefaultLayoutIsSluices() throws {
        let workspace = Workspace()
        let model = PackageFiles.path(Self.cartKitModel)
        let plain = try workspace.sluice("schema", "--model", model)
        let named = try workspace.sluice("schema", "--layout", "sluice", "--model", model)
        #expect(plain.status == 0 && named.status == 0)
        #expect(plain.stdout == named.stdout)
        #expect(plain.stdout.contains("CREATE TABLE IF NOT EXISTS"))
    }
}
