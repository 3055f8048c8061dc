@_spi(Fuzzing) import Sluice

/// The zip target's structured mode (byte 0's bit 7): the fuzz bytes describe an archive
/// (entries with names, data, stored or deflate, data descriptors, zip64 sizes, a central
/// directory), which is written here byte by byte, then maybe damaged in one known way (cut
/// short, a size, CRC or descriptor changed, the central directory broken). What the reader
/// must say is known from the description (`docs/cli.md`, zip archives): the entries written,
/// in order and byte for byte, then the error of the first problem, naming its entry; a name
/// given twice refused at its second entry; a CRC-32 or size that the local header, a data
/// descriptor and the central directory do not all say alike refused naming the entry; never a
/// different list of entries.
struct ZipDescription {
    enum Descriptor: Equatable { case none, withSignature, withoutSignature }

    struct Entry {
        var name: [UInt8]
        var data: [UInt8]
        var deflated: Bool
        var descriptor: Descriptor
        var zip64: Bool
        /// With a descriptor, whether the local header gives the sizes and CRC too.
        var headerSizes: Bool
        /// Deflate data as several stored blocks of at most this many bytes (0: one block).
        var blockSize: Int
        var path: String { String(decoding: name, as: UTF8.self) }
    }

    enum Damage {
        case none
        case cut(Int)
        /// The size the reader takes for the entry's data or its content, changed.
        case size(entry: Int, compressed: Bool, delta: UInt32)
        case crc(entry: Int)
        /// A field of the data descriptor (0 CRC, 1 compressed size, 2 size) changed.
        case descriptor(entry: Int, field: Int, delta: UInt32)
        /// A field of the entry's central directory record (0 CRC, 1 compressed size, 2 size) changed.
        case central(entry: Int, field: Int, delta: UInt32)
        /// A byte of the central directory's signatures changed.
        case centralDirectory(record: Int)
    }

    var entries: [Entry] = []
    var damage = Damage.none
    var comment: [UInt8] = []

    /// Names often given twice or equal only as Swift strings (canonical equivalence), so that
    /// both the refusal of a second entry of a path and the different paths are reached.
    static let names: [String] = ["a.txt", "b.csv", "dir/", "dir/a.txt", "A.txt", "\u{E9}.txt", "e\u{301}.txt",
                                  "stops.txt", "", "__MACOSX/._a.txt", "x/../a.txt", "data.json"]

    init(_ bytes: [UInt8]) {
        var input = ByteCursor(bytes)
        let count = Int(input.next() % 5) + 1
        for _ in 0..<count {
            let choice = input.next()
            let name: [UInt8]
            if choice < 192 {
                name = Array(Self.names[Int(choice) % Self.names.count].utf8)
            } else {
                name = input.take(Int(choice % 8))
            }
            let flags = input.next()
            let descriptor: Descriptor = [.none, .withSignature, .withoutSignature, .none][Int(flags >> 1) & 3]
            var data = input.take(Int(input.next() % 48))
            // A stored entry of unknown size whose data begins with an empty entry's data
            // descriptor (its signature, then zeros as far as the data goes) is read as empty
            // as it streams, the rest as what follows (only the central directory then tells);
            // data that begins with the signature and anything else is refused (`expected`).
            let width = flags & 8 != 0 ? 8 : 4
            if flags & 1 == 0, data.starts(with: [0x50, 0x4B, 0x07, 0x08]),
               data[4..<min(data.count, 8 + 2 * width)].allSatisfy({ $0 == 0 }) {
                data[0] = 0x51
            }
            entries.append(Entry(name: name, data: data, deflated: flags & 1 != 0, descriptor: descriptor,
                                 zip64: flags & 8 != 0, headerSizes: flags & 0x10 != 0,
                                 blockSize: flags & 0x20 != 0 ? Int(flags >> 6) + 1 : 0))
        }
        let damage = input.next(), which = Int(input.next()) % count
        let delta = UInt32(input.next()) + 1
        switch damage % 10 {
        case 3: self.damage = .central(entry: which, field: Int(damage >> 4) % 3, delta: delta)
        case 4, 5: self.damage = .cut(Int(input.next()) | Int(input.next()) << 8)
        case 6: self.damage = .size(entry: which, compressed: damage & 0x10 != 0, delta: delta)
        case 7: self.damage = .crc(entry: which)
        case 8: self.damage = .descriptor(entry: which, field: Int(damage >> 4) % 3, delta: delta)
        case 9: self.damage = .centralDirectory(record: Int(damage >> 4) % (count + 1))
        default: self.damage = .none
        }
        comment = input.take(Int(input.next() % 4))
    }

