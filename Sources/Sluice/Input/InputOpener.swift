/// Opens an input named on the command line and makes compression invisible.
enum InputOpener {
    /// The two magic bytes every gzip member starts with (RFC 1952).
    static let gzipMagic: [UInt8] = [0x1F, 0x8B]

    /// `-` is standard input; anything else a path. Gzip data is inflated transparently.
    /// - Parameter stopsWhenInterrupted: see `FileSource.stopsWhenInterrupted`.
    static func open(path: String, stopsWhenInterrupted: (@Sendable () -> Bool)? = nil) throws(SluiceError) -> ByteSource {
        try decompressing(file(path: path, stopsWhenInterrupted: stopsWhenInterrupted))
    }

    /// The file (or standard input) `open` reads, not yet decoded.
    static func file(path: String, stopsWhenInterrupted: (@Sendable () -> Bool)? = nil) throws(SluiceError) -> FileSource {
        let file = path == "-" ? FileSource.standardInput() : try FileSource(path: path, stopsWhenInterrupted: stopsWhenInterrupted)
        file.stopsWhenInterrupted = stopsWhenInterrupted
        return file
    }

    /// What a zip archive starts with: a local file header, or (empty) the end of the central
    /// directory.
    static let zipMagic: [UInt8] = [0x50, 0x4B, 0x03, 0x04]
    static let emptyZipMagic: [UInt8] = [0x50, 0x4B, 0x05, 0x06]

    /// Whether `source`, as `decompressing` returned it, is a zip archive.
    static func isZip(_ source: ByteSource) -> Bool {
        guard let replay = source as? ReplaySource else { return false }
        return replay.prefix == zipMagic || replay.prefix == emptyZipMagic
    }

    /// Peeks at the first bytes of `source` and wraps it in `GzipSource` when they are
    /// the gzip magic. The peeked bytes are replayed, so nothing is lost even when the
    /// source cannot seek.
    static func decompressing(_ source: ByteSource) throws(SluiceError) -> ByteSource {
        let peekBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: zipMagic.count, alignment: 1)
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
        return peeked.starts(with: gzipMagic) ? try GzipSource(wrapping: replay) : replay
    }
}
