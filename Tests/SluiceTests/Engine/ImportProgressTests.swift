import Synchronization
import SluiceTestSupport
import Testing
@testable import Sluice

/// `ImportOptions.progress`: called once per input chunk with bytes as stored, the total when
/// it is known, and the records so far.
@Suite struct ImportProgressTests {
    /// Collects the calls (the callback must be `@Sendable`).
    final class Calls: Sendable {
        private let calls = Mutex<[ImportProgress]>([])
        func append(_ progress: ImportProgress) { calls.withLock { $0.append(progress) } }
        var all: [ImportProgress] { calls.withLock { $0 } }
        /// The calls made while the inputs were read (before `.finishing` and the stages after it).
        var reading: [ImportProgress] { all.filter { $0.stage == .reading } }
    }

    static func options(chunkSize: Int, calls: Calls) -> ImportOptions {
        var options = ImportOptions()
        options.chunkSize = chunkSize
        options.progress = { calls.append($0) }
        return options
    }

    @Test func oncePerChunkWithBytesTotalAndRecords() throws {
        let directory = TemporaryDirectory()
        let input = CancellationTests.records(0..<100)  // NDJSON, one record per line
        let calls = Calls()
        let importer = try Importer(databasePath: directory.file("t.sqlite"), model: CancellationTests.model,
                                    options: Self.options(chunkSize: 256, calls: calls))
        try importer.importBytes(input)
        let report = try importer.finish()

        let all = calls.reading
        #expect(all.count == (input.count + 255) / 256)
        #expect(all.map(\.bytesRead) == all.indices.map { Int64(min(256 * ($0 + 1), input.count)) })
        #expect(all.allSatisfy { $0.totalBytes == Int64(input.count) })
        #expect(zip(all, all.dropFirst()).allSatisfy { $0.records <= $1.records && $0.seconds <= $1.seconds })
        #expect(all.last?.records == report.records)
        #expect(all.first.map { $0.records > 0 && $0.records < 100 } == true, "records so far, not the total")
        // Then as `finish()` begins: all read, the last batch, the indexes and the commit to come.
        let finishing = calls.all[all.count]
        #expect(finishing == ImportProgress(bytesRead: Int64(input.count), totalBytes: Int64(input.count),
                                            records: report.records, seconds: finishing.seconds, stage: .finishing))
        #expect(calls.all.last?.stage == .committing)
    }

    @Test func gzipCountsCompressedBytesAgainstTheFileSize() throws {
        let directory = TemporaryDirectory()
        let plain = CancellationTests.records(0..<2_000)
        let path = try directory.write(try gzip(plain), to: "in.json.gz")
        let size = Int64(try #require(directory.bytes(of: "in.json.gz")).count)
        let calls = Calls()
        let importer = try Importer(databasePath: directory.file("t.sqlite"), model: CancellationTests.model,
                                    options: Self.options(chunkSize: 4_096, calls: calls))
        try importer.importFile(path)
        let report = try importer.finish()

        #expect(report.bytes == Int64(plain.count), "the report counts the JSON itself")
        let all = calls.reading
        #expect(all.count > 1)
        #expect(all.allSatisfy { $0.totalBytes == size && $0.bytesRead <= size })
        #expect(all.last?.bytesRead == size)
        #expect(all.last?.records == 2_000)
    }

    @Test func severalInputsAddUp() throws {
        let directory = TemporaryDirectory()
        let first = try directory.write(CancellationTests.records(0..<10), to: "a.json")
        let second = try directory.write(CancellationTests.records(10..<30), to: "b.json")
        let firstSize = Int64(CancellationTests.records(0..<10).count)
        let secondSize = Int64(CancellationTests.records(10..<30).count)
        let calls = Calls()
        let importer = try Importer(databasePath: directory.file("t.sqlite"), model: CancellationTests.model,
                                    options: Self.options(chunkSize: 1 << 20, calls: calls))
        try importer.importFile(first)
        try importer.importFile(second)
        _ = try importer.finish()

        #expect(calls.reading.map(\.bytesRead) == [firstSize, firstSize + secondSize])
        #expect(calls.reading.map(\.totalBytes) == [firstSize, firstSize + secondSize])
        #expect(calls.reading.map(\.records) == [10, 30])
    }

    @Test func zeroConfigImportsReportToo() throws {
        let directory = TemporaryDirectory()
        let calls = Calls()
        let importer = try Importer(databasePath: directory.file("t.sqlite"), table: "t",
                                    options: Self.options(chunkSize: 64, calls: calls))
        let input = CancellationTests.records(0..<20)
        try importer.importBytes(input)
        _ = try importer.finish()
        #expect(calls.reading.last?.bytesRead == Int64(input.count))
        #expect(calls.reading.last?.records == 20)
    }
}
