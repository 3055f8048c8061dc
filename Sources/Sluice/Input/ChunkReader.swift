/// Reads a source in chunks of a fixed size (default 1 MiB) into reused buffers: one, or a
/// few taken in turn so that a chunk stays valid while the next ones are read (`ReadAhead`).
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
    private let buffers: Int
    private var nextBuffer = 0
    private var atEnd = false
    private var isFirstChunk = true

    static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// `buffers` chunks' worth of memory is allocated once.
    init(source: ByteSource, chunkSize: Int = 1 << 20, buffers: Int = 1) {
        precondition(chunkSize > 0, "a chunk holds at least one byte")
        precondition(buffers > 0, "a reader reads into at least one buffer")
        self.source = source
        self.chunkSize = chunkSize
        self.buffers = buffers
        self.buffer = ChunkBuffer(byteCount: chunkSize * buffers)
    }

    /// The next chunk, or nil at the end of the source. The bytes are valid until `buffers`
    /// more calls (with one buffer: only until the next call).
    mutating func next() throws(SluiceError) -> UnsafeRawBufferPointer? {
        guard !atEnd else { return nil }
        let offset = nextBuffer * chunkSize
        nextBuffer = (nextBuffer + 1) % buffers
        let storage = UnsafeMutableRawBufferPointer(rebasing: buffer.bytes[offset ..< offset + chunkSize])
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
        return UnsafeRawBufferPointer(rebasing: storage[start ..< filled])
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
