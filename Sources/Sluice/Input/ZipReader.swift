/// Reads a zip archive's entries in order from their local headers, as the archive's bytes
/// stream past: no extraction, no seeking, no central directory (which is at the end), so an
/// archive is read from a pipe as from a file, in one pass and in bounded memory.
///
/// Each entry is a `ZipEntry`, a `ByteSource` of its uncompressed bytes: stored or deflate
/// (raw inflate through zlib), sizes from the local header or, for an entry written as a
/// stream, from the data descriptor after its data (with or without its signature; 8-byte
/// sizes when the header had a zip64 field), zip64 sizes, and the CRC-32 checked when the
/// entry ends. An encrypted entry, or one compressed with another method, is an error naming
/// it. Reading stops at the central directory.
///
/// `docs/architecture.md` (Input) says why this is Sluice's own reader and not ZIPFoundation.
final class ZipReader {
    let archiveName: String
    private let source: ByteSource
    /// Unread bytes of the archive are `buffer[start..<end]`.
    private let buffer: UnsafeMutableRawBufferPointer
    private(set) var start = 0
    private(set) var end = 0
    private var sourceEnded = false
    /// The archive offset of `buffer[start]`, for messages.
    private var offset: Int64 = 0
    private var current: ZipEntry?
    private var finished = false
    /// The source's bytes counted by the entries before the current one.
    private var storedBefore: Int64 = 0

    static let localHeader: UInt32 = 0x0403_4B50
    static let dataDescriptor: UInt32 = 0x0807_4B50
    /// What may follow the last entry: the central directory, its end, or zip64's end record.
    static let endSignatures: Set<UInt32> = [0x0201_4B50, 0x0605_4B50, 0x0606_4B50]

    init(source: ByteSource, bufferSize: Int = 256 << 10) {
        precondition(bufferSize >= 1 << 17, "a local header (up to 128 KiB) must fit the buffer")
        self.source = source
        archiveName = source.name
        buffer = .allocate(byteCount: bufferSize, alignment: 16)
    }

    deinit {
        buffer.deallocate()
    }

    /// The next entry, or nil after the last. The entry before is read to its end first (its
    /// data skipped, its CRC checked) when its reader stopped before.
    func nextEntry() throws(SluiceError) -> ZipEntry? {
        if let entry = current {
            try entry.drain()
            current = nil
            storedBefore = source.storedBytesRead - Int64(end - start)
        }
        guard !finished else { return nil }
        guard try fill(4) else {
            finished = true
            throw damaged("the archive ends before its central directory (truncated?)")
        }
        let signature = u32(0)
        if Self.endSignatures.contains(signature) {
            finished = true
            return nil
        }
        guard signature == Self.localHeader else {
            finished = true
            throw damaged("no entry begins at offset \(offset) (not a zip archive, or a damaged one)")
        }
        guard try fill(30) else { throw damaged("the archive ends inside an entry's header (truncated?)") }
        let flags = u16(6), method = u16(8)
        let crc = u32(14)
        var compressedSize = UInt64(u32(18)), uncompressedSize = UInt64(u32(22))
        let nameLength = Int(u16(26)), extraLength = Int(u16(28))
        guard try fill(30 + nameLength + extraLength) else {
            throw damaged("the archive ends inside an entry's header (truncated?)")
        }
        let path = String(decoding: UnsafeRawBufferPointer(rebasing: buffer[(start + 30)..<(start + 30 + nameLength)]),
                          as: UTF8.self)
        // Zip64: the sizes that do not fit 32 bits are in the extra field 0x0001, in this order.
        var zip64 = false
        var field = start + 30 + nameLength
        let extraEnd = field + extraLength
        while field + 4 <= extraEnd {
            let id = load16(field), size = Int(load16(field + 2))
            // A field that says it is longer than the extra field ends with it.
            let fieldEnd = min(field + 4 + size, extraEnd)
            if id == 0x0001 {
                zip64 = true
                var value = field + 4
                if uncompressedSize == 0xFFFF_FFFF, value + 8 <= fieldEnd {
                    uncompressedSize = load64(value)
                    value += 8
                }
                if compressedSize == 0xFFFF_FFFF, value + 8 <= fieldEnd { compressedSize = load64(value) }
            }
            field += 4 + size
        }
        consume(30 + nameLength + extraLength)
        let name = "\(archiveName):\(path)"
        if flags & 0x0001 != 0 {
            finished = true
            throw SluiceError(.data, "\(name): the entry is encrypted: sluice reads archives without encryption")
        }
        guard method == 0 || method == 8 else {
            finished = true
            throw SluiceError(.data, "\(name): the entry is compressed with method \(method)\(Self.methodName(method)), "
                + "which sluice does not read: only stored (0) and deflate (8)")
        }
        let sizesFollow = flags & 0x0008 != 0
        let entry = try ZipEntry(reader: self, path: path, name: name, deflated: method == 8, crc: crc,
                                 compressedSize: sizesFollow && compressedSize == 0 ? nil : compressedSize,
                                 uncompressedSize: sizesFollow && uncompressedSize == 0 ? nil : uncompressedSize,
                                 descriptor: sizesFollow ? (zip64 ? 8 : 4) : nil)
        if method == 0, entry.compressedSize == nil {
            // A stored entry's end can be known only from its size. Empty, its descriptor is next.
            guard try fill(4), u32(0) == Self.dataDescriptor else {
                finished = true
                throw SluiceError(.data, "\(name): the entry is stored with its size after its data, "
                    + "which cannot be read as a stream")
            }
            entry.compressedSize = 0
        }
        current = entry
        return entry
    }

