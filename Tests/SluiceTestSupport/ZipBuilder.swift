/// Zip archives for input tests, written byte by byte as the zip format (PKWARE APPNOTE 6.3)
/// lays them out: local headers and data, each form the reader must take (stored, deflate,
/// sizes in a data descriptor with or without its signature, zip64 sizes) and each way one
/// can be damaged, then the central directory that lists them (which the reader holds the
/// entries to) and its end record.
public struct ZipBuilder {
    public enum Method { case stored, deflate }
    public enum Descriptor { case none, withSignature, withoutSignature }

    public struct Entry {
        public var path: String
        public var data: [UInt8]
        public var method: Method = .deflate
        public var descriptor: Descriptor = .none
        public var zip64 = false
        /// Overrides: a wrong CRC, flags (encryption: bit 0), another method number.
        public var crc: UInt32?
        public var flags: UInt16 = 0
        public var methodNumber: UInt16?
        /// With a data descriptor: the local header gives the CRC and sizes too (`headerCRC`
        /// in place of the CRC there).
        public var headerSizes = false
        public var headerCRC: UInt32?
        /// What the central directory says instead, or that it does not list the entry.
        public var centralCRC: UInt32?
        public var centralSize: UInt64?
        public var listed = true

        public init(_ path: String, _ data: [UInt8], method: Method = .deflate, descriptor: Descriptor = .none,
                    zip64: Bool = false) {
            self.path = path
            self.data = data
            self.method = method
            self.descriptor = descriptor
            self.zip64 = zip64
        }
    }

    public var entries: [Entry]

    public init(_ entries: [Entry]) {
        self.entries = entries
    }

    /// The archive; deflate data is made by the `gzip` tool (real compression).
    public func bytes() throws -> [UInt8] {
        var out: [UInt8] = []
        var central: [UInt8] = []
        var listed = 0
        for entry in entries {
            let offset = out.count
            let compressed: [UInt8]
            switch entry.method {
            case .stored: compressed = entry.data
            case .deflate:
                // gzip -n: a 10-byte header, the raw deflate stream, an 8-byte trailer.
                let gzip = try Gzip.compress(entry.data)
                compressed = Array(gzip[10..<(gzip.count - 8)])
            }
            let crc = entry.crc ?? Gzip.crc32(entry.data)
            let sizesFollow = entry.descriptor != .none
            var flags = entry.flags | 0x0800  // UTF-8 names
            if sizesFollow { flags |= 0x0008 }
            let method = entry.methodNumber ?? (entry.method == .stored ? 0 : 8)
            let name = Array(entry.path.utf8)
            let inHeader = !sizesFollow || entry.headerSizes
            var extra: [UInt8] = []
            if entry.zip64 {
                extra = le16(0x0001) + le16(16)
                    + le64(inHeader ? UInt64(entry.data.count) : 0) + le64(inHeader ? UInt64(compressed.count) : 0)
            }
            out += le32(0x0403_4B50) + le16(45) + le16(flags) + le16(method) + le16(0) + le16(0x21)
            out += le32(inHeader ? entry.headerCRC ?? crc : 0)
            if entry.zip64 {
                out += le32(0xFFFF_FFFF) + le32(0xFFFF_FFFF)
            } else {
                out += le32(inHeader ? UInt32(compressed.count) : 0) + le32(inHeader ? UInt32(entry.data.count) : 0)
            }
            out += le16(UInt16(name.count)) + le16(UInt16(extra.count)) + name + extra + compressed
            if sizesFollow {
                if entry.descriptor == .withSignature { out += le32(0x0807_4B50) }
                out += le32(crc)
                out += entry.zip64 ? le64(UInt64(compressed.count)) + le64(UInt64(entry.data.count))
                    : le32(UInt32(compressed.count)) + le32(UInt32(entry.data.count))
            }
            guard entry.listed else { continue }
            // A zip64 entry's record gives its sizes in its own zip64 field.
            let size = entry.centralSize ?? UInt64(entry.data.count)
            let centralExtra = entry.zip64 ? le16(0x0001) + le16(16) + le64(size) + le64(UInt64(compressed.count)) : []
            central += le32(0x0201_4B50) + le16(45) + le16(45) + le16(flags) + le16(method) + le16(0) + le16(0x21)
            central += le32(entry.centralCRC ?? crc)
            central += entry.zip64 ? le32(0xFFFF_FFFF) + le32(0xFFFF_FFFF) : le32(UInt32(compressed.count)) + le32(UInt32(size))
            central += le16(UInt16(name.count)) + le16(UInt16(centralExtra.count)) + le16(0) + le16(0) + le16(0) + le32(0)
            central += le32(UInt32(offset)) + name + centralExtra
            listed += 1
        }
        let directory = out.count
        out += central
        out += le32(0x0605_4B50) + le16(0) + le16(0) + le16(UInt16(listed)) + le16(UInt16(listed))
        out += le32(UInt32(central.count)) + le32(UInt32(directory)) + le16(0)
        return out
    }

    /// The bytes of `archive` (made by `bytes()`) before its central directory.
    public static func entriesOnly(_ archive: [UInt8]) -> [UInt8] {
        let end = archive.count - 22
        let directory = (0..<4).reduce(0) { $0 | Int(archive[end + 16 + $1]) << (8 * $1) }
        return Array(archive[..<directory])
    }

    private func le16(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }
    private func le32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
    private func le64(_ value: UInt64) -> [UInt8] { (0..<8).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
}
