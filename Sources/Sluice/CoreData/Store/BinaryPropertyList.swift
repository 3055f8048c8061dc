/// Apple's binary property list format (`bplist00`), read and written without Foundation:
/// Core Data keeps a store's metadata in one (`Z_METADATA.Z_PLIST`) and a compiled model's
/// `VersionInfo.plist` and `.mom` are ones. The library does not link Foundation (it would cost
/// every import several MiB of resident memory, `SHA2` says more), and the format is small:
/// a header, the objects, a table of their offsets and a 32-byte trailer.
///
/// Reading is defensive: every offset, count and reference is checked against the bytes, and
/// a reference cycle, nesting deeper than `maximumDepth` or more than `maximumObjects` decoded
/// objects is an error, never a crash, a hang or unbounded memory.
enum BinaryPropertyList {
    struct Error: Swift.Error, Equatable, CustomStringConvertible {
        var message: String
        var description: String { message }
    }

    static let maximumDepth = 256
    static let maximumObjects = 1 << 20

    // MARK: Reading

    static func read(_ bytes: [UInt8]) throws(Error) -> PropertyList {
        var reader = try Reader(bytes)
        return try reader.object(at: reader.topObject, depth: 0)
    }

    private struct Reader {
        let bytes: [UInt8]
        let offsetSize: Int
        let referenceSize: Int
        let objectCount: Int
        let topObject: Int
        let offsetTable: Int
        var decoded = 0
        var open: Set<Int> = []

        init(_ bytes: [UInt8]) throws(Error) {
            self.bytes = bytes
            guard bytes.count >= 8 + 32, bytes.starts(with: Array("bplist00".utf8)) else {
                throw Error(message: "not a binary property list (no bplist00 header and trailer)")
            }
            let trailer = bytes.count - 32
            offsetSize = Int(bytes[trailer + 6])
            referenceSize = Int(bytes[trailer + 7])
            let count = Self.unsigned(bytes[(trailer + 8)..<(trailer + 16)])
            let top = Self.unsigned(bytes[(trailer + 16)..<(trailer + 24)])
            let table = Self.unsigned(bytes[(trailer + 24)..<(trailer + 32)])
            guard (1...8).contains(offsetSize), (1...8).contains(referenceSize), count > 0, count <= UInt64(bytes.count),
                  top < count, table >= 8, table <= UInt64(trailer), (UInt64(trailer) - table) / UInt64(offsetSize) >= count
            else {
                throw Error(message: "the binary property list's trailer does not fit its \(bytes.count) bytes")
            }
            (objectCount, topObject, offsetTable) = (Int(count), Int(top), Int(table))
        }

        static func unsigned(_ bytes: ArraySlice<UInt8>) -> UInt64 {
            bytes.reduce(0) { $0 << 8 | UInt64($1) }
        }

        mutating func object(at index: Int, depth: Int) throws(Error) -> PropertyList {
            guard index >= 0, index < objectCount else { throw Error(message: "object reference \(index) out of range") }
            guard depth < BinaryPropertyList.maximumDepth, !open.contains(index) else {
                throw Error(message: "objects nested too deep, or a reference cycle")
            }
            decoded += 1
            guard decoded <= BinaryPropertyList.maximumObjects else {
                throw Error(message: "more than \(BinaryPropertyList.maximumObjects) objects")
            }
            let start = offsetTable + index * offsetSize
            let offset = Int(Self.unsigned(bytes[start..<(start + offsetSize)]))
            guard offset >= 8, offset < offsetTable else { throw Error(message: "object \(index) lies outside the objects") }
            let marker = bytes[offset]
            let nibble = Int(marker & 0x0F)
            switch marker >> 4 {
            case 0x0 where marker == 0x08 || marker == 0x09:
                return .bool(marker == 0x09)
            case 0x1 where nibble <= 3:
                let payload = try take(offset + 1, 1 << nibble)
                let value = Self.unsigned(payload)
                return .integer(nibble == 3 ? Int64(bitPattern: value) : Int64(value))
            case 0x2 where nibble == 2 || nibble == 3:
                return .real(try real(offset + 1, nibble))
            case 0x3 where marker == 0x33:
                return .date(try real(offset + 1, 3))
            case 0x4:
                let (count, first) = try length(at: offset)
                return .data(Array(try take(first, count)))
            case 0x5:
                let (count, first) = try length(at: offset)
                let text = try take(first, count)
                guard text.allSatisfy({ $0 < 0x80 }) else { throw Error(message: "an ASCII string holds a byte above 127") }
                return .string(String(decoding: text, as: UTF8.self))
            case 0x6:
                let (count, first) = try length(at: offset)
                let units = try take(first, count.multipliedReportingOverflow(by: 2).partialValue)
                let utf16 = stride(from: units.startIndex, to: units.endIndex, by: 2).map { UInt16(units[$0]) << 8 | UInt16(units[$0 + 1]) }
                return .string(String(decoding: utf16, as: UTF16.self))
            case 0x8:
                return .uid(Self.unsigned(try take(offset + 1, nibble + 1)))
            case 0xA, 0xC:
                let (count, first) = try length(at: offset)
                let references = try references(first, count)
                open.insert(index)
                defer { open.remove(index) }
                var elements: [PropertyList] = []
                for reference in references { elements.append(try object(at: reference, depth: depth + 1)) }
                return .array(elements)
            case 0xD:
                let (count, first) = try length(at: offset)
                let references = try references(first, count.multipliedReportingOverflow(by: 2).partialValue)
                open.insert(index)
                defer { open.remove(index) }
                var members: [(key: String, value: PropertyList)] = []
                for member in 0..<count {
                    guard case .string(let key) = try object(at: references[member], depth: depth + 1) else {
                        throw Error(message: "a dictionary key is not a string")
                    }
                    members.append((key, try object(at: references[count + member], depth: depth + 1)))
                }
                return .dictionary(members)
            default:
                throw Error(message: "unknown object marker 0x\(String(marker, radix: 16))")
            }
        }

