/// Opens an input named on the command line and makes compression invisible.
enum InputOpener {
    /// The two magic bytes every gzip member starts with (RFC 1952).
    static let gzipMagic: [UInt8] = [0x1F, 0x8B]

    /// `-` is standard input; anything else a path. Gzip data is inflated transparently.
    /// - Parameter stopsWhenInterrupted: see `FileSource.stopsWhenInterrupted`.
    static func open(path: String, stopsWhenInterrupted: (@Sendable () -> Bool)? = nil) throws(SluiceError) -> ByteSource {
        let file = path == "-" ? FileSource.standardInput() : try FileSource(path: path, stopsWhenInterrupted: stopsWhenInterrupted)
        file.stopsWhenInterrupted = stopsWhenInterrupted
        return try decompressing(file)
    }

    /// Peeks at the first two bytes of `source` and wraps it in `GzipSource` when they are
    /// the gzip magic. The peeked bytes are replayed, so nothing is lost even when the
    /// source cannot seek.
    static func decompressing(_ source: ByteSource) throws(SluiceError) -> ByteSource {
        let peekBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: gzipMagic.count, alignment: 1)
        defer { peekBuffer.deallocate() }
        var filled = 0
        // A pipe may deliver one byte at a time; stop only at the end of the input.
        while filled < peekBuffer.count {
            let count = try source.read(into: UnsafeMutableRawBufferPointer(rebasing: peekBuffer[filled...]))
            if count == 0 { break }
            filled += count
        }
        let peeked = Array(peekBuffer[..<filled])
        let replay = ReplaySource(peeked, then: source)
        return peeked == gzipMagic ? try GzipSource(wrapping: replay) : replay
    }
}