    /// Where each part of an entry is in the written archive.
    struct Layout {
        var header = 0, data = 0, descriptor = 0, end = 0
        /// The offsets of the size fields the reader takes (compressed, uncompressed) and the CRC.
        var compressedField = 0, sizeField = 0, sizeWidth = 4, crcField = 0
    }

    /// The archive, the layout of each entry, and where the central directory starts.
    func archive() -> (bytes: [UInt8], layouts: [Layout], centralDirectory: Int, records: [Int]) {
        var out: [UInt8] = []
        var layouts: [Layout] = []
        for entry in entries {
            var layout = Layout()
            layout.header = out.count
            let compressed = entry.deflated ? storedDeflate(entry.data, blockSize: entry.blockSize) : entry.data
            let crc = crc32(entry.data)
            let follows = entry.descriptor != .none
            let inHeader = !follows || entry.headerSizes
            let flags: UInt16 = 0x0800 | (follows ? 0x0008 : 0)
            out += le32(0x0403_4B50) + le16(45) + le16(flags) + le16(entry.deflated ? 8 : 0) + le16(0) + le16(0x21)
            layout.crcField = out.count
            out += le32(inHeader ? crc : 0)
            layout.compressedField = out.count
            layout.sizeField = out.count + 4
            if entry.zip64 {
                out += le32(0xFFFF_FFFF) + le32(0xFFFF_FFFF)
            } else {
                out += le32(inHeader ? UInt32(compressed.count) : 0) + le32(inHeader ? UInt32(entry.data.count) : 0)
            }
            let extra = entry.zip64 ? le16(0x0001) + le16(16)
                + le64(inHeader ? UInt64(entry.data.count) : 0) + le64(inHeader ? UInt64(compressed.count) : 0) : []
            out += le16(UInt16(entry.name.count)) + le16(UInt16(extra.count)) + entry.name
            if entry.zip64 {
                layout.sizeField = out.count + 4
                layout.compressedField = out.count + 12
                layout.sizeWidth = 8
            }
            out += extra
            layout.data = out.count
            out += compressed
            layout.descriptor = out.count
            if follows {
                if entry.descriptor == .withSignature { out += le32(0x0807_4B50) }
                out += le32(crc)
                out += entry.zip64 ? le64(UInt64(compressed.count)) + le64(UInt64(entry.data.count))
                    : le32(UInt32(compressed.count)) + le32(UInt32(entry.data.count))
            }
            layout.end = out.count
            layouts.append(layout)
        }
        let centralDirectory = out.count
        var records: [Int] = []
        for (entry, layout) in zip(entries, layouts) {
            records.append(out.count)
            out += le32(0x0201_4B50) + le16(45) + le16(45) + le16(0x0800) + le16(entry.deflated ? 8 : 0) + le32(0x21)
            out += le32(crc32(entry.data)) + le32(UInt32(layout.descriptor - layout.data)) + le32(UInt32(entry.data.count))
            out += le16(UInt16(entry.name.count)) + le16(0) + le16(0) + le16(0) + le16(0) + le32(0)
            out += le32(UInt32(layout.header)) + entry.name
        }
        records.append(out.count)
        out += le32(0x0605_4B50) + le16(0) + le16(0) + le16(UInt16(entries.count)) + le16(UInt16(entries.count))
        out += le32(UInt32(out.count - 12 - centralDirectory)) + le32(UInt32(centralDirectory))
        out += le16(UInt16(comment.count)) + comment
        return (out, layouts, centralDirectory, records)
    }

