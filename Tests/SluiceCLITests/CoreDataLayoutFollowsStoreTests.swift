import Foundation
import SluiceTestSupport
import Testing
@testable import Sluice

/// Without `--layout` the layout follows the store (`docs/coredata-store.md#importing`): an
/// existing Core Data store is imported as one, with a note; Sluice's own tables are never
/// written into a Core Data store, where the app would see none of their rows.
@Suite struct CoreDataLayoutFollowsStoreTests {
    static let refusal = "sluice: error: database 'App.sqlite' is a Core Data store (it has Z_METADATA and Z_PRIMARYKEY): "
        + "Sluice's tables beside Core Data's would hold rows the app never reads; import into it with its Core Data model "
        + "in Core Data's layout (--layout coredata), or into another file"

    /// A workspace with the model of `StaleCompanionTests` (entity `Item`), `model.json`, and
    /// `App.sqlite`, a Core Data store of that model holding one item.
    private func withStore() throws -> Workspace {
        let workspace = Workspace()
        try workspace.writeCoreDataModel(StaleCompanionTests.itemModel, to: "Item.xcdatamodel")
        try workspace.write(Fixtures.itemModel, to: "model.json")
        let made = try workspace.sluice(["import", "--db", "App.sqlite", "--layout", "coredata", "--model", "Item.xcdatamodel",
                                         "--entity", "Item", "--quiet", "-"], stdin: Array(#"{"id": 1, "n": "one"}"#.utf8))
        try #require(made.status == 0, "\(made)")
        return workspace
    }

    @Test func aCoreDataStoreIsImportedAsOneWithoutLayout() throws {
        let workspace = try withStore()

        let result = try workspace.sluice(["import", "--db", "App.sqlite", "--model", "Item.xcdatamodel", "--entity", "Item", "-"],
                                          stdin: Array(#"{"id": 2, "n": "two"}"#.utf8))

        #expect(result.status == 0, "\(result)")
        #expect(result.noteLines == ["sluice: note: database 'App.sqlite' is a Core Data store: imported in Core Data's layout "
            + "(--layout coredata)"], "\(result)")
        let db = try workspace.database("App.sqlite")
        #expect(try db.rows("SELECT ZID, ZN FROM ZITEM ORDER BY ZID") == [[.integer(1), .text("one")], [.integer(2), .text("two")]])
        #expect(try db.tables() == ["ZITEM", "Z_METADATA", "Z_PRIMARYKEY"], "no table of Sluice's beside Core Data's")
    }

    struct Refused: Sendable, CustomTestStringConvertible {
        var name: String
        var arguments: [String]
        var testDescription: String { name }
    }

    static let refused: [Refused] = [
        Refused(name: "--layout sluice", arguments: ["--layout", "sluice", "--model", "Item.xcdatamodel", "--entity", "Item"]),
        Refused(name: "a JSON model", arguments: ["--model", "model.json"]),
        Refused(name: "a zero-config import", arguments: ["--table", "items"]),
    ]

    /// Each way of writing Sluice's layout into a Core Data store is refused before anything
    /// is written: exit 64, one line saying why, the file byte for byte as it was.
    @Test(arguments: refused)
    func sluicesLayoutIsNeverWrittenIntoACoreDataStore(_ refused: Refused) throws {
        let workspace = try withStore()
        let before = workspace.bytes(of: "App.sqlite")

        let result = try workspace.sluice(["import", "--db", "App.sqlite"] + refused.arguments + ["-"],
                                          stdin: Array(#"{"id": 2, "n": "two"}"#.utf8))

        #expect(result.status == 64, "\(result)")
        #expect(result.stderrLines.last == Self.refusal, "\(result)")
        #expect(result.stderrLines.filter { $0.hasPrefix("sluice: error:") }.count == 1, "\(result)")
        #expect(workspace.bytes(of: "App.sqlite") == before)
        #expect(workspace.contents == ["App.sqlite", "Item.xcdatamodel", "model.json"])
    }

    /// A store Core Data itself wrote (CartKit's, in WAL mode) is recognised the same way.
    @Test func aStoreTheAppWroteFollowsToo() throws {
        let workspace = Workspace()
        try CoreDataStoreCommandTests.copyCartKitStore(into: workspace, as: "Cart.sqlite")
        let model = PackageFiles.path(CoreDataStoreCommandTests.cartKitModel)

        let result = try workspace.sluice(["import", "--db", "Cart.sqlite", "--model", model, "--entity", "CDCart", "-"],
                                          stdin: Array("[]".utf8))

        #expect(result.status == 0, "\(result)")
        #expect(result.noteLines.first == "sluice: note: database 'Cart.sqlite' is a Core Data store: imported in Core Data's "
            + "layout (--layout coredata)", "\(result)")
        #expect(try workspace.database("Cart.sqlite").tables().allSatisfy { $0.hasPrefix("Z") }, "no table of Sluice's")
    }
}
