/// A stream of bytes read in large chunks.
///
/// Sources are not `Sendable`: one reader owns a source and reads it from one thread.
protocol ByteSource: AnyObject {
    /// The name used in messages: the path as given, or "<stdin>".
    var name: String { get }
    /// Total size when known (a regular file, not compressed), for progress.
    var expectedSize: Int64? { get }
    /// The size of the file underneath when known (compressed for gzip), for progress.
    var storedSize: Int64? { get }
    /// Bytes taken so far from the file or descriptor underneath (compressed bytes for gzip),
    /// for progress: they compare with `storedSize`.
    var storedBytesRead: Int64 { get }
    /// Whether a read may wait indefinitely for a producer: a pipe, a terminal, a socket. Such
    /// a source is read on the parsing thread, where a signal can interrupt a blocked read
    /// (`FileSource.stopsWhenInterrupted`); any other is read ahead on a thread of its own
    /// (`ReadAhead`).
    var waitsForInput: Bool { get }
    /// Fills up to `buffer.count` bytes; returns 0 at the end (or when `buffer` is empty).
    /// May return fewer bytes than asked before the end, as `read(2)` does on a pipe.
    /// Retries EINTR.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws(SluiceError) -> Int
}

extension ByteSource {
    /// Unknown sources are taken to wait (the safe answer: they are read where they are parsed).
    var waitsForInput: Bool { true }
}

/// A source that passes another's bytes on (`ReplaySource`, `DigestingSource`): its name, sizes
/// and way of waiting are those of the source underneath.
protocol ByteSourceLayer: ByteSource {
    var source: ByteSource { get }
}

extension ByteSourceLayer {
    var name: String { source.name }
    var expectedSize: Int64? { source.expectedSize }
    var storedSize: Int64? { source.storedSize }
    var storedBytesRead: Int64 { source.storedBytesRead }
    var waitsForInput: Bool { source.waitsForInput }
}

extension SluiceError {
    /// `read error on '<name>': <strerror>` (exit 74).
    static func readError(on name: String, errno code: Int32) -> SluiceError {
        SluiceError(.io, "read error on '\(name)': \(SystemCalls.describe(errno: code))")
    }
}
