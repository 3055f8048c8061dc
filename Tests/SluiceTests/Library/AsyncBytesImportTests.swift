import Foundation
import SluiceTestSupport
import Testing
@testable import Sluice

/// `Importer.run(…, chunks:)`: bytes imported as they arrive, through real imports.
@Suite struct AsyncBytesImportTests {
    static let model = #"{"root": "V", "entities": {"V": {"table": "v", "identity": "id", "attributes": {"id": "integer", "name": "string"}}}}"#

    static func parsedModel() throws -> Model { try Model.parse(Array(model.utf8), sourceName: "model.json") }

    /// Three-byte chunks split every record, key, string and number: each record imports whole.
    @Test func recordsSplitAcrossChunksImportWhole() async throws {
        let directory = TemporaryDirectory()
        let bytes = Array(#"[{"id": 1, "name": "Zoë"}, {"id": 22, "name": "b"}, {"id": 333, "name": "c"}]"#.utf8)
        let chunks = AsyncStream<[UInt8]> { continuation in
            for start in stride(from: 0, to: bytes.count, by: 3) {
                continuation.yield(Array(bytes[start..<min(start + 3, bytes.count)]))
            }
            continuation.finish()
        }
        let report = try await Importer.run(.file(directory.file("v.sqlite"), model: try Self.parsedModel()),
                                            chunks: chunks, name: "feed.json")
        #expect(report.inserted == 3)
        #expect(report.sources == ["feed.json"])
        #expect(try query(directory.file("v.sqlite"), "SELECT id, name FROM v ORDER BY id")
            == [[.integer(1), .text("Zoë")], [.integer(22), .text("b")], [.integer(333), .text("c")]])
    }

    /// Gzip is told by its first bytes, as for a file, though they come one at a time.
    @Test func gzipInPiecesToo() async throws {
        let directory = TemporaryDirectory()
        let gzip = try Gzip.compress(Array("{\"a\": 1}\n{\"a\": 2}\n".utf8))
        let chunks = AsyncStream<[UInt8]> { continuation in
            for byte in gzip { continuation.yield([byte]) }
            continuation.finish()
        }
        let report = try await Importer.run(.file(directory.file("z.sqlite"), table: "t"), chunks: chunks)
        #expect(report.inserted == 2)
    }

    /// An error in the input names it and its place, as for a file; the failed import stops
    /// the sequence it reads (which would never end) instead of waiting for the rest.
    @Test func aBadRecordIsNamedByTheStreamsName() async throws {
        let directory = TemporaryDirectory()
        let chunks = AsyncStream<[UInt8]> { continuation in
            continuation.yield(Array("{\"id\": 1}\n{\"id\": ".utf8))
            continuation.yield(Array("\"x\"}\n".utf8) + Array(repeating: UInt8(ascii: "\n"), count: 64))
        }
        var options = ImportOptions()
        options.chunkSize = 16   // the import reads whole chunks: these fill from what was sent
        await #expect {
            _ = try await Importer.run(.file(directory.file("v.sqlite"), model: try Self.parsedModel()),
                                       options: options, chunks: chunks, name: "feed.ndjson")
        } throws: { error in
            (error as? SluiceError)?.kind == .data && "\(error)".hasPrefix("feed.ndjson:2:")
        }
        #expect(!FileManager.default.fileExists(atPath: directory.file("v.sqlite")))
    }

    /// The sequence fails: the import rolls back with a read error naming the stream.
    @Test func aFailingSequenceRollsBack() async throws {
        struct Broken: Error, CustomStringConvertible { var description: String { "connection reset" } }
        let directory = TemporaryDirectory()
        let chunks = AsyncThrowingStream<[UInt8], any Error> { continuation in
            continuation.yield(Array("{\"id\": 1}\n".utf8))
            continuation.finish(throwing: Broken())
        }
        await #expect {
            _ = try await Importer.run(.file(directory.file("v.sqlite"), model: try Self.parsedModel()),
                                       chunks: chunks, name: "download")
        } throws: { error in
            (error as? SluiceError)?.kind == .io && "\(error)" == "read error on 'download': connection reset"
        }
        #expect(!FileManager.default.fileExists(atPath: directory.file("v.sqlite")))
    }

    /// Cancelled mid-stream, while the import waits for the next chunk: rolled back,
    /// `.interrupted`, no database.
    @Test func cancellingMidStreamRollsBack() async throws {
        let directory = TemporaryDirectory()
        let database = directory.file("v.sqlite")
        let (chunks, continuation) = AsyncStream<[UInt8]>.makeStream()
        let model = try Self.parsedModel()
        let task = Task { try await Importer.run(.file(database, model: model), chunks: chunks) }
        continuation.yield(Array("{\"id\": 1}\n{\"id\": 2}\n{\"id".utf8))
        try await Task.sleep(for: .milliseconds(100))
        task.cancel()
        await #expect { _ = try await task.value } throws: { ($0 as? SluiceError)?.kind == .interrupted }
        #expect(!FileManager.default.fileExists(atPath: database))
    }
}