    /// The archive with its damage, and what `Fuzzing.readZip` must give for it: the lines
    /// before the error exactly, then either no error (nil) or an error line that starts with
    /// the returned prefix.
    func expected() -> (archive: [UInt8], lines: [String], error: String?) {
        var (bytes, layouts, centralDirectory, records) = archive()
        var cut = bytes.count
        var damaged: Int?  // the entry whose check must fail
        switch damage {
        case .none: break
        case .cut(let at): cut = at % bytes.count
        case .size(let index, let compressed, let delta):
            let entry = entries[index], layout = layouts[index]
            // Beside a descriptor, the header's sizes are held to it where given (not 0); a
            // compressed size of 0 made another makes an entry of known size, no damage.
            // A size not given (0) made the true one is no damage either.
            let field = compressed ? layout.compressedField : layout.sizeField
            guard entry.descriptor == .none || !compressed || layout.descriptor > layout.data && entry.headerSizes else { break }
            let truth = compressed ? layout.descriptor - layout.data : entry.data.count
            guard entry.descriptor == .none || entry.headerSizes || Int(delta) != truth else { break }
            add(delta, at: field, width: layout.sizeWidth, in: &bytes)
            damaged = index
        case .crc(let index):
            // Beside a descriptor, a CRC-32 in the header (not 0) is held to the descriptor's:
            // the header's made 0 (a true 0xFFFFFFFF, plus 1) is one not given, and one made
            // the true CRC (0 not given, plus 1) agrees; neither is damage.
            let entry = entries[index]
            let changed = (entry.headerSizes ? crc32(entry.data) : 0) &+ 1
            guard entry.descriptor == .none || changed != 0 && changed != crc32(entry.data) else { break }
            add(1, at: layouts[index].crcField, width: 4, in: &bytes)
            damaged = index
        case .descriptor(let index, let field, let delta):
            let entry = entries[index], layout = layouts[index]
            guard entry.descriptor != .none else { break }
            let start = layout.descriptor + (entry.descriptor == .withSignature ? 4 : 0)
            let width = entry.zip64 ? 8 : 4
            add(field == 0 ? 1 : delta, at: field == 0 ? start : start + 4 + (field - 1) * width,
                width: field == 0 ? 4 : width, in: &bytes)
            damaged = index
        case .centralDirectory(let record):
            bytes[records[record]] ^= 0x20
        case .central(let index, let field, let delta):
            add(delta, at: records[index] + 16 + 4 * field, width: 4, in: &bytes)
        }
        let total = bytes.count
        bytes.removeLast(total - cut)

        var lines: [String] = []
        var seen: Set<String> = []
        for (index, (entry, layout)) in zip(entries, layouts).enumerated() {
            let name = "fuzz.zip:\(entry.path)"
            let archiveError = "fuzz.zip: invalid zip archive: "
            if cut < layout.header + 4 { return (bytes, lines, archiveError + "the archive ends before its central directory (truncated?)") }
            if cut < layout.data { return (bytes, lines, archiveError + "the archive ends inside an entry's header (truncated?)") }
            guard seen.insert(entry.path).inserted else {
                return (bytes, lines, name + ": invalid zip archive: a second entry of this name")
            }
            // A stored entry's end is known only from its size; an empty one's descriptor is next.
            let sizeUnknown = entry.descriptor != .none && (!entry.headerSizes || layout.descriptor == layout.data)
            let skipped = index % 2 == 1
            if !entry.deflated, sizeUnknown {
                // Read as empty only at an empty descriptor (the signature, zeros) and the next
                // record's signature; cut short before those are all there, taken as empty and
                // refused by its own checks if it was not.
                let at = layout.data, length = 8 + 2 * (entry.zip64 ? 8 : 4)
                let stored = name + ": the entry is stored with its size after its data"
                guard at + 4 <= cut, Array(bytes[at..<(at + 4)]) == [0x50, 0x4B, 0x07, 0x08] else { return (bytes, lines, stored) }
                if at + length + 4 <= cut {
                    let next = (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[at + length + $1]) << (8 * UInt32($1)) }
                    guard bytes[(at + 4)..<(at + length)].allSatisfy({ $0 == 0 }),
                          [0x0403_4B50, 0x0201_4B50, 0x0605_4B50, 0x0606_4B50].contains(next) else { return (bytes, lines, stored) }
                } else if !entry.data.isEmpty {
                    if skipped { lines.append("skipped \(entry.path)") }
                    return (bytes, lines, name + ": invalid zip archive: ")
                }
            }
            if skipped { lines.append("skipped \(entry.path)") }
            if damaged == index { return (bytes, lines, name + ": invalid zip archive: ") }
            if cut < layout.end { return (bytes, lines, name + ": invalid zip archive: it ends inside this entry (truncated?)") }
            if !skipped { lines.append("entry \(entry.path) \(entry.data.count) \(fnv1a(entry.data))") }
        }
        let archiveError = "fuzz.zip: invalid zip archive: "
        if cut < centralDirectory + 4 {
            return (bytes, lines, archiveError + "the archive ends before its central directory (truncated?)")
        }
        if case .centralDirectory(let record) = damage {
            return (bytes, lines, archiveError + (record == 0 ? "no entry begins at offset \(centralDirectory)"
                : "no record of the central directory begins at offset \(records[record])"))
        }
        if case .central(let index, _, _) = damage {
            guard cut >= records[index] + 46 + entries[index].name.count else {
                return (bytes, lines, archiveError + "the archive ends inside its central directory (truncated?)")
            }
            return (bytes, lines, "fuzz.zip:\(entries[index].path): invalid zip archive: its central directory says ")
        }
        if cut < total {
            return (bytes, lines, archiveError + "the archive ends inside its central directory (truncated?)")
        }
        return (bytes, lines, nil)
    }
}

