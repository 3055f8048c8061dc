import Foundation
import SluiceTestSupport
import Testing

@testable import Sluice

/// The namespace of the Input layer's suites, so that `swift test --filter Input` runs them all.
enum InputTests {}

/// `bytes` compressed by the `gzip` tool (one member).
func gzip(_ bytes: [UInt8]) throws -> [UInt8] {
    try Gzip.compress(bytes)
}

/// Deterministic text that compresses well but is not a single repeated byte.
func sampleBytes(count: Int, seed: UInt64 = 1) -> [UInt8] {
    var state = seed
    let alphabet = Array("{\"id\": 42, \"name\": \"Östra station\", \"tags\": [true, null]}\n".utf8)
    return (0..<count).map { index in
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        // Mostly the alphabet in order, now and then a pseudo-random byte.
        return state >> 60 == 0 ? UInt8(truncatingIfNeeded: state >> 32) : alphabet[index % alphabet.count]
    }
}

/// Every byte of `source`, through a `ChunkReader`; checks that every chunk but the last is full.
func readAll(_ source: ByteSource, chunkSize: Int = 7) throws(SluiceError) -> [UInt8] {
    var reader = ChunkReader(source: source, chunkSize: chunkSize)
    var result: [UInt8] = []
    var shortChunkSeen = false
    while let chunk = try reader.next() {
        #expect(!shortChunkSeen, "only the last chunk may be short")
        #expect(chunk.count > 0 && chunk.count <= chunkSize)
        if chunk.count < chunkSize { shortChunkSeen = true }
        result.append(contentsOf: chunk)
    }
    #expect(reader.bytesRead == Int64(result.count))
    #expect(try reader.next() == nil, "the end stays the end")
    return result
}

/// A source that hands out at most `step` bytes per read, as a slow pipe does.
final class TrickleSource: ByteSource {
    private let inner: MemorySource
    private let step: Int

    init(_ bytes: [UInt8], step: Int = 1) {
        inner = MemorySource(bytes, name: "<trickle>")
        self.step = step
    }

    var name: String { inner.name }
    var expectedSize: Int64? { nil }
    var storedSize: Int64? { nil }
    var storedBytesRead: Int64 { inner.storedBytesRead }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws(SluiceError) -> Int {
        try inner.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer.prefix(step)))
    }
}

/// A source whose reads fail after `goodBytes` bytes.
final class FailingSource: ByteSource {
    private let inner: MemorySource
    private var remaining: Int

    init(_ bytes: [UInt8], goodBytes: Int) {
        inner = MemorySource(bytes, name: "<failing>")
        remaining = goodBytes
    }

    var name: String { inner.name }
    var expectedSize: Int64? { nil }
    var storedSize: Int64? { nil }
    var storedBytesRead: Int64 { inner.storedBytesRead }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws(SluiceError) -> Int {
        guard remaining > 0 else { throw SluiceError.readError(on: name, errno: EIO) }
        let count = try inner.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer.prefix(remaining)))
        remaining -= count
        return count
    }
}

/// The error `body` throws, or an issue when it throws none.
func sluiceError(_ body: () throws(SluiceError) -> Void) -> SluiceError? {
    do {
        try body()
    } catch {
        return error
    }
    Issue.record("expected a SluiceError")
    return nil
}