        /// `count` bytes from `start`, which must lie before the offset table.
        func take(_ start: Int, _ count: Int) throws(Error) -> ArraySlice<UInt8> {
            guard count >= 0, start <= offsetTable, count <= offsetTable - start else {
                throw Error(message: "an object runs past the objects")
            }
            return bytes[start..<(start + count)]
        }

        func real(_ start: Int, _ nibble: Int) throws(Error) -> Double {
            let value = Self.unsigned(try take(start, 1 << nibble))
            return nibble == 2 ? Double(Float(bitPattern: UInt32(value))) : Double(bitPattern: value)
        }

        /// A container's or string's count (in the marker, or an integer after it) and where its contents start.
        func length(at offset: Int) throws(Error) -> (count: Int, first: Int) {
            let nibble = Int(bytes[offset] & 0x0F)
            guard nibble == 0x0F else { return (nibble, offset + 1) }
            let marker = try take(offset + 1, 1).first!
            guard marker >> 4 == 0x1, marker & 0x0F <= 3 else { throw Error(message: "a count is not an integer") }
            let size = 1 << Int(marker & 0x0F)
            let count = Self.unsigned(try take(offset + 2, size))
            guard count <= UInt64(bytes.count) else { throw Error(message: "a count of \(count) exceeds the file") }
            return (Int(count), offset + 2 + size)
        }

        func references(_ start: Int, _ count: Int) throws(Error) -> [Int] {
            let raw = try take(start, count.multipliedReportingOverflow(by: referenceSize).partialValue)
            return stride(from: raw.startIndex, to: raw.endIndex, by: referenceSize).map {
                Int(truncatingIfNeeded: Self.unsigned(raw[$0..<($0 + referenceSize)]))
            }
        }
    }

    // MARK: Writing

    /// The value as a binary property list, byte for byte as Core Foundation writes it
    /// (`__CFBinaryPlistWriteToStream`), so that a keyed archive is the one Apple's
    /// `NSKeyedArchiver` writes (`KeyedArchive`): the objects in the order a depth-first walk
    /// meets them (a dictionary's keys, then its values), strings of ASCII characters as ASCII,
    /// others as UTF-16; references and offsets in the fewest bytes that hold the object count
    /// and the offset table's offset.
    ///
    /// Uniquing follows Core Foundation's: an equal string, number, date or data is the object
    /// written first (an integer never equals a real), arrays and dictionaries never are. A UID
    /// or boolean is written again at each occurrence but every reference names its first:
    /// Core Foundation keys its reference table by pointer, the archiver keeps one UID object
    /// per value and there is one `true` and one `false`. A string of `unsharedStrings` is
    /// written at each of its places: Core Foundation's uniquing meets it as distinct objects
    /// (`KeyedArchive` says when).
    static func write(_ value: PropertyList, unsharedStrings: Set<String> = []) -> [UInt8] {
        var flattened = Flattener(unsharedStrings: unsharedStrings)
        _ = flattened.add(value)
        let referenceSize = byteCount(for: UInt64(flattened.objects.count))
        var output = Array("bplist00".utf8)
        var offsets: [Int] = []
        offsets.reserveCapacity(flattened.objects.count)
        for object in flattened.objects {
            offsets.append(output.count)
            append(object, referenceSize: referenceSize, to: &output)
        }
        let table = output.count
        let offsetSize = byteCount(for: UInt64(table))
        for offset in offsets { output += bigEndian(UInt64(offset), size: offsetSize) }
        output += [0, 0, 0, 0, 0, 0, UInt8(offsetSize), UInt8(referenceSize)]
        output += bigEndian(UInt64(flattened.objects.count), size: 8) + bigEndian(0, size: 8) + bigEndian(UInt64(table), size: 8)
        return output
    }

