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
        let count = min(buffer.count, bytes.count - position)
        guard count > 0 else { return 0 }
        bytes.withUnsafeBytes { source in
            buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: source[position ..< position + count]))
        }
        position += count
        return count
    }
}
