import Foundation
import SluiceTestSupport
import Testing
@testable import Sluice

/// `Importer.run`: an import awaited from async code, and cancelled with its task.
@Suite struct AsyncImportTests {
    static let model = #"{"root": "V", "entities": {"V": {"table": "v", "identity": "id", "attributes": {"id": "integer"}}}}"#

    @Test func anAwaitedImportReturnsItsReport() async throws {
        let directory = TemporaryDirectory()
        let input = directory.file("v.ndjson")
        try "{\"id\": 1}\n{\"id\": 2}\n".write(toFile: input, atomically: true, encoding: .utf8)
        let model = try Model.parse(Array(Self.model.utf8), sourceName: "model.json")
        let report = try await Importer.run(.file(directory.file("v.sqlite"), model: model), inputs: [input])
        #expect(report.inserted == 2)
        #expect(try query(directory.file("v.sqlite"), "SELECT id FROM v ORDER BY id") == [[.integer(1)], [.integer(2)]])
    }

    @Test func aZeroConfigImportToo() async throws {
        let directory = TemporaryDirectory()
        let input = directory.file("v.ndjson")
        try "{\"a\": \"x\"}\n".write(toFile: input, atomically: true, encoding: .utf8)
        let report = try await Importer.run(.file(directory.file("z.sqlite"), table: "t"), inputs: [input])
        #expect(report.inserted == 1)
    }

    /// The task is cancelled while the import runs: it stops, throws `.interrupted`, and the
    /// new database is not created. (Half a million records take seconds in a debug build;
    /// the cancellation comes after 50 ms.)
    @Test func cancellingTheTaskCancelsTheImport() async throws {
        let directory = TemporaryDirectory()
        let input = directory.file("big.ndjson")
        var text = ""
        text.reserveCapacity(10_000_000)
        for id in 0..<500_000 { text += "{\"id\": \(id)}\n" }
        try text.write(toFile: input, atomically: false, encoding: .utf8)
        let model = try Model.parse(Array(Self.model.utf8), sourceName: "model.json")
        let database = directory.file("big.sqlite")
        let task = Task { try await Importer.run(.file(database, model: model), inputs: [input]) }
        try await Task.sleep(for: .milliseconds(50))
        task.cancel()
        do {
            _ = try await task.value
            Issue.record("the import finished though its task was cancelled")
        } catch let error as SluiceError {
            #expect(error.kind == .interrupted, "\(error)")
        }
        #expect(!FileManager.default.fileExists(atPath: database))
    }

    @Test func aTaskCancelledBeforeTheImportStartsImportsNothing() async throws {
        let directory = TemporaryDirectory()
        let input = directory.file("v.ndjson")
        try "{\"id\": 1}\n".write(toFile: input, atomically: true, encoding: .utf8)
        let model = try Model.parse(Array(Self.model.utf8), sourceName: "model.json")
        let database = directory.file("v.sqlite")
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await Importer.run(.file(database, model: model), inputs: [input])
        }
        do {
            _ = try await task.value
            Issue.record("the import ran though its task was cancelled")
        } catch let error as SluiceError {
            #expect(error.kind == .interrupted, "\(error)")
        }
        #expect(!FileManager.default.fileExists(atPath: database))
    }
}
