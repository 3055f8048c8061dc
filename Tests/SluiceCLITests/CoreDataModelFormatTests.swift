import Foundation
import SluiceTestSupport
import Testing
@testable import Sluice

/// Every form of a Core Data model an app developer has, through the binary: `check`, `schema`
/// and `import` with each, each against the same model given as XML (`contents` under another
/// name, a `.momd` of one version without a current-version name, an XML `VersionInfo.plist`, a
/// `.mom` alone, a `.mom` with uniqueness constraints), and Xcode 3's `elements` refused with
/// the way out.
@Suite struct CoreDataModelFormatTests {
    static let fixtures = CoreDataStoreCommandTests.fixtures
    static let cartKitResources = fixtures + "cartkit/4eee788d/Sources/CartKitStorageCoreData/Resources/"
    static let cartKitXML = cartKitResources + "CartStorage.xcdatamodeld"

    /// `schema` in both layouts and `check --layout coredata` give the same output for `model`
    /// as for `reference` (but the model's name), and an import through it writes a store.
    private func expectSameModel(_ model: String, as reference: String, in workspace: Workspace,
                                 entities: Int = 3, entity: String = "CDCart") throws {
        try Self.expectSameSchema(model, as: reference, in: workspace)
        let check = try workspace.sluice("check", "--layout", "coredata", "--model", model)
        #expect(check.status == 0, "\(check)")
        #expect(check.stdout == "\(model): ok, \(entities) entities, in Core Data's layout\n", "\(check)")
        let made = try workspace.sluice(["import", "--db", "made.sqlite", "--layout", "coredata", "--model", model, "--entity", entity, "-"],
                                        stdin: Array("[]".utf8))
        #expect(made.status == 0, "\(made)")
        #expect(try workspace.database("made.sqlite").count("Z_PRIMARYKEY") == Int64(entities))
        try FileManager.default.removeItem(atPath: workspace.file("made.sqlite"))
    }

    /// `schema` prints the same statements for `model` as for `reference`, in both layouts.
    static func expectSameSchema(_ model: String, as reference: String, in workspace: Workspace,
                                 sourceLocation: SourceLocation = #_sourceLocation) throws {
        for layout in ["coredata", "sluice"] {
            let given = try workspace.sluice("schema", "--layout", layout, "--model", model)
            let expected = try workspace.sluice("schema", "--layout", layout, "--model", reference)
            #expect(given.status == 0 && expected.status == 0, "\(given) \(expected)", sourceLocation: sourceLocation)
            #expect(given.stdout == expected.stdout, "\(layout)", sourceLocation: sourceLocation)
        }
    }

    /// A copy of CartKit's compiled `.momd` at `name`, with `VersionInfo.plist` as `info` makes it.
    private func momd(_ name: String, in workspace: Workspace,
                      info: (inout [(key: String, value: PropertyList)]) throws -> [UInt8]) throws -> String {
        let source = PackageFiles.path(Self.cartKitResources + "CartStorage.momd")
        try FileManager.default.createDirectory(atPath: workspace.file(name), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: source + "/CartStorage.mom", toPath: workspace.file(name + "/CartStorage.mom"))
        let bytes = try Array(Data(contentsOf: URL(fileURLWithPath: source + "/VersionInfo.plist")))
        var members = try BinaryPropertyList.read(bytes).dictionary ?? []
        try workspace.write(info(&members), to: name + "/VersionInfo.plist")
        return name
    }

    /// The `contents` XML given under any name is recognised by its root element, `<model>`.
    @Test func contentsUnderAnotherName() throws {
        let workspace = Workspace()
        let xml = try String(contentsOfFile: PackageFiles.path(Self.cartKitXML + "/CartStorage.xcdatamodel/contents"), encoding: .utf8)
        try workspace.write(xml, to: "CartStorage.xml")
        try workspace.write(xml, to: "contents")
        try expectSameModel("CartStorage.xml", as: PackageFiles.path(Self.cartKitXML), in: workspace)
        try expectSameModel("contents", as: PackageFiles.path(Self.cartKitXML), in: workspace)
        // Sluice's own model format is still read as JSON.
        let json = try workspace.sluice("check", "--model", "model.json")
        #expect(json.status == 66, "\(json)")
    }

    /// A `.momd` of one version whose `VersionInfo.plist` names no current version (as some
    /// build tools write it): its one version.
    @Test func aMomdOfOneVersionWithoutItsName() throws {
        let workspace = Workspace()
        let model = try momd("Cart.momd", in: workspace) { members in
            members.removeAll { $0.key == "NSManagedObjectModel_CurrentVersionName" }
            return BinaryPropertyList.write(.dictionary(members))
        }
        try expectSameModel(model, as: PackageFiles.path(Self.cartKitXML), in: workspace)
    }

