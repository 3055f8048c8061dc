/// Gives back a few bytes already taken from a source, then the rest of the source. This is
/// how `InputOpener` peeks at magic bytes of an input that cannot seek (standard input).
final class ReplaySource: ByteSource {
    private let source: ByteSource
    /// What was read from `source` before; it comes out first.
    let prefix: [UInt8]
    private var replayed = 0

    /// `prefix` is what was read from `source` before; it comes out first.
    init(_ prefix: [UInt8], then source: ByteSource) {
        self.prefix = prefix
        self.source = source
    }

    var name: String { source.name }
    /// The underlying total, which counts the replayed bytes.
    var expectedSize: Int64? { source.expectedSize }
    /// The underlying source's, which already counts the replayed bytes.
    var storedSize: Int64? { source.storedSize }
    var storedBytesRead: Int64 { source.storedBytesRead }
    var waitsForInput: Bool { source.waitsForInput }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws(SluiceError) -> Int {
        guard replayed < prefix.count else { return try source.read(into: buffer) }
        return prefix.copy(from: &replayed, into: buffer)
    }
}
