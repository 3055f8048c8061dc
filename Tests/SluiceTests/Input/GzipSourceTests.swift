import Testing
import SluiceTestSupport

@testable import Sluice

extension InputTests {
    @Suite("Input: gzip")
    struct GzipSourceTests {
        @Test("a gzip file is inflated transparently")
        func roundTrip() throws {
            let directory = TemporaryDirectory()
            let content = sampleBytes(count: 300_000)
            let path = try directory.write(try gzip(content), to: "records.json.gz")
            let source = try InputOpener.open(path: path)
            #expect(source is GzipSource)
            #expect(source.name == path)
            #expect(source.expectedSize == nil)
            let compressed = Int64(try #require(directory.bytes(of: "records.json.gz")).count)
            #expect(source.storedSize == compressed, "progress compares compressed bytes with the file")
            #expect(try readAll(source, chunkSize: 4_096) == content)
            #expect(source.storedBytesRead == compressed)
        }

        @Test("small buffers on both sides still give every byte")
        func tinyBuffers() throws {
            let content = sampleBytes(count: 5_000, seed: 7)
            let source = try GzipSource(wrapping: MemorySource(try gzip(content), name: "m.gz"), inputBufferSize: 5)
            #expect(try readAll(source, chunkSize: 7) == content)
        }

        @Test("gzip is recognised when the bytes arrive one at a time, as from a pipe")
        func trickle() throws {
            let content = sampleBytes(count: 2_000, seed: 3)
            let source = try InputOpener.decompressing(TrickleSource(try gzip(content)))
            #expect(source is GzipSource)
            #expect(try readAll(source, chunkSize: 7) == content)
        }

        @Test("concatenated members are read one after another, as gunzip does")
        func multiMember() throws {
            let directory = TemporaryDirectory()
            let first = Array("[{\"id\":1},\n".utf8) + sampleBytes(count: 10_000, seed: 2)
            let second = sampleBytes(count: 20_000, seed: 5)
            let third = Array("{\"id\":3}\n".utf8)
            let path = try directory.write(try gzip(first) + gzip(second) + gzip(third), to: "cat.json.gz")
            #expect(try readAll(InputOpener.open(path: path), chunkSize: 1_000) == first + second + third)
            // With buffers small enough that member boundaries fall inside and across reads.
            let tiny = try GzipSource(wrapping: MemorySource(try gzip(first) + gzip(second)), inputBufferSize: 3)
            #expect(try readAll(tiny, chunkSize: 7) == first + second)
        }

        @Test("an empty member is fine")
        func emptyMember() throws {
            let source = try InputOpener.decompressing(MemorySource(try gzip([]) + gzip([1, 2, 3])))
            #expect(try readAll(source) == [1, 2, 3])
        }

        @Test("truncated gzip data is a data error", arguments: [0.5, 0.99])
        func truncated(fraction: Double) throws {
            let directory = TemporaryDirectory()
            let content = sampleBytes(count: 50_000)
            let compressed = try gzip(content)
            let cut = Array(compressed.prefix(Int(Double(compressed.count) * fraction)))
            let path = try directory.write(cut, to: "cut.json.gz")
            let source = try InputOpener.open(path: path)
            let error = sluiceError { () throws(SluiceError) in _ = try readAll(source, chunkSize: 1 << 20) }
            #expect(error?.kind == .data)
            #expect(error?.message == "\(path): invalid gzip data: unexpected end of file")
        }

        @Test("the bytes before the damage are delivered, then the error")
        func partialThenError() throws {
            let content = sampleBytes(count: 50_000)
            let compressed = try gzip(content)
            let source = try GzipSource(wrapping: MemorySource(Array(compressed.dropLast(12)), name: "t.gz"))
            var reader = ChunkReader(source: source, chunkSize: 1_000)
            var delivered: [UInt8] = []
            let error = sluiceError { () throws(SluiceError) in
                while let chunk = try reader.next() { delivered.append(contentsOf: chunk) }
            }
            #expect(error?.kind == .data)
            #expect(!delivered.isEmpty)
            #expect(delivered == Array(content.prefix(delivered.count)))
        }

        @Test("corrupt gzip data is a data error with zlib's message")
        func corrupt() throws {
            var compressed = try gzip(sampleBytes(count: 10_000))
            compressed[3] = 0xE0  // reserved header flag bits
            let source = try InputOpener.decompressing(MemorySource(compressed, name: "bad.gz"))
            let error = sluiceError { () throws(SluiceError) in _ = try readAll(source) }
            #expect(error?.kind == .data)
            #expect(error?.message == "bad.gz: invalid gzip data: unknown header flags set")
        }

        @Test("a damaged checksum is caught")
        func badChecksum() throws {
            let content = sampleBytes(count: 1_000)
            var compressed = try gzip(content)
            compressed[compressed.count - 6] ^= 0xFF  // inside the CRC-32 of the trailer
            let source = try InputOpener.decompressing(MemorySource(compressed, name: "crc.gz"))
            let error = sluiceError { () throws(SluiceError) in _ = try readAll(source) }
            #expect(error?.kind == .data)
            #expect(error?.message == "crc.gz: invalid gzip data: incorrect data check")
        }

        @Test("bytes after a member that are not gzip are an error, not silently dropped")
        func trailingGarbage() throws {
            let compressed = try gzip(Array("[1]".utf8)) + Array("junk".utf8)
            let source = try InputOpener.decompressing(MemorySource(compressed, name: "g.gz"))
            let error = sluiceError { () throws(SluiceError) in _ = try readAll(source) }
            #expect(error?.kind == .data)
            #expect(error?.message == "g.gz: invalid gzip data: incorrect header check")
        }
    }
}