    /// One object to write: a leaf, or a container with the indexes of what it holds.
    private enum Flat {
        case leaf(PropertyList)
        case array([Int])
        /// Keys, then values.
        case dictionary([Int])
    }

    /// What Core Foundation uniques by value, with its equality: a string by its characters
    /// (never Unicode equivalence), a number by its value within integers or within reals.
    private enum UniqueKey: Hashable {
        case string([UInt8])
        case integer(Int64)
        case real(Double)
        case date(Double)
        case data([UInt8])
        /// Written at each occurrence, referenced at its first.
        case uid(UInt64)
        case bool(Bool)
    }

    private struct Flattener {
        let unsharedStrings: Set<String>
        var objects: [Flat] = []
        var first: [UniqueKey: Int] = [:]

        /// Adds the object and what it holds, as Core Foundation walks it; returns the index
        /// a reference to it names.
        mutating func add(_ value: PropertyList) -> Int {
            let key: UniqueKey?
            switch value {
            case .string(let text): key = unsharedStrings.contains(text) ? nil : .string(Array(text.utf8))
            case .integer(let number): key = .integer(number)
            case .real(let number): key = .real(number)
            case .date(let seconds): key = .date(seconds)
            case .data(let bytes): key = .data(bytes)
            case .uid(let number): key = .uid(number)
            case .bool(let flag): key = .bool(flag)
            case .array, .dictionary: key = nil
            }
            let index = objects.count
            if let key {
                if let earlier = first[key] {
                    switch key {
                    case .uid, .bool: objects.append(.leaf(value))
                    default: break
                    }
                    return earlier
                }
                first[key] = index
                objects.append(.leaf(value))
                return index
            }
            objects.append(.leaf(value))
            switch value {
            case .array(let elements):
                let references = elements.map { add($0) }
                objects[index] = .array(references)
            case .dictionary(let members):
                let keys = members.map { add(.string($0.key)) }
                let values = members.map { add($0.value) }
                objects[index] = .dictionary(keys + values)
            default:
                break
            }
            return index
        }
    }

    private static func append(_ object: Flat, referenceSize: Int, to output: inout [UInt8]) {
        switch object {
        case .array(let references):
            output += header(0xA0, references.count)
            for reference in references { output += bigEndian(UInt64(reference), size: referenceSize) }
        case .dictionary(let references):
            output += header(0xD0, references.count / 2)
            for reference in references { output += bigEndian(UInt64(reference), size: referenceSize) }
        case .leaf(.bool(let flag)):
            output.append(flag ? 0x09 : 0x08)
        case .leaf(.integer(let number)):
            output += integer(number)
        case .leaf(.real(let number)):
            output += [0x23] + bigEndian(number.bitPattern, size: 8)
        case .leaf(.date(let seconds)):
            output += [0x33] + bigEndian(seconds.bitPattern, size: 8)
        case .leaf(.data(let bytes)):
            output += header(0x40, bytes.count) + bytes
        case .leaf(.string(let text)):
            if text.utf8.allSatisfy({ $0 < 0x80 }) {
                output += header(0x50, text.utf8.count) + Array(text.utf8)
            } else {
                let units = Array(text.utf16)
                output += header(0x60, units.count)
                for unit in units { output += [UInt8(unit >> 8), UInt8(unit & 0xFF)] }
            }
        case .leaf(.uid(let number)):
            let size = number < 0x100 ? 1 : number < 0x1_0000 ? 2 : number < 0x1_0000_0000 ? 4 : 8
            output += [0x80 | UInt8(size - 1)] + bigEndian(number, size: size)
        case .leaf(.array), .leaf(.dictionary):
            preconditionFailure("containers are flattened")
        }
    }

    private static func header(_ marker: UInt8, _ count: Int) -> [UInt8] {
        count < 15 ? [marker | UInt8(count)] : [marker | 0x0F] + integer(Int64(count))
    }

    /// An integer object: the fewest of 1, 2, 4 bytes (unsigned) or 8 (signed) that hold it.
    private static func integer(_ number: Int64) -> [UInt8] {
        switch number {
        case 0..<0x100: return [0x10, UInt8(number)]
        case 0x100..<0x1_0000: return [0x11] + bigEndian(UInt64(number), size: 2)
        case 0x1_0000..<0x1_0000_0000: return [0x12] + bigEndian(UInt64(number), size: 4)
        default: return [0x13] + bigEndian(UInt64(bitPattern: number), size: 8)
        }
    }

    /// The bytes `value` needs, any of 1 to 8 (Core Foundation's sizes of references and offsets).
    private static func byteCount(for value: UInt64) -> Int {
        max(1, (64 - value.leadingZeroBitCount + 7) / 8)
    }

    private static func bigEndian(_ value: UInt64, size: Int) -> [UInt8] {
        (0..<size).reversed().map { UInt8(truncatingIfNeeded: value >> UInt64($0 * 8)) }
    }
}
