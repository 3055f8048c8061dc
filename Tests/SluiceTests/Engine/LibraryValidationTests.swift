import Testing
import SluiceTestSupport
@testable import Sluice

/// The library checks what it is given as the CLI does, with a thrown error, never a trap:
/// a model built in code, the options of an import, and calls after the import is over.
@Suite struct LibraryValidationTests {
    private let order = Model.Entity(
        name: "Order", table: "orders", identity: ["id"],
        attributes: [.init(name: "id", type: .integer), .init(name: "total", type: .double)],
        relationships: [.init(name: "customer", entity: "Customr")])

    /// The error `body` throws, which must be a `SluiceError`.
    private func sluiceError(_ body: () throws -> Void) -> SluiceError? {
        do {
            try body()
            return nil
        } catch let error as SluiceError {
            return error
        } catch {
            Issue.record("not a SluiceError: \(error)")
            return nil
        }
    }

    @Test func aRelationshipToAnUnknownEntityIsAModelProblem() throws {
        let model = Model(root: .entity("Order"), entities: [order])
        #expect(throws: ModelError(source: "model", problems: [
            ModelProblem(path: "entities.Order.relationships.customer.entity",
                         message: #"unknown entity "Customr"; the model has: Order"#),
        ])) { try model.validate() }
    }

    @Test func theImporterRefusesAnInvalidModelBeforeItOpensTheDatabase() throws {
        let directory = TemporaryDirectory()
        let db = directory.file("out.sqlite")
        let model = Model(root: .entity("Order"), entities: [order])
        let error = sluiceError { _ = try Importer(databasePath: db, model: model) }
        #expect(error?.kind == .usage)
        #expect(error?.message == #"entities.Order.relationships.customer.entity: unknown entity "Customr"; the model has: Order"#)
        #expect(!directory.exists("out.sqlite"))
    }

    @Test func anIdentityNamingNoAttributeIsRefusedWithASuggestion() throws {
        let model = Model(entities: [Model.Entity(name: "Item", identity: ["idd"], attributes: [.init(name: "id", type: .integer)])])
        let directory = TemporaryDirectory()
        let error = sluiceError { _ = try Importer(databasePath: directory.file("x.sqlite"), model: model) }
        #expect(error?.message == #"entities.Item.identity: "idd" is not an attribute or to-one relationship of Item; did you mean "id"?"#)
    }

    @Test func aValidModelValidates() throws {
        let customer = Model.Entity(name: "Customer", identity: ["id"], attributes: [.init(name: "id", type: .integer)])
        var fixed = order
        fixed.relationships[0].entity = "Customer"
        try Model(root: .entity("Order"), entities: [fixed, customer]).validate()
    }

    @Test(arguments: [
        ("batchSize", "ImportOptions.batchSize must be at least 1"),
        ("chunkSize", "ImportOptions.chunkSize must be at least 1 byte"),
        ("maxValueBytes", "ImportOptions.maxValueBytes must be at least 1"),
    ])
    func zeroSizesAreUsageErrors(option: String, message: String) throws {
        var options = ImportOptions()
        switch option {
        case "batchSize": options.batchSize = 0
        case "chunkSize": options.chunkSize = 0
        default: options.maxValueBytes = 0
        }
        let model = Model(entities: [Model.Entity(name: "Item", attributes: [.init(name: "id", type: .integer)])])
        let directory = TemporaryDirectory()
        let error = sluiceError { _ = try Importer(databasePath: directory.file("x.sqlite"), model: model, options: options) }
        #expect(error?.kind == .usage)
        #expect(error?.message == message)
        let zeroConfig = sluiceError { _ = try Importer(databasePath: directory.file("x.sqlite"), table: "t", options: options) }
        #expect(zeroConfig?.message == message)
    }

    @Test func optionsThatNeedAModelAreRefusedWithoutOne() throws {
        let directory = TemporaryDirectory()
        var options = ImportOptions()
        options.deleteMissing = true
        let deleting = sluiceError { _ = try Importer(databasePath: directory.file("x.sqlite"), table: "t", options: options) }
        #expect(deleting?.message == "ImportOptions.unresolved and ImportOptions.deleteMissing need a model: a zero-config import has no identities or relationships")
        #expect(throws: Never.self) { try options.validate(withModel: true) }
        options = ImportOptions()
        options.entity = "Item"
        let entity = sluiceError { _ = try Importer(databasePath: directory.file("x.sqlite"), table: "t", options: options) }
        #expect(entity?.message == "ImportOptions.entity needs a model: without a model, the records go to one table")
    }

    @Test func callsAfterTheImportIsOverThrow() throws {
        let directory = TemporaryDirectory()
        let importer = try Importer(databasePath: directory.file("x.sqlite"), table: "t")
        try importer.importBytes(Array(#"{"a": 1}"#.utf8))
        _ = try importer.finish()
        let again = sluiceError { _ = try importer.finish() }
        #expect(again?.message == "the import is over: finish() or cancel() was called before")
        let more = sluiceError { try importer.importBytes(Array("{}".utf8)) }
        #expect(more?.message == "the import is over: finish() or cancel() was called before")
        let cancelled = try Importer(databasePath: directory.file("y.sqlite"), table: "t")
        cancelled.cancel()
        #expect(sluiceError { try cancelled.importBytes(Array("{}".utf8)) }?.kind == .usage)
    }

    @Test func aValueOfTheWrongKindIsNamedWithItsArticle() throws {
        let model = Model(entities: [Model.Entity(name: "Item", attributes: [.init(name: "n", type: .integer)])])
        let directory = TemporaryDirectory()
        let error = sluiceError { _ = try importJSON(#"{"n": {"x": 1}}"#, model: model, into: directory.file("x.sqlite")) }
        #expect(error?.description == "in.json:1:1: Item.n: expected an integer, got an object")
    }
}
