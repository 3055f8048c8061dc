/// Where cells keep their text and blob bytes: an arena appended to, read by offset.
protocol CellArena: ~Copyable {
    /// Appends `bytes` and returns the offset they start at.
    mutating func append(cellBytes bytes: UnsafeRawBufferPointer) -> Int
}

extension Array: CellArena where Element == UInt8 {
    mutating func append(cellBytes bytes: UnsafeRawBufferPointer) -> Int {
        let offset = count
        // Typed, so that the append is one memcpy rather than a byte-by-byte iteration.
        append(contentsOf: bytes.assumingMemoryBound(to: UInt8.self))
        return offset
    }
}

/// A buffer of bytes appended to and read by offset, grown by doubling and reused: the bytes of
/// the records being assembled (emptied per top-level record, so it grows to the largest
/// record's), and the text of a CSV field that spans chunks (`CSVReader`).
///
/// Not an `[UInt8]`: appending a string to an array cost about 90 instructions besides the
/// copy (a uniqueness check and the generic append path), and its bytes could only be read
/// inside a closure. Noncopyable, since it owns its memory.
struct ByteArena: ~Copyable, CellArena {
    private var base: UnsafeMutableRawPointer
    private(set) var count = 0
    private var capacity: Int

    init(capacity: Int = 4_096) {
        self.capacity = capacity
        base = .allocate(byteCount: capacity, alignment: 1)
    }

    deinit { base.deallocate() }

    /// The bytes so far, valid until the next append or `removeAll()`.
    var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: base, count: count) }

    mutating func append(cellBytes bytes: UnsafeRawBufferPointer) -> Int {
        let offset = count
        if bytes.count > capacity - count { grow(toAtLeast: count + bytes.count) }
        if let source = bytes.baseAddress { (base + count).copyMemory(from: source, byteCount: bytes.count) }
        count += bytes.count
        return offset
    }

    var isEmpty: Bool { count == 0 }

    mutating func append(_ bytes: UnsafeRawBufferPointer) {
        _ = append(cellBytes: bytes)
    }

    mutating func append(byte: UInt8) {
        if count == capacity { grow(toAtLeast: count + 1) }
        base.storeBytes(of: byte, toByteOffset: count, as: UInt8.self)
        count += 1
    }

    mutating func removeAll() { count = 0 }

    /// Drops the last `k` bytes appended.
    mutating func removeLast(_ k: Int) {
        precondition(k >= 0 && k <= count, "removing more bytes than appended")
        count -= k
    }

    /// Writes `bytes` over those at `offset`, which must be appended already.
    mutating func overwrite(at offset: Int, with bytes: UnsafeRawBufferPointer) {
        precondition(offset >= 0 && offset + bytes.count <= count, "overwriting past the bytes appended")
        if let source = bytes.baseAddress { (base + offset).copyMemory(from: source, byteCount: bytes.count) }
    }

    @inline(never)
    private mutating func grow(toAtLeast needed: Int) {
        var larger = capacity * 2
        while larger < needed { larger *= 2 }
        let grown = UnsafeMutableRawPointer.allocate(byteCount: larger, alignment: 1)
        grown.copyMemory(from: base, byteCount: count)
        base.deallocate()
        base = grown
        capacity = larger
    }
}
