import Foundation
import Testing
import SluiceTestSupport

@testable import Sluice

extension InputTests {
    @Suite("Input: files")
    struct FileSourceTests {
        @Test("a file comes back exactly through 7-byte chunks")
        func readsBackExactly() throws {
            let directory = TemporaryDirectory()
            let content = sampleBytes(count: 1_000)  // 142 full chunks and one of 6 bytes
            let path = try directory.write(content, to: "records.json")
            let source = try FileSource(path: path)
            #expect(source.name == path)
            #expect(source.expectedSize == 1_000)
            #expect(source.storedSize == 1_000)
            #expect(source.storedBytesRead == 0)
            #expect(try readAll(source, chunkSize: 7) == content)
            #expect(source.storedBytesRead == 1_000)
        }

        @Test("a chunk size that divides the file leaves no empty last chunk")
        func exactMultiple() throws {
            let directory = TemporaryDirectory()
            let content = sampleBytes(count: 70)
            let source = try FileSource(path: try directory.write(content, to: "a.json"))
            var reader = ChunkReader(source: source, chunkSize: 7)
            var chunks = 0
            while let chunk = try reader.next() {
                #expect(chunk.count == 7)
                chunks += 1
            }
            #expect(chunks == 10)
            #expect(reader.bytesRead == 70)
        }

        @Test("an empty file has no chunks")
        func emptyFile() throws {
            let directory = TemporaryDirectory()
            let source = try FileSource(path: try directory.write([], to: "empty.json"))
            #expect(source.expectedSize == 0)
            var reader = ChunkReader(source: source)
            #expect(try reader.next() == nil)
            #expect(reader.bytesRead == 0)
        }

        @Test("a missing file cannot be opened, with strerror's words")
        func missingFile() throws {
            let error = sluiceError { () throws(SluiceError) in _ = try FileSource(path: "x.json") }
            #expect(error?.kind == .cannotOpenInput)
            #expect(error?.message == "cannot open input 'x.json': No such file or directory")
            #expect(error?.position == nil)
        }

        @Test("a directory cannot be opened")
        func directory() throws {
            let directory = TemporaryDirectory()
            let error = sluiceError { () throws(SluiceError) in _ = try FileSource(path: directory.path) }
            #expect(error?.kind == .cannotOpenInput)
            #expect(error?.message == "cannot open input '\(directory.path)': Is a directory")
        }

        @Test("InputOpener reports a missing file the same way")
        func openerMissingFile() {
            let error = sluiceError { () throws(SluiceError) in _ = try InputOpener.open(path: "nope/x.json.gz") }
            #expect(error?.kind == .cannotOpenInput)
            #expect(error?.message == "cannot open input 'nope/x.json.gz': No such file or directory")
        }

        @Test("a plain file through InputOpener keeps its size and every byte")
        func openerPlainFile() throws {
            let directory = TemporaryDirectory()
            let content = Array("[{\"a\":1}]".utf8)
            let path = try directory.write(content, to: "plain.json")
            let source = try InputOpener.open(path: path)
            #expect(source.name == path)
            #expect(source.expectedSize == Int64(content.count))
            #expect(try readAll(source, chunkSize: 4) == content)
        }

        @Test("standard input is named <stdin>")
        func standardInputName() {
            #expect(FileSource.standardInput().name == "<stdin>")
        }

        @Test("a read error reaches the reader as an I/O error")
        func readError() {
            let source = FailingSource(sampleBytes(count: 100), goodBytes: 10)
            var reader = ChunkReader(source: source, chunkSize: 64)
            let error = sluiceError { () throws(SluiceError) in _ = try reader.next() }
            #expect(error?.kind == .io)
            #expect(error?.message == "read error on '<failing>': Input/output error")
        }

        // A cancelling signal that interrupts no read: it came between two reads (cancelled
        // before the read, `nil`), or went to another thread (cancelled while the read waits).
        // The writer writes after 5 s, so a read that waited for it fails the expectations
        // instead of hanging the suite.
        @Test("a cancellation that interrupts no read still stops a read of an idle pipe",
              arguments: [nil, 0.2])
        func cancelledWithoutInterruptingTheRead(after delay: Double?) throws {
            let pipe = Pipe()
            let cancellation = ImportCancellation()
            if let delay {
                DispatchQueue.global().asyncAfter(deadline: .now() + delay) { cancellation.cancel() }
            } else {
                cancellation.cancel()
            }
            let error = try Self.readIdle(pipe, stoppedBy: cancellation)
            #expect(error?.kind == .interrupted)
            #expect(error?.message == "reading '<pipe>' was interrupted")
        }

        private static func readIdle(_ pipe: Pipe, stoppedBy cancellation: ImportCancellation) throws -> SluiceError? {
            let source = FileSource(borrowing: pipe.fileHandleForReading.fileDescriptor, name: "<pipe>")
            #expect(source.waitsForInput)
            source.stopsWhenInterrupted = { cancellation.isCancelled }
            let writer = pipe.fileHandleForWriting
            DispatchQueue.global().asyncAfter(deadline: .now() + 5) { try? writer.write(contentsOf: Data([1])) }
            var buffer = [UInt8](repeating: 0, count: 16)
            return buffer.withUnsafeMutableBytes { bytes in
                sluiceError { () throws(SluiceError) in _ = try source.read(into: bytes) }
            }
        }
    }
}