    // MARK: The entry's access to the archive's bytes

    var sourceStoredBytesRead: Int64 { source.storedBytesRead }
    var sourceStoredSize: Int64? { source.storedSize }
    var waitsForInput: Bool { source.waitsForInput }
    var storedBytesBeforeEntry: Int64 { storedBefore }
    var available: Int { end - start }
    var unread: UnsafeRawBufferPointer { UnsafeRawBufferPointer(rebasing: buffer[start..<end]) }

    /// Makes at least `count` bytes available (`count` at most the buffer's size); false when
    /// the archive ends first.
    func fill(_ count: Int) throws(SluiceError) -> Bool {
        while end - start < count {
            if sourceEnded { return false }
            if start > 0 {
                buffer.baseAddress!.copyMemory(from: buffer.baseAddress! + start, byteCount: end - start)
                end -= start
                start = 0
            }
            let read = try source.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[end...]))
            if read == 0 { sourceEnded = true } else { end += read }
        }
        return true
    }

    /// Reads more of the archive when nothing is left unread; false at its end.
    func refill() throws(SluiceError) -> Bool {
        try fill(max(available, 1))
    }

    func consume(_ count: Int) {
        start += count
        offset += Int64(count)
    }

    func u16(_ at: Int) -> UInt16 { load16(start + at) }
    func u32(_ at: Int) -> UInt32 { UInt32(load16(start + at)) | UInt32(load16(start + at + 2)) << 16 }
    func u64(_ at: Int) -> UInt64 { load64(start + at) }

    private func load16(_ index: Int) -> UInt16 { UInt16(buffer[index]) | UInt16(buffer[index + 1]) << 8 }
    private func load64(_ index: Int) -> UInt64 {
        (0..<8).reduce(UInt64(0)) { $0 | UInt64(buffer[index + $1]) << (8 * UInt64($1)) }
    }

    func damaged(_ message: String) -> SluiceError {
        SluiceError(.data, "\(archiveName): invalid zip archive: \(message)")
    }

    private static func methodName(_ method: UInt16) -> String {
        switch method {
        case 12: " (bzip2)"
        case 14: " (LZMA)"
        case 93: " (Zstandard)"
        case 95: " (xz)"
        case 99: " (AES encryption)"
        default: ""
        }
    }
}

@available(*, unavailable, message: "an archive is read by one thread at a time")
extension ZipReader: Sendable {}
