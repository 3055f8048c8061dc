import Crypto

/// SHA-256 and SHA-512 through swift-crypto (CryptoKit on Apple platforms, BoringSSL's
/// assembly elsewhere): SHA-256 for the digests `sluice_imports` records of the model file and
/// of every input's bytes (`DigestingSource`, which runs over every byte an import reads, so its
/// speed sets W1's pace: BoringSSL uses the CPU's SHA instructions where there are some), and for
/// PostgreSQL's mapped column names; SHA-512 for the digest Core Data records of a model's
/// version hashes (`NSStoreModelVersionHashesDigest`, `VersionHash.digest`). swift-crypto 4
/// imports FoundationEssentials, not Foundation, so it adds nothing to an import's resident
/// memory (docs/architecture.md#dependencies).
///
/// A wrapper rather than Crypto's types at each use: callers hash byte arrays and read buffers
/// and want bytes or the lowercase hex `sha256sum` prints, not Crypto's digest types.
struct SHA2<Function: HashFunction> {
    private var function = Function()

    /// The digest of `bytes`: 32 bytes for SHA-256, 64 for SHA-512.
    static func digest(of bytes: [UInt8]) -> [UInt8] {
        var hash = Self()
        hash.update(bytes)
        return hash.finish()
    }

    /// The digest of `bytes` as lowercase hex (what `sha256sum` prints).
    static func hex(of bytes: [UInt8]) -> String {
        var hash = Self()
        hash.update(bytes)
        return hash.finishHex()
    }

    mutating func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { update($0) }
    }

    mutating func update(_ bytes: UnsafeRawBufferPointer) {
        function.update(bufferPointer: bytes)
    }

    /// The digest of the bytes given so far.
    func finish() -> [UInt8] {
        Array(function.finalize())
    }

    func finishHex() -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(2 * Function.Digest.byteCount)
        for byte in function.finalize() {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0xF)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}

typealias SHA256 = SHA2<Crypto.SHA256>
typealias SHA512 = SHA2<Crypto.SHA512>
