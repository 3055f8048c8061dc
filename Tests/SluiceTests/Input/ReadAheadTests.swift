import Foundation
import SluiceTestSupport
import Synchronization
import Testing

@testable import Sluice

extension InputTests {
    @Suite struct ReadAheadTests {
        /// Bytes in memory that say whether they wait for input, and which threads read them.
        final class WatchedSource: ByteSource, @unchecked Sendable {
            private let inner: MemorySource
            private let failsAfter: Int?
            let waitsForInput: Bool
            /// Reads so far, and the threads they ran on; read by the test while another
            /// thread reads the source.
            let reads = Atomic<Int>(0)
            private let lock = Mutex<Set<UInt>>([])

            init(_ bytes: [UInt8], waitsForInput: Bool, failsAfter: Int? = nil) {
                inner = MemorySource(bytes, name: "<watched>")
                self.waitsForInput = waitsForInput
                self.failsAfter = failsAfter
            }

            var name: String { inner.name }
            var expectedSize: Int64? { nil }
            var storedSize: Int64? { nil }
            var storedBytesRead: Int64 { inner.storedBytesRead }
            var threads: Set<UInt> { lock.withLock { $0 } }

            func read(into buffer: UnsafeMutableRawBufferPointer) throws(SluiceError) -> Int {
                lock.withLock { _ = $0.insert(currentThreadID()) }
                defer { reads.add(1, ordering: .sequentiallyConsistent) }
                if let failsAfter, storedBytesRead >= Int64(failsAfter) {
                    throw SluiceError.readError(on: name, errno: EIO)
                }
                let room = failsAfter.map { min(buffer.count, $0 - Int(storedBytesRead)) } ?? buffer.count
                return try inner.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer.prefix(room)))
            }
        }

        private func everyByte(of reader: ReadAhead<Void>) throws(SluiceError) -> [UInt8] {
            var result: [UInt8] = []
            while let chunk = try reader.next()?.bytes { result.append(contentsOf: chunk) }
            return result
        }

        @Test func aSourceThatNeverWaitsIsReadOnAThreadOfItsOwn() throws {
            let bytes = sampleBytes(count: 10_000)
            let source = WatchedSource(bytes, waitsForInput: false)
            #expect(try everyByte(of: ReadAhead(source: source, chunkSize: 1_000)) == bytes)
            #expect(!source.threads.isEmpty && !source.threads.contains(currentThreadID()))
        }

        @Test func aSourceThatMayWaitIsReadWhereItIsParsed() throws {
            let bytes = sampleBytes(count: 10_000)
            let source = WatchedSource(bytes, waitsForInput: true)
            let reader = ReadAhead(source: source, chunkSize: 1_000)
            #expect(try everyByte(of: reader) == bytes)
            #expect(source.threads == [currentThreadID()])
            #expect(reader.bytesRead == 10_000 && reader.storedBytesRead == 10_000)
        }

        /// The threads `prepare` ran on; written by the reading thread, read by the test.
        final class Threads: @unchecked Sendable {
            private let lock = Mutex<Set<UInt>>([])
            func note() { lock.withLock { _ = $0.insert(currentThreadID()) } }
            var all: Set<UInt> { lock.withLock { $0 } }
        }

        /// Each chunk is prepared on the thread that read it (the reading thread, or the
        /// caller's for a source that may wait), and what was made of it comes with it.
        @Test(arguments: [false, true])
        func eachChunkIsPreparedWhereItIsRead(waitsForInput: Bool) throws {
            let bytes = sampleBytes(count: 10_000, seed: 5)
            let source = WatchedSource(bytes, waitsForInput: waitsForInput)
            let preparedOn = Threads()
            let reader = ReadAhead(source: source, chunkSize: 1_000) { chunk in
                preparedOn.note()
                return Array(chunk)
            }
            var chunks = 0
            while let chunk = try reader.next() {
                #expect(chunk.prepared == Array(chunk.bytes), "chunk \(chunks) came with another's")
                chunks += 1
            }
            #expect(chunks == 10)
            #expect(preparedOn.all == source.threads)
            #expect(preparedOn.all.contains(currentThreadID()) == waitsForInput)
        }

        /// The reading thread fills the next chunk while the last one is parsed, and no
        /// further: each chunk is checked only once the next one has been read.
        @Test func aChunkStaysIntactWhileTheNextIsRead() throws {
            let bytes = sampleBytes(count: 20_000, seed: 3)
            let source = WatchedSource(bytes, waitsForInput: false)
            let reader = ReadAhead(source: source, chunkSize: 1_000)
            var offset = 0
            while let chunk = try reader.next()?.bytes {
                // Chunk n is read by read n + 1 (a memory source fills a chunk in one read);
                // the one after it, or the end, by read n + 2.
                let chunkIndex = offset / 1_000
                guard eventually({ source.reads.load(ordering: .sequentiallyConsistent) >= chunkIndex + 2 }) else {
                    Issue.record("chunk \(chunkIndex + 1) is not read while chunk \(chunkIndex) is parsed")
                    return
                }
                usleep(200)  // room for a reading thread that would wrongly go on
                #expect(chunk.elementsEqual(bytes[offset ..< offset + chunk.count]),
                        "chunk \(chunkIndex) changed while the next one was read")
                offset += chunk.count
            }
            #expect(offset == bytes.count)
            #expect(reader.bytesRead == 20_000 && reader.storedBytesRead == 20_000)
        }

        @Test func aReadErrorComesAfterTheChunksBeforeIt() {
            let bytes = sampleBytes(count: 10_000)
            let reader = ReadAhead(source: WatchedSource(bytes, waitsForInput: false, failsAfter: 2_500),
                                   chunkSize: 1_000)
            var result: [UInt8] = []
            let error = sluiceError { () throws(SluiceError) in
                while let chunk = try reader.next()?.bytes { result.append(contentsOf: chunk) }
            }
            #expect(result == Array(bytes[..<2_000]), "the chunk the failure cut short is not handed out")
            #expect(error?.kind == .io)
            #expect(error?.message == "read error on '<watched>': \(String(cString: strerror(EIO)))")
        }

        @Test func aDroppedReaderStopsReading() throws {
            let source = WatchedSource(sampleBytes(count: 100_000), waitsForInput: false)
            do {
                let reader = ReadAhead(source: source, chunkSize: 1_000)
                _ = try reader.next()?.bytes
            }
            let reads = source.reads.load(ordering: .sequentiallyConsistent)
            #expect(reads <= 2, "one chunk taken, one read ahead")
            usleep(20_000)
            #expect(source.reads.load(ordering: .sequentiallyConsistent) == reads)
        }

        /// Progress counts compressed bytes; gzip's trailer is read only after the last
        /// inflated byte, and must be counted once the input ends.
        @Test func gzipIsInflatedAheadAndCountedToItsLastByte() throws {
            let bytes = sampleBytes(count: 4_000)
            let compressed = try gzip(bytes)
            // Compressed bytes taken 8 at a time: the trailer comes after the last full chunk.
            let source = try GzipSource(wrapping: MemorySource(compressed), inputBufferSize: 8)
            let reader = ReadAhead(source: source, chunkSize: 1_000)
            #expect(try everyByte(of: reader) == bytes)
            #expect(reader.bytesRead == 4_000)
            #expect(reader.storedBytesRead == Int64(compressed.count))
        }
    }
}
