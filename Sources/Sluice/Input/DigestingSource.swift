/// The bytes of a file as read, before gzip or zip decoding, counted and hashed (SHA-256) as
/// they pass: what `sluice_imports.inputs` records of an input (`InputDigest`). It sits under
/// the decoders, so the hashing runs on the thread that reads the file (`ReadAhead`'s, for a
/// regular file), not on the one that parses.
final class DigestingSource: ByteSourceLayer {
    let source: ByteSource
    private var hash = SHA256()
    /// Bytes that went through so far.
    private(set) var bytesRead: Int64 = 0

    init(_ source: ByteSource) {
        self.source = source
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws(SluiceError) -> Int {
        let count = try source.read(into: buffer)
        hash.update(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
        bytesRead += Int64(count)
        return count
    }

    /// Reads what the decoders above left (a zip archive's central directory, bytes after a
    /// gzip stream), so that the digest is of the whole file, and returns its size and hex
    /// SHA-256. Called once, after the input's last chunk was read.
    func finish() throws(SluiceError) -> (bytes: Int64, sha256: String) {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 << 10, alignment: 1)
        defer { buffer.deallocate() }
        while try read(into: buffer) > 0 {}
        return (bytesRead, hash.finishHex())
    }
}
