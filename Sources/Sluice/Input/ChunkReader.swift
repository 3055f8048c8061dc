/// Reads a source in chunks of a fixed size into one reused buffer (default 1 MiB).
///
/// Every chunk but the last is exactly `chunkSize` bytes: `next()` keeps reading until the
/// buffer is full or the source ends, so a pipe's short reads do not turn into many small
/// parser calls. The buffer is allocated once; copies of a reader share it.
///
/// A UTF-8 byte order mark (EF BB BF) that starts the input is left out of the first chunk:
/// it marks the encoding, it is not text. Windows tools write one (PowerShell's `Out-File
/// -Encoding utf8`); RFC 8259 lets a parser ignore it, and yajl would refuse it as an invalid
/// character. Positions in the text then count from the byte after it.
struct ChunkReader {
    let source: ByteSource
    let chunkSize: Int
    /// Bytes read so far (of the decompressed stream for gzip): those returned, and a byte
    /// order mark left out.
    private(set) var bytesRead: Int64 = 0
    private let buffer: ChunkBuffer
    private var atEnd = false
    private var isFirstChunk = true

    static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

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
        var start = 0
        if isFirstChunk {
            isFirstChunk = false
            // A chunk holds the whole mark unless the input is shorter than it.
            if storage.prefix(filled).starts(with: Self.byteOrderMark) { start = Self.byteOrderMark.count }
            if start == filled { return try next() }  // nothing but the mark: no empty chunk
        }
        return UnsafeRawBufferPointer(rebasing: storage[start..<filled])
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
