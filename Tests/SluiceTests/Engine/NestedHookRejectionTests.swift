import Foundation
import Synchronization
import Testing
import SluiceTestSupport
@testable import Sluice

/// A hook that throws for a nested record rejects its top-level record whole (the unit of
/// rejection, `docs/import-semantics.md`): the top-level row, the nested records before and
/// after the failing one, and their `didImport` calls are all left out; the next record imports.
@Suite struct NestedHookRejectionTests {
    static let model = try! Model.parse(Array("""
        {"root": "Order", "entities": {
          "Order": {"table": "orders", "identity": "id", "attributes": {"id": "integer"},
                    "relationships": {"lines": {"entity": "Line", "toMany": true, "inverse": "order"}}},
          "Line": {"table": "lines", "identity": "sku", "attributes": {"sku": "string"}, "relationships": {"order": {"entity": "Order"}}}}}
        """.utf8), sourceName: "model.json")

    @Test func aNestedHooksErrorRejectsTheTopLevelRecordAndItsOtherNestedRecords() throws {
        let directory = TemporaryDirectory()
        let db = directory.file("out.sqlite")
        let imported = Mutex<[String]>([])
        var options = ImportOptions()
        options.onError = .skip
        options.rejectsPath = directory.file("rejects.ndjson")
        options.hooks = ["Line": EntityHooks(
            willImport: { record in
                if case .text("bad")? = record["sku"] { throw SluiceError(.data, "no bad skus") }
            },
            didImport: { record, _ in
                if case .text(let sku)? = record["sku"] { imported.withLock { $0.append(sku) } }
            })]
        let report = try {
            let importer = try Importer(databasePath: db, model: Self.model, options: options)
            try importer.importBytes(Array("""
                [{"id": 1, "lines": [{"sku": "a"}]},
                 {"id": 2, "lines": [{"sku": "b"}, {"sku": "bad"}, {"sku": "c"}]},
                 {"id": 3, "lines": [{"sku": "d"}]}]
                """.utf8), name: "in.json")
            return try importer.finish()
        }()

        #expect(try query(db, "SELECT id FROM orders ORDER BY id") == [[.integer(1)], [.integer(3)]])
        #expect(try query(db, "SELECT sku FROM lines ORDER BY sku") == [[.text("a")], [.text("d")]])
        #expect(imported.withLock { $0 } == ["a", "d"])
        #expect(report.entities.map(\.rejected) == [1, 0])
        let rejects = String(decoding: try Data(contentsOf: URL(fileURLWithPath: directory.file("rejects.ndjson"))), as: UTF8.self)
        #expect(rejects.split(separator: "\n").count == 1)
        #expect(rejects.contains(#""entity":"Order","reason":"Line willImport: no bad skus""#), "\(rejects)")
    }
}
