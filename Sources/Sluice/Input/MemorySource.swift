/// Bytes already in memory: the library's import from `Data` or `[UInt8]`, and tests.
final class MemorySource: ByteSource {
    let name: String
    private let bytes: [UInt8]
    private var position = 0

    init(_ bytes: [UInt8], name: String = "<memory>") {
        self.bytes = bytes
        self.name = name
    }

    /// Copies any collection of bytes (`Data`, a slice, a `String.UTF8View`) once.
    convenience init<Bytes: Collection<UInt8>>(_ bytes: Bytes, name: String = "<memory>") {
        self.init(Array(bytes), name: name)
    }

    var expectedSize: Int64? { Int64(bytes.count) }
    var storedSize: Int64? { expectedSize }
    var storedBytesRead: Int64 { Int64(position) }
    var waitsForInput: Bool { false }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws(SluiceError) -> Int {
        bytes.copy(from: &position, into: buffer)
    }
}

extension [UInt8] {
    /// Copies what fits of the bytes from `offset` into `buffer`, moves `offset` past them and
    /// returns how many (0 at the end): a `ByteSource.read` over bytes in memory.
    func copy(from offset: inout Int, into buffer: UnsafeMutableRawBufferPointer) -> Int {
        let count = Swift.min(buffer.count, self.count - offset)
        guard count > 0 else { return 0 }
        withUnsafeBytes { source in
            buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: source[offset ..< offset + count]))
        }
        offset += count
        return count
    }
}
