/// SHA-256 and SHA-512 (FIPS 180-4): SHA-256 for the model file's digest in `sluice_imports`,
/// SHA-512 for the digest Core Data records of a model's version hashes
/// (`NSStoreModelVersionHashesDigest`, `VersionHash.digest`).
///
/// Written here rather than taken from a library: the platforms have no common one (CryptoKit
/// is Apple's only, OpenSSL's libcrypto is not in Apple's SDK) and swift-crypto links
/// Foundation, which costs an import several MiB of resident memory. What is hashed is a model
/// file of a few kilobytes, or a few hundred bytes, once per import, so a plain implementation
/// is fast enough. The two functions are one algorithm over 32- or 64-bit words with their own
/// constants, rotations and number of rounds (`SHA2Parameters`), so they are written once;
/// FIPS 180-4's test vectors pin both (`SHA256Tests`, `SHA512Tests`).
struct SHA2<Parameters: SHA2Parameters> {
    typealias Word = Parameters.Word

    private var state = Parameters.initialState
    private var pending: [UInt8] = []
    private var length: UInt64 = 0

    private static var wordBytes: Int { Word.bitWidth / 8 }
    /// A block is 16 words: 64 bytes for SHA-256, 128 for SHA-512.
    private static var blockBytes: Int { 16 * wordBytes }

    /// The digest of `bytes`: 32 bytes for SHA-256, 64 for SHA-512.
    static func digest<Bytes: Sequence>(of bytes: Bytes) -> [UInt8] where Bytes.Element == UInt8 {
        var hash = Self()
        hash.update(bytes)
        return hash.finish()
    }

    /// The digest of `bytes` as lowercase hex (what `sha256sum` prints).
    static func hex<Bytes: Sequence>(of bytes: Bytes) -> String where Bytes.Element == UInt8 {
        var hash = Self()
        hash.update(bytes)
        return hash.finishHex()
    }

    mutating func update<Bytes: Sequence>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        let done: Void? = bytes.withContiguousStorageIfAvailable { buffer in update(UnsafeRawBufferPointer(buffer)) }
        if done == nil { update(Array(bytes)) }
    }

    /// Whole blocks are compressed where they lie; only a block split between calls is copied
    /// (an input's digest runs over every 1 MiB chunk read, `InputDigester`).
    mutating func update(_ bytes: UnsafeRawBufferPointer) {
        var rest = bytes[...]
        length &+= UInt64(bytes.count)
        if !pending.isEmpty {
            let taken = rest.prefix(Self.blockBytes - pending.count)
            pending += taken
            rest = rest.dropFirst(taken.count)
            guard pending.count == Self.blockBytes else { return }
            pending.withUnsafeBytes { compress($0) }
            pending.removeAll(keepingCapacity: true)
        }
        while rest.count >= Self.blockBytes {
            compress(UnsafeRawBufferPointer(rebasing: rest.prefix(Self.blockBytes)))
            rest = rest.dropFirst(Self.blockBytes)
        }
        pending += rest
    }

    /// The digest as lowercase hex.
    mutating func finishHex() -> String {
        finish().map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }

    /// The digest; padding as FIPS 180-4 §5.1 says: a 1 bit, zeros, and the message's length
    /// in bits in the block's last two words.
    mutating func finish() -> [UInt8] {
        let bits = length &* 8
        let lengthStart = Self.blockBytes - 2 * Self.wordBytes
        pending.append(0x80)
        if pending.count > lengthStart {
            pending += [UInt8](repeating: 0, count: Self.blockBytes - pending.count)
            pending.withUnsafeBytes { compress($0) }
            pending.removeAll(keepingCapacity: true)
        }
        // The length takes 64 bits of SHA-256's block and 128 of SHA-512's, whose high 64
        // stay zero: nothing hashed here is 2^61 bytes long.
        pending += [UInt8](repeating: 0, count: Self.blockBytes - 8 - pending.count)
        pending += bigEndian(bits)
        pending.withUnsafeBytes { compress($0) }
        return state.flatMap(bigEndian)
    }

    /// One block; the message schedule lives on the stack (an array a block cost an allocation
    /// every 64 bytes).
    private mutating func compress(_ block: UnsafeRawBufferPointer) {
        let rounds = Parameters.k.count
        withUnsafeTemporaryAllocation(of: Word.self, capacity: rounds) { w in
            for i in 0..<16 {
                var word: Word = 0
                for j in 0..<Self.wordBytes { word = word << 8 | Word(block[Self.wordBytes * i + j]) }
                w[i] = word
            }
            let (σ0, σ1, Σ0, Σ1) = (Parameters.σ0, Parameters.σ1, Parameters.Σ0, Parameters.Σ1)
            for i in 16..<rounds {
                let s0 = rotate(w[i - 15], σ0.0) ^ rotate(w[i - 15], σ0.1) ^ (w[i - 15] >> σ0.shift)
                let s1 = rotate(w[i - 2], σ1.0) ^ rotate(w[i - 2], σ1.1) ^ (w[i - 2] >> σ1.shift)
                w[i] = w[i - 16] &+ s0 &+ w[i - 7] &+ s1
            }
            var (a, b, c, d, e, f, g, h) = (state[0], state[1], state[2], state[3], state[4], state[5], state[6], state[7])
            Parameters.k.withUnsafeBufferPointer { k in
                for i in 0..<rounds {
                    let s1 = rotate(e, Σ1.0) ^ rotate(e, Σ1.1) ^ rotate(e, Σ1.2)
                    let choice = (e & f) ^ (~e & g)
                    let t1 = h &+ s1 &+ choice &+ k[i] &+ w[i]
                    let s0 = rotate(a, Σ0.0) ^ rotate(a, Σ0.1) ^ rotate(a, Σ0.2)
                    let majority = (a & b) ^ (a & c) ^ (b & c)
                    (h, g, f, e, d, c, b, a) = (g, f, e, d &+ t1, c, b, a, t1 &+ s0 &+ majority)
                }
            }
            state[0] &+= a; state[1] &+= b; state[2] &+= c; state[3] &+= d
            state[4] &+= e; state[5] &+= f; state[6] &+= g; state[7] &+= h
        }
    }

    private func rotate(_ word: Word, _ count: Int) -> Word {
        word >> count | word << (Word.bitWidth - count)
    }

    private func bigEndian<Integer: FixedWidthInteger>(_ value: Integer) -> [UInt8] {
        stride(from: Integer.bitWidth - 8, through: 0, by: -8).map { UInt8(truncatingIfNeeded: value >> $0) }
    }
}

