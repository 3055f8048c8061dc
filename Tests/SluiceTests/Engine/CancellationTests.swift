import Foundation
import SluiceTestSupport
import Testing
@testable import Sluice

/// `ImportCancellation`: a cancelled import rolls back and throws `.interrupted`.
@Suite struct CancellationTests {
    static let model: Model = try! Model.parse(Array("""
        { "root": "T", "entities": { "T": { "table": "t", "identity": "id",
          "attributes": { "id": "integer", "n": "string" } } } }
        """.utf8), sourceName: "model")

    static func records(_ range: Range<Int>) -> [UInt8] {
        Array(range.map { "{\"id\": \($0), \"n\": \"r\($0)\"}\n" }.joined().utf8)
    }

    @Test func cancelledBetweenInputsLeavesNoNewDatabase() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("new.sqlite")
        let cancellation = ImportCancellation()
        var options = ImportOptions()
        options.cancellation = cancellation
        options.batchSize = 10
        let importer = try Importer(databasePath: path, model: Self.model, options: options)
        try importer.importBytes(Self.records(0..<100))
        cancellation.cancel()

        let error = #expect(throws: SluiceError.self) { try importer.importBytes(Self.records(100..<200)) }
        #expect(error?.kind == .interrupted)
        #expect(error?.message == "import into database '\(path)' interrupted: nothing was written")
        #expect(directory.contents == [])
    }

    @Test func cancelledDuringAnImportLeavesAnExistingDatabaseAsItWas() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("old.sqlite")
        let first = try Importer(databasePath: path, model: Self.model)
        try first.importBytes(Self.records(0..<5))
        _ = try first.finish()

        let cancellation = ImportCancellation()
        var options = ImportOptions()
        options.cancellation = cancellation
        options.batchSize = 10
        options.chunkSize = 64
        let importer = try Importer(databasePath: path, model: Self.model, options: options)
        // Cancelled while the import runs, from a thread of its own.
        let bytes = Self.records(5..<200_000)
        Thread.detachNewThread { cancellation.cancel() }
        let error = #expect(throws: SluiceError.self) {
            try importer.importBytes(bytes)
            _ = try importer.finish()
        }
        #expect(error?.kind == .interrupted)
        let check = try Connection(path: path, mode: .readOnly)
        #expect(try check.scalar("SELECT count(*) FROM t") == .integer(5))
        #expect(try check.scalar("PRAGMA integrity_check") == .text("ok"))
    }

    @Test func theInterruptCheckStopsALongStatement() throws {
        let connection = try Connection(path: ":memory:")
        var steps = 0
        connection.setInterruptCheck(every: 100) {
            steps += 1
            return steps > 3
        }
        let error = #expect(throws: SQLiteError.self) {
            _ = try connection.rows("WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c")
        }
        #expect(error.map { SQLiteError.interrupt ~= $0 } == true)
        #expect(error?.sluiceError(database: "d").kind == .interrupted)
        connection.setInterruptCheck(nil)
        #expect(try connection.scalar("SELECT 1") == .integer(1))
    }
}
