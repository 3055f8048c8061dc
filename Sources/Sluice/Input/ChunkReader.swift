/// Reads a source in chunks of a fixed size into one reused buffer (default 1 MiB).
///
/// Every chunk but the last is exactly `chunkSize` bytes: `next()` keeps reading until the
/// buffer is full or the source ends, so a pipe's short reads do not turn into many small
/// parser calls. The buffer is allocated once; copies of a reader share it.
struct ChunkReader {
    let source: ByteSource
    let chunkSize: Int
    /// Bytes returned so far (of the decompressed stream for gzip).
    private(set) var bytesRead: Int64 = 0
    private let buffer: ChunkBuffer
    private var atEnd = false

    init(source: ByteSource, chunkSize: Int = 1 << 20) {
        precondition(chunkSize > 0, "a chunk holds at least one byte")
        self.source = source
        self.chunkSize = chunkSize
        self.buffer = ChunkBuffer(byteCount: chunkSize)
    }

    /// The next chunk, or nil at the end of the source. The bytes are valid only until the
    /// next call.
    mutating func next() throws(SluiceError) -> UnsafeRawBufferPointer? {
        guard !atEnd else { return nil }
        let storage = buffer.bytes
        var filled = 0
        while filled < chunkSize {
            let count = try source.read(into: UnsafeMutableRawBufferPointer(rebasing: storage[filled...]))
            if count == 0 {
                atEnd = true
                break
            }
            filled += count
        }
        guard filled > 0 else { return nil }
        bytesRead += Int64(filled)
        return UnsafeRawBufferPointer(rebasing: storage[..<filled])
    }
}

/// Owns the chunk buffer so that the `ChunkReader` struct can free it.
private final class ChunkBuffer {
    let bytes: UnsafeMutableRawBufferPointer

    init(byteCount: Int) {
        bytes = .allocate(byteCount: byteCount, alignment: 16)
    }

    deinit {
        bytes.deallocate()
    }
}
