/// Gives back a few bytes already taken from a source, then the rest of the source. This is
/// how `InputOpener` peeks at magic bytes of an input that cannot seek (standard input).
final class ReplaySource: ByteSourceLayer {
    let source: ByteSource
    /// What was read from `source` before; it comes out first.
    let prefix: [UInt8]
    private var replayed = 0

    /// `prefix` is what was read from `source` before; it comes out first.
    init(_ prefix: [UInt8], then source: ByteSource) {
        self.prefix = prefix
        self.source = source
    }

    // Its sizes are the source's, which count the replayed bytes already (`ByteSourceLayer`).

    func read(into buffer: UnsafeMutableRawBufferPointer) throws(SluiceError) -> Int {
        guard replayed < prefix.count else { return try source.read(into: buffer) }
        return prefix.copy(from: &replayed, into: buffer)
    }
}