/// What tells SHA-256 and SHA-512 apart (FIPS 180-4 §4.1.2–4.2.3, 5.3.3, 5.3.5).
protocol SHA2Parameters {
    associatedtype Word: FixedWidthInteger & UnsignedInteger
    static var initialState: [Word] { get }
    /// One constant a round.
    static var k: [Word] { get }
    /// The message schedule's functions: two rotations and a shift.
    static var σ0: (Int, Int, shift: Int) { get }
    static var σ1: (Int, Int, shift: Int) { get }
    /// The rounds' functions: three rotations.
    static var Σ0: (Int, Int, Int) { get }
    static var Σ1: (Int, Int, Int) { get }
}

typealias SHA256 = SHA2<SHA256Parameters>
typealias SHA512 = SHA2<SHA512Parameters>

enum SHA256Parameters: SHA2Parameters {
    static let initialState: [UInt32] = [
        0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19,
    ]
    static let σ0 = (7, 18, shift: 3)
    static let σ1 = (17, 19, shift: 10)
    static let Σ0 = (2, 13, 22)
    static let Σ1 = (6, 11, 25)
    static let k: [UInt32] = [
        0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
        0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
        0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
        0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
        0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
        0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
        0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
        0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
    ]
}

enum SHA512Parameters: SHA2Parameters {
    static let initialState: [UInt64] = [
        0x6a09_e667_f3bc_c908, 0xbb67_ae85_84ca_a73b, 0x3c6e_f372_fe94_f82b, 0xa54f_f53a_5f1d_36f1,
        0x510e_527f_ade6_82d1, 0x9b05_688c_2b3e_6c1f, 0x1f83_d9ab_fb41_bd6b, 0x5be0_cd19_137e_2179,
    ]
    static let σ0 = (1, 8, shift: 7)
    static let σ1 = (19, 61, shift: 6)
    static let Σ0 = (28, 34, 39)
    static let Σ1 = (14, 18, 41)
    static let k: [UInt64] = [
        0x428a2f98d728ae22, 0x7137449123ef65cd, 0xb5c0fbcfec4d3b2f, 0xe9b5dba58189dbbc, 0x3956c25bf348b538,
        0x59f111f1b605d019, 0x923f82a4af194f9b, 0xab1c5ed5da6d8118, 0xd807aa98a3030242, 0x12835b0145706fbe,
        0x243185be4ee4b28c, 0x550c7dc3d5ffb4e2, 0x72be5d74f27b896f, 0x80deb1fe3b1696b1, 0x9bdc06a725c71235,
        0xc19bf174cf692694, 0xe49b69c19ef14ad2, 0xefbe4786384f25e3, 0x0fc19dc68b8cd5b5, 0x240ca1cc77ac9c65,
        0x2de92c6f592b0275, 0x4a7484aa6ea6e483, 0x5cb0a9dcbd41fbd4, 0x76f988da831153b5, 0x983e5152ee66dfab,
        0xa831c66d2db43210, 0xb00327c898fb213f, 0xbf597fc7beef0ee4, 0xc6e00bf33da88fc2, 0xd5a79147930aa725,
        0x06ca6351e003826f, 0x142929670a0e6e70, 0x27b70a8546d22ffc, 0x2e1b21385c26c926, 0x4d2c6dfc5ac42aed,
        0x53380d139d95b3df, 0x650a73548baf63de, 0x766a0abb3c77b2a8, 0x81c2c92e47edaee6, 0x92722c851482353b,
        0xa2bfe8a14cf10364, 0xa81a664bbc423001, 0xc24b8b70d0f89791, 0xc76c51a30654be30, 0xd192e819d6ef5218,
        0xd69906245565a910, 0xf40e35855771202a, 0x106aa07032bbd1b8, 0x19a4c116b8d2d0c8, 0x1e376c085141ab53,
        0x2748774cdf8eeb99, 0x34b0bcb5e19b48a8, 0x391c0cb3c5c95a63, 0x4ed8aa4ae3418acb, 0x5b9cca4f7763e373,
        0x682e6ff3d6b2b8a3, 0x748f82ee5defb2fc, 0x78a5636f43172f60, 0x84c87814a1f0ab72, 0x8cc702081a6439ec,
        0x90befffa23631e28, 0xa4506cebde82bde9, 0xbef9a3f7b2c67915, 0xc67178f2e372532b, 0xca273eceea26619c,
        0xd186b8c721c0c207, 0xeada7dd6cde0eb1e, 0xf57d4f7fee6ed178, 0x06f067aa72176fba, 0x0a637dc5a2c898a6,
        0x113f9804bef90dae, 0x1b710b35131c471b, 0x28db77f523047d84, 0x32caab7b40c72493, 0x3c9ebe0a15c9bebc,
        0x431d67c49c100d4c, 0x4cc5d4becb3e42b6, 0x597f299cfc657e2a, 0x5fcb6fab3ad6faec, 0x6c44198c4a475817,
    ]
}