    /// `VersionInfo.plist` in XML (`plutil -convert xml1`, or a build tool that writes XML): the
    /// same model, the same hashes checked.
    @Test func anXMLVersionInfo() throws {
        let workspace = Workspace()
        let source = try Data(contentsOf: URL(fileURLWithPath: PackageFiles.path(Self.cartKitResources + "CartStorage.momd/VersionInfo.plist")))
        let plist = try PropertyListSerialization.propertyList(from: source, format: nil)
        let xml = try PropertyListSerialization.data(fromPropertyList: plist, format: .xml, options: 0)
        #expect(xml.starts(with: Array("<?xml".utf8)))
        let model = try momd("Cart.momd", in: workspace) { _ in Array(xml) }
        try expectSameModel(model, as: PackageFiles.path(Self.cartKitXML), in: workspace)
        // Without the current version's name too.
        var dictionary = try #require(plist as? [String: Any])
        dictionary["NSManagedObjectModel_CurrentVersionName"] = nil
        let unnamed = try PropertyListSerialization.data(fromPropertyList: dictionary, format: .xml, options: 0)
        let other = try momd("Unnamed.momd", in: workspace) { _ in Array(unnamed) }
        try expectSameModel(other, as: PackageFiles.path(Self.cartKitXML), in: workspace)
    }

    /// A `.mom` alone (an app bundle's model without versions), and one in its `.momd`, whose
    /// `VersionInfo.plist` hashes are then checked.
    @Test func aMomAlone() throws {
        let workspace = Workspace()
        try expectSameModel(PackageFiles.path(Self.cartKitResources + "CartStorage.momd/CartStorage.mom"),
                            as: PackageFiles.path(Self.cartKitXML), in: workspace)
        try FileManager.default.copyItem(atPath: PackageFiles.path(Self.cartKitResources + "CartStorage.momd/CartStorage.mom"),
                                         toPath: workspace.file("CartStorage.mom"))
        try expectSameModel("CartStorage.mom", as: PackageFiles.path(Self.cartKitXML), in: workspace)
    }

    /// A compiled model with uniqueness constraints (`NSUniqueTuples`): the archived model Core
    /// Data kept in CoreDataPlus's store (`Z_MODELCACHE`, inflated), which has three. Its
    /// store's statements are its `.xcdatamodel`'s, unique indexes included, and its hashes are
    /// the ones that store records.
    @Test func aMomWithUniquenessConstraints() throws {
        let workspace = Workspace()
        let mom = PackageFiles.path(Self.fixtures + "modelcache/coredataplus-SampleModelV2.mom")
        let xml = PackageFiles.path(Self.fixtures + "coredataplus/6739d000/Tests/SampleModel.xcdatamodeld/SampleModel3.xcdatamodel")
        try Self.expectSameSchema(mom, as: xml, in: workspace)
        let schema = try workspace.sluice("schema", "--layout", "coredata", "--model", mom)
        #expect(schema.stdout.contains("CREATE UNIQUE INDEX Z_Person_UNIQUE_firstName_lastName ON ZPERSON "
            + "(ZFIRSTNAME COLLATE BINARY ASC, ZLASTNAME COLLATE BINARY ASC);\n"), "\(schema)")
        // The store Core Data wrote with it records the hashes computed from it.
        let model = try CompiledCoreDataModel.read(momd: mom).model
        let store = try Connection(path: PackageFiles.path(Self.fixtures + "coredataplus/6739d000/Tests/SampleModelV2.sqlite"),
                                   mode: .untouched)
        guard case .blob(let plist)? = try store.scalar("SELECT Z_PLIST FROM Z_METADATA") else { Issue.record("no metadata"); return }
        let recorded = try BinaryPropertyList.read(plist)["NSStoreModelVersionHashes"]?.dictionary ?? []
        #expect(Dictionary(uniqueKeysWithValues: recorded.compactMap { member in member.value.data.map { (member.key, $0) } })
            == (try VersionHash.entityHashes(of: model, sourceName: mom)))
        #expect(model.entities.first { $0.name == "Person" }?.uniquenessConstraints == [["firstName", "lastName"]])
    }

    /// Xcode 3's model (`elements` and `layout`, archives of Xcode's own editor classes, no
    /// `contents`) is refused by every command with the way out, exit 64.
    @Test func anXcode3ModelIsRefusedWithTheWayOut() throws {
        let workspace = Workspace()
        try FileManager.default.createDirectory(atPath: workspace.file("Old.xcdatamodeld/Old.xcdatamodel"), withIntermediateDirectories: true)
        let archive = BinaryPropertyList.write(.dictionary([("$archiver", .string("NSKeyedArchiver")), ("$version", .integer(100000))]))
        try workspace.write(archive, to: "Old.xcdatamodeld/Old.xcdatamodel/elements")
        try workspace.write(archive, to: "Old.xcdatamodeld/Old.xcdatamodel/layout")
        let line = "sluice: error: 'Old.xcdatamodeld/Old.xcdatamodel' is a model of Xcode 3 (an 'elements' file, no 'contents'), "
            + "which Sluice does not read: open the model in Xcode and save it, which writes its 'contents'"
        for model in ["Old.xcdatamodeld", "Old.xcdatamodeld/Old.xcdatamodel"] {
            for arguments in [["check", "--model", model], ["schema", "--layout", "coredata", "--model", model],
                              ["import", "--db", "x.sqlite", "--model", model, "--entity", "E", "-"]] {
                let result = try workspace.sluice(arguments, stdin: Array("[]".utf8))
                #expect(result.status == 64, "\(arguments) \(result)")
                #expect(result.stderrLines == [line], "\(arguments) \(result)")
            }
        }
        #expect(!FileManager.default.fileExists(atPath: workspace.file("x.sqlite")))
    }
}
