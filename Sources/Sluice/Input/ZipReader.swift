/// Reads a zip archive's entries in order from their local headers, as the archive's bytes
/// stream past: no extraction, no seeking, no central directory (which is at the end), so an
/// archive is read from a pipe as from a file, in one pass and in bounded memory.
///
/// Each entry is a `ZipEntry`, a `ByteSource` of its uncompressed bytes: stored or deflate
/// (raw inflate through zlib), sizes from the local header or, for an entry written as a
/// stream, from the data descriptor after its data (with or without its signature; 8-byte
/// sizes when the header had a zip64 field), zip64 sizes, and the CRC-32 checked when the
/// entry ends. An encrypted entry, or one compressed with another method, is an error naming
/// it, and so is an entry whose path an earlier entry had: its bytes would be read twice,
/// where unzip keeps one of them. After the entries the central directory is read to its end
/// record, so that an archive cut anywhere is an error and not fewer entries, and each record
/// is held to the entry read of its name: the same CRC-32 and sizes (readers that seek, unzip
/// and ZIPFoundation, take the central directory's), and no entry one of them lists and not
/// the other (an entry hidden inside another's data, which a stream cannot tell apart).
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
    /// The entries so far by path, in archive order, with what each was once read and checked
    /// (nil when passed over unchecked). Each path is in the archive too (its local header, and
    /// again in the central directory), so this grows no faster than the archive does.
    private var entries: [String: (order: Int, checked: ZipEntry.Checked?)] = [:]

    static let localHeader: UInt32 = 0x0403_4B50
    static let dataDescriptor: UInt32 = 0x0807_4B50
    static let centralHeader: UInt32 = 0x0201_4B50
    static let digitalSignature: UInt32 = 0x0505_4B50
    static let zip64End: UInt32 = 0x0606_4B50
    static let zip64EndLocator: UInt32 = 0x0706_4B50
    static let end: UInt32 = 0x0605_4B50
    /// What may follow the last entry: the central directory, its end, or zip64's end record.
    static let endSignatures: Set<UInt32> = [centralHeader, end, zip64End]

    init(source: ByteSource, bufferSize: Int = 256 << 10) {
        precondition(bufferSize >= 46 + 2 * 0xFFFF, "a header and its name and extra field must fit the buffer")
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
            entries[entry.path]?.checked = entry.checked
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
            try readCentralDirectory()
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
        let zip64 = readZip64(extra: (start + 30 + nameLength)..<(start + 30 + nameLength + extraLength),
                              size: &uncompressedSize, compressedSize: &compressedSize)
        consume(30 + nameLength + extraLength)
        let name = "\(archiveName):\(path)"
        guard entries[path] == nil else {
            finished = true
            throw SluiceError(.data, "\(name): invalid zip archive: a second entry of this name (an archive holds each "
                + "path once; unzip would keep only one of them)")
        }
        entries[path] = (entries.count, nil)
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
            // A stored entry's end can be known only from its size. Empty, its descriptor is
            // next (CRC-32 and sizes 0) and then the next record; data that begins otherwise,
            // even with a descriptor's signature, cannot be told from its end as it streams.
            // (Cut short there, the entry's own checks say so.)
            let descriptor = 4 + 4 + 2 * (zip64 ? 8 : 4)
            var isEmpty = try fill(4) && u32(0) == Self.dataDescriptor
            if isEmpty, try fill(descriptor + 4) {
                isEmpty = (4..<descriptor).allSatisfy { buffer[start + $0] == 0 }
                    && (u32(descriptor) == Self.localHeader || Self.endSignatures.contains(u32(descriptor)))
            }
            guard isEmpty else {
                finished = true
                throw SluiceError(.data, "\(name): the entry is stored with its size after its data, "
                    + "which cannot be read as a stream")
            }
            entry.compressedSize = 0
        }
        current = entry
        return entry
    }

    /// Passes over the central directory and its end record, record by record, to the end
    /// record's comment: an archive that ends before is truncated. What follows the end record
    /// is not read.
    private func readCentralDirectory() throws(SluiceError) {
        let cut = "the archive ends inside its central directory (truncated?)"
        while true {
            guard try fill(4) else { throw damaged(cut) }
            let signature = u32(0)
            // Each record: its fixed part, then the lengths (at these offsets in it) of what follows.
            let record: (fixed: Int, lengths: [Int])
            switch signature {
            case Self.centralHeader:
                try checkCentralHeader()
                record = (46, [28, 30, 32])  // name, extra field, comment
            case Self.digitalSignature: record = (6, [4])
            case Self.zip64EndLocator: record = (20, [])
            case Self.end: record = (22, [20])  // comment
            case Self.zip64End:
                // Its size (after the size field itself) is an 8-byte field.
                guard try fill(12) else { throw damaged(cut) }
                let size = u64(4)
                consume(12)
                try skip(size, else: cut)
                continue
            default:
                throw damaged("no record of the central directory begins at offset \(offset) (a damaged archive)")
            }
            guard try fill(record.fixed) else { throw damaged(cut) }
            let length = record.lengths.reduce(UInt64(record.fixed)) { $0 + UInt64(u16($1)) }
            try skip(length, else: cut)
            if signature == Self.end { break }
        }
        if let (path, _) = entries.filter({ !listed.contains($0.key) }).min(by: { $0.value.order < $1.value.order }) {
            throw SluiceError(.data, "\(archiveName):\(path): invalid zip archive: its central directory does not list "
                + "this entry (readers that go by it would not see it)")
        }
    }

    /// The central directory's paths met so far.
    private var listed: Set<String> = []

    /// Holds the central directory record at `start` to the entry of its path.
    private func checkCentralHeader() throws(SluiceError) {
        let cut = damaged("the archive ends inside its central directory (truncated?)")
        guard try fill(46) else { throw cut }
        let nameLength = Int(u16(28)), extraLength = Int(u16(30))
        guard try fill(46 + nameLength + extraLength) else { throw cut }
        let path = String(decoding: UnsafeRawBufferPointer(rebasing: buffer[(start + 46)..<(start + 46 + nameLength)]),
                          as: UTF8.self)
        let name = "\(archiveName):\(path): invalid zip archive: "
        guard let entry = entries[path] else {
            throw SluiceError(.data, name + "its central directory lists this entry, which the archive does not hold "
                + "where readers that stream find entries (hidden inside another's data?)")
        }
        listed.insert(path)
        guard let read = entry.checked else { return }
        var compressed = UInt64(u32(20)), size = UInt64(u32(24))
        readZip64(extra: (start + 46 + nameLength)..<(start + 46 + nameLength + extraLength), size: &size,
                  compressedSize: &compressed)
        let crc = u32(16)
        let disagreement = crc != read.crc ? "CRC-32 \(Self.hex(crc)), the entry's is \(Self.hex(read.crc))"
            : compressed != read.compressedSize ? "\(compressed) bytes of data, the entry has \(read.compressedSize)"
            : size != read.size ? "it holds \(size) bytes, the entry \(read.size)" : nil
        if let disagreement {
            throw SluiceError(.data, name + "its central directory says " + disagreement)
        }
    }

    /// Zip64: the sizes that do not fit 32 bits (0xFFFFFFFF) are in the extra field 0x0001 of
    /// the buffer's bytes `extra`, in this order; true when there is one.
    @discardableResult
    private func readZip64(extra: Range<Int>, size: inout UInt64, compressedSize: inout UInt64) -> Bool {
        var found = false
        var field = extra.lowerBound
        while field + 4 <= extra.upperBound {
            let id = load16(field), length = Int(load16(field + 2))
            // A field that says it is longer than the extra field ends with it.
            let fieldEnd = min(field + 4 + length, extra.upperBound)
            if id == 0x0001 {
                found = true
                var value = field + 4
                if size == 0xFFFF_FFFF, value + 8 <= fieldEnd {
                    size = load64(value)
                    value += 8
                }
                if compressedSize == 0xFFFF_FFFF, value + 8 <= fieldEnd { compressedSize = load64(value) }
            }
            field += 4 + length
        }
        return found
    }

    static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return "0x" + String(repeating: "0", count: 8 - digits.count) + digits
    }

    /// Consumes `count` bytes, reading as it goes; `message` when the archive ends first.
    private func skip(_ count: UInt64, else message: String) throws(SluiceError) {
        var left = count
        while left > 0 {
            if available == 0, try !refill() { throw damaged(message) }
            let step = Int(min(UInt64(available), left))
            consume(step)
            left -= UInt64(step)
        }
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
