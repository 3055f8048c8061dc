import Foundation
import SluiceTestSupport
import Synchronization
import Testing
@testable import Sluice

/// `Importer.start`: an import's progress as an `AsyncSequence`, its report awaited, and
/// cancellation, through real imports.
@Suite struct ImportRunTests {
    static let model = #"{"root": "V", "entities": {"V": {"table": "v", "identity": "id", "attributes": {"id": "integer"}}}}"#

    static func records(_ count: Int, in directory: TemporaryDirectory, name: String = "v.ndjson") throws -> String {
        let path = directory.file(name)
        var text = ""
        for id in 0..<count { text += "{\"id\": \(id)}\n" }
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Small chunks make many progress values; whatever the consumer skips, what it sees is in
    /// order and ends with the final count, then the report.
    @Test func progressComesInOrderAndEndsWithTheFinalCount() async throws {
        let directory = TemporaryDirectory()
        let input = try Self.records(2_000, in: directory)
        var options = ImportOptions()
        options.chunkSize = 256
        let model = try Model.parse(Array(Self.model.utf8), sourceName: "model.json")
        let run = Importer.start(.file(directory.file("v.sqlite"), model: model), options: options, inputs: [input])
        var seen: [ImportProgress] = []
        for await progress in run.progress { seen.append(progress) }
        let report = try await run.report
        #expect(report.inserted == 2_000)
        #expect(!seen.isEmpty)
        #expect(zip(seen, seen.dropFirst()).allSatisfy { $0.records <= $1.records && $0.bytesRead <= $1.bytesRead })
        #expect(seen.last?.records == 2_000)
        #expect(seen.last?.stage.isFinishing == true)
        #expect(try query(directory.file("v.sqlite"), "SELECT count(*) FROM v") == [[.integer(2_000)]])
    }

    /// The callback in the options is still called, with every value.
    @Test func theOptionsCallbackStillHearsEveryValue() async throws {
        let directory = TemporaryDirectory()
        let input = try Self.records(100, in: directory)
        let calls = Mutex(0)
        var options = ImportOptions()
        options.chunkSize = 64
        options.progress = { _ in calls.withLock { $0 += 1 } }
        let run = Importer.start(.file(directory.file("z.sqlite"), table: "t"), options: options, inputs: [input])
        _ = try await run.report
        #expect(calls.withLock { $0 } > 10)
        var count = 0
        for await _ in run.progress { count += 1 }
        #expect(count <= 1, "newest-wins: at most the last value is still buffered")
    }

    /// Options whose progress callback holds the import at its first value until it is
    /// cancelled, so that the cancellation comes mid-import however slowly the consumer runs.
    static func heldAtFirstProgress() -> ImportOptions {
        let cancellation = ImportCancellation()
        var options = ImportOptions()
        options.chunkSize = 4_096
        options.cancellation = cancellation
        options.progress = { _ in
            while !cancellation.isCancelled { usleep(1_000) }
        }
        return options
    }

    /// `cancel()` while the progress is followed: the sequence ends, the report throws
    /// `.interrupted` and the new database does not exist.
    @Test func cancellingEndsTheSequenceAndRollsBack() async throws {
        let directory = TemporaryDirectory()
        let input = try Self.records(20_000, in: directory)
        let options = Self.heldAtFirstProgress()
        let model = try Model.parse(Array(Self.model.utf8), sourceName: "model.json")
        let database = directory.file("big.sqlite")
        let run = Importer.start(.file(database, model: model), options: options, inputs: [input])
        var seen = 0
        for await _ in run.progress {
            seen += 1
            if seen == 1 { run.cancel() }
        }
        await #expect(throws: SluiceError.self) { try await run.report }
        do {
            _ = try await run.report
        } catch {
            #expect(error.kind == .interrupted, "\(error)")
        }
        #expect(!FileManager.default.fileExists(atPath: database))
    }

    /// Cancelling the task that awaits the report cancels the import.
    @Test func cancellingTheAwaitingTaskCancelsTheImport() async throws {
        let directory = TemporaryDirectory()
        let input = try Self.records(20_000, in: directory)
        let model = try Model.parse(Array(Self.model.utf8), sourceName: "model.json")
        let database = directory.file("big.sqlite")
        let run = Importer.start(.file(database, model: model), options: Self.heldAtFirstProgress(), inputs: [input])
        let waiter = Task { try await run.report }
        var iterator = run.progress.makeAsyncIterator()
        _ = await iterator.next()
        waiter.cancel()
        await #expect { _ = try await waiter.value } throws: { ($0 as? SluiceError)?.kind == .interrupted }
        while await iterator.next() != nil {}
        #expect(!FileManager.default.fileExists(atPath: database))
    }

    @Test func aFailedImportEndsTheSequenceWithItsError() async throws {
        let directory = TemporaryDirectory()
        let input = directory.file("bad.ndjson")
        try "{\"id\": 1}\n{\"id\": \"x\"}\n".write(toFile: input, atomically: true, encoding: .utf8)
        let model = try Model.parse(Array(Self.model.utf8), sourceName: "model.json")
        let run = Importer.start(.file(directory.file("v.sqlite"), model: model), inputs: [input])
        for await _ in run.progress {}
        await #expect { _ = try await run.report } throws: { ($0 as? SluiceError)?.kind == .data }
    }

    /// What a Foundation `Progress` counts (Apple platforms): bytes of the size while reading,
    /// complete once the finish begins.
    @Test func foundationProgressUnits() {
        var progress = ImportProgress(bytesRead: 10, totalBytes: 40, records: 3, seconds: 0)
        #expect(progress.byteUnits == (10, 40))
        progress.totalBytes = nil
        #expect(progress.byteUnits == (10, -1))
        progress.stage = .linking(relationship: "StopTime.trip", done: 3, total: 10)
        #expect(progress.byteUnits == (10, 10))
        #expect(progress.stageDescription == "linking StopTime.trip (3 of 10)")
    }
}