/// Checks the zip reader against a described archive (`ZipDescription`), read whole and in
/// short reads and small chunks.
func fuzzZipDescribed(_ readSize: Int, _ chunkSize: Int, _ input: [UInt8]) -> Int32 {
    let description = ZipDescription(input)
    let (archive, lines, error) = description.expected()
    for (read, chunk) in [(max(archive.count, 1), 1 << 16), (readSize, chunkSize)] {
        let got = Fuzzing.readZip(archive, readSize: read, chunkSize: chunk)
        var wanted = lines
        if let error { wanted.append("error " + error) }
        let matches = error == nil ? got == lines
            : got.count == wanted.count && Array(got.dropLast()) == lines && got.last!.hasPrefix(wanted.last!)
        if !matches { report("zip: not the described archive's entries (reads of \(read), chunks \(chunk))", wanted, got) }
    }
    return 0
}

/// Bytes of a fuzz input taken in order; zeros once it runs out.
struct ByteCursor {
    private let bytes: [UInt8]
    private var position = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    mutating func next() -> UInt8 {
        defer { position += 1 }
        return position < bytes.count ? bytes[position] : 0
    }

    mutating func take(_ count: Int) -> [UInt8] { (0..<count).map { _ in next() } }
}

/// Raw deflate made of stored blocks (RFC 1951 3.2.4): real deflate data zlib must read,
/// written without a compressor. `blockSize` 0: one block.
private func storedDeflate(_ data: [UInt8], blockSize: Int) -> [UInt8] {
    let step = blockSize > 0 ? blockSize : max(data.count, 1)
    var out: [UInt8] = []
    var start = 0
    repeat {
        let end = min(start + step, data.count)
        out.append(end == data.count ? 1 : 0)  // BFINAL, BTYPE 00
        out += le16(UInt16(end - start)) + le16(~UInt16(end - start)) + data[start..<end]
        start = end
    } while start < data.count
    return out
}

private func add(_ delta: UInt32, at offset: Int, width: Int, in bytes: inout [UInt8]) {
    var value: UInt64 = 0
    for index in 0..<width { value |= UInt64(bytes[offset + index]) << (8 * UInt64(index)) }
    value = value &+ UInt64(delta)
    if width == 4 { value &= 0xFFFF_FFFF }
    for index in 0..<width { bytes[offset + index] = UInt8(truncatingIfNeeded: value >> (8 * UInt64(index))) }
}

func crc32(_ bytes: [UInt8]) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
        crc ^= UInt32(byte)
        for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
    }
    return ~crc
}

/// The hash `Fuzzing.readZip` gives an entry's bytes (FNV-1a, 64 bits).
private func fnv1a(_ bytes: [UInt8]) -> UInt64 {
    bytes.reduce(0xCBF2_9CE4_8422_2325) { ($0 ^ UInt64($1)) &* 0x100_0000_01B3 }
}

private func le16(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }
private func le32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
private func le64(_ value: UInt64) -> [UInt8] { (0..<8).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
