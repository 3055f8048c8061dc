internal import CZlib

/// One entry of a zip archive being read (`ZipReader`): its uncompressed bytes as a source,
/// named `archive.zip:path/in/archive` in messages. The data is inflated (deflate) or copied
/// (stored) from the archive's bytes as they are read; at its end the data descriptor, if
/// any, is read, and the CRC-32 and sizes are checked: a damaged entry fails before its last
/// bytes count as read.
final class ZipEntry: ByteSource {
    /// The entry's path inside the archive (`gtfs/stops.txt`; a folder's ends with `/`).
    let path: String
    let name: String
    private unowned let reader: ZipReader
    private let deflated: Bool
    private let expectedCRC: UInt32
    /// From the local header; nil when they follow the data (then from the data descriptor).
    var compressedSize: UInt64?
    private let uncompressedSize: UInt64?
    /// The size of each size field of the data descriptor after the data (4, or 8 for zip64);
    /// nil when there is none.
    private let descriptor: Int?
    private var compressedRead: UInt64 = 0
    private var produced: UInt64 = 0
    private var crc: UInt = 0
    private var ended = false
    private var streamEnded = false
    private var stream: UnsafeMutablePointer<z_stream>?
    /// What the entry was, once read to its end and checked; what its central directory
    /// record must say (`ZipReader`). Nil when it was not (yet) read through.
    private(set) var checked: Checked?

    struct Checked {
        var crc: UInt32
        var compressedSize: UInt64
        var size: UInt64
    }

    init(reader: ZipReader, path: String, name: String, deflated: Bool, crc: UInt32, compressedSize: UInt64?,
         uncompressedSize: UInt64?, descriptor: Int?) throws(SluiceError) {
        self.reader = reader
        self.path = path
        self.name = name
        self.deflated = deflated
        expectedCRC = crc
        self.compressedSize = compressedSize
        self.uncompressedSize = uncompressedSize
        self.descriptor = descriptor
        guard deflated else { return }
        let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        stream.initialize(to: z_stream())
        let status = sluice_inflate_init_raw(stream)
        guard status == Z_OK else {
            stream.deinitialize(count: 1)
            stream.deallocate()
            throw SluiceError(.io, "\(name): cannot start deflate decompression (zlib error \(status))")
        }
        self.stream = stream
    }

    deinit {
        if let stream {
            inflateEnd(stream)
            stream.deinitialize(count: 1)
            stream.deallocate()
        }
    }

    var isDirectory: Bool { path.hasSuffix("/") }
    var expectedSize: Int64? { nil }
    /// What is left of the archive from this entry on, for progress.
    var storedSize: Int64? { reader.sourceStoredSize.map { $0 - reader.storedBytesBeforeEntry } }
    var storedBytesRead: Int64 { reader.sourceStoredBytesRead - reader.storedBytesBeforeEntry }
    var waitsForInput: Bool { reader.waitsForInput }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws(SluiceError) -> Int {
        guard !ended, let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
        let capacity = min(buffer.count, Int(UInt32.max))
        let count = deflated ? try inflate(into: base, capacity: capacity) : try copy(into: base, capacity: capacity)
        if count == 0 {
            try finish()
            return 0
        }
        produced += UInt64(count)
        crc = crc32(crc, base.assumingMemoryBound(to: Bytef.self), UInt32(count))
        return count
    }

    /// Reads what is left of the entry and checks it (an entry no input wanted, or one whose
    /// reader stopped before its end); `stop`, asked every 64 KiB, ends it early (the archive
    /// is then read no further).
    func drain(unless stop: () -> Bool = { false }) throws(SluiceError) {
        let scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 << 10, alignment: 16)
        defer { scratch.deallocate() }
        while !stop(), try read(into: scratch) > 0 {}
    }

    /// Passes over what is left of the entry without inflating or checking it, when the local
    /// header gave its size and no data descriptor follows: for a look at the entries' first
    /// bytes ahead of the import (`CSVHeaders`), which reads the archive again. Otherwise its
    /// end can only be found by reading it, as `drain` does.
    func skipUnchecked(unless stop: () -> Bool = { false }) throws(SluiceError) {
        guard !ended else { return }
        guard let size = compressedSize, descriptor == nil else { return try drain(unless: stop) }
        while compressedRead < size {
            if stop() { return }
            if reader.available == 0, try !reader.refill() { throw truncated() }
            let count = Int(min(UInt64(reader.available), size - compressedRead))
            reader.consume(count)
            compressedRead += UInt64(count)
        }
        ended = true
    }

    private func copy(into base: UnsafeMutableRawPointer, capacity: Int) throws(SluiceError) -> Int {
        let remaining = compressedSize! - compressedRead
        guard remaining > 0 else { return 0 }
        if reader.available == 0, try !reader.refill() { throw truncated() }
        let count = Int(min(UInt64(min(capacity, reader.available)), remaining))
        base.copyMemory(from: reader.unread.baseAddress!, byteCount: count)
        reader.consume(count)
        compressedRead += UInt64(count)
        return count
    }

    private func inflate(into base: UnsafeMutableRawPointer, capacity: Int) throws(SluiceError) -> Int {
        guard let stream, !streamEnded else { return 0 }
        stream.pointee.next_out = base.assumingMemoryBound(to: Bytef.self)
        stream.pointee.avail_out = UInt32(capacity)
        while true {
            // The compressed bytes left when the header gave their size: none left, zlib may
            // still have output to give.
            let limit = compressedSize.map { Int(min($0 - compressedRead, UInt64(Int.max))) } ?? Int.max
            // The archive ending here is the end only once zlib makes no more progress: what it
            // holds may still give output, or an error in its data, which comes first (as it
            // would have with the input whole and a larger output buffer).
            var archiveEnded = false
            if limit > 0, reader.available == 0, try !reader.refill() { archiveEnded = true }
            let input = UnsafeRawBufferPointer(rebasing: reader.unread.prefix(min(reader.available, limit, Int(UInt32.max))))
            stream.pointee.next_in = input.baseAddress.map { UnsafeMutablePointer(mutating: $0.assumingMemoryBound(to: Bytef.self)) }
            stream.pointee.avail_in = UInt32(input.count)
            let status = CZlib.inflate(stream, Z_NO_FLUSH)
            let consumed = input.count - Int(stream.pointee.avail_in)
            reader.consume(consumed)
            compressedRead += UInt64(consumed)
            let count = capacity - Int(stream.pointee.avail_out)
            switch status {
            case Z_STREAM_END:
                streamEnded = true
                return count
            case Z_OK, Z_BUF_ERROR:
                if count > 0 { return count }
                if archiveEnded { throw truncated() }
                if limit == 0 { throw damaged("its deflate data goes on past its compressed size") }
                // More input needed: the loop reads it.
            default:
                let message = stream.pointee.msg.map { String(cString: $0) } ?? "zlib error \(status)"
                throw damaged("invalid deflate data: \(message)")
            }
        }
    }

    /// The data ended: the descriptor after it, then the checks.
    private func finish() throws(SluiceError) {
        ended = true
        var crc = expectedCRC
        var sizes = (compressed: compressedSize, uncompressed: uncompressedSize)
        if let width = descriptor {
            guard try reader.fill(4) else { throw truncated() }
            if reader.u32(0) == ZipReader.dataDescriptor { reader.consume(4) }
            guard try reader.fill(4 + 2 * width) else { throw truncated() }
            crc = reader.u32(0)
            sizes = width == 8 ? (reader.u64(4), reader.u64(12)) : (UInt64(reader.u32(4)), UInt64(reader.u32(8)))
            reader.consume(4 + 2 * width)
            // The local header's, where it gives them too (not 0), must say the same.
            let header = expectedCRC != 0 && expectedCRC != crc ? "CRC-32 \(ZipReader.hex(expectedCRC)), its data descriptor "
                + ZipReader.hex(crc)
                : compressedSize.map { $0 != sizes.compressed } == true ? "\(compressedSize!) bytes of data, its data descriptor "
                + "\(sizes.compressed!)"
                : uncompressedSize.map { $0 != sizes.uncompressed } == true ? "it holds \(uncompressedSize!) bytes, its data "
                + "descriptor \(sizes.uncompressed!)" : nil
            if let header { throw damaged("its local header says " + header) }
        }
        if let size = sizes.compressed, size != compressedRead {
            throw damaged("its data is \(compressedRead) bytes, its header says \(size)")
        }
        if let size = sizes.uncompressed, size != produced {
            throw damaged("it holds \(produced) bytes, its header says \(size)")
        }
        guard UInt32(truncatingIfNeeded: self.crc) == crc else {
            throw damaged("CRC-32 mismatch (the archive is damaged)")
        }
        checked = Checked(crc: crc, compressedSize: compressedRead, size: produced)
    }

    private func truncated() -> SluiceError {
        ended = true
        return SluiceError(.data, "\(name): invalid zip archive: it ends inside this entry (truncated?)")
    }

    private func damaged(_ message: String) -> SluiceError {
        ended = true
        return SluiceError(.data, "\(name): invalid zip archive: \(message)")
    }
}
