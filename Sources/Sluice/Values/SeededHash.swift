/// The hash of the engine's tables of ids and identities (`KnownIDs`, `IdentityTable`): words
/// of the value, eight bytes at a time, each folded in through SplitMix64's finaliser, from a
/// seed drawn once per process. Swift's `Hasher` (SipHash) cost about 200 instructions per
/// identity of a re-import's batch, 5% of its writer; this, a quarter of that. The seed is
/// random, as `Hasher`'s is, so an input cannot be made to collide on purpose without seeing
/// the hashes, which nothing shows.
struct SeededHash {
    private(set) var value: UInt64

    init() {
        value = Self.seed
    }

    mutating func combine(_ word: UInt64) {
        value = Self.mix(value ^ word)
    }

    /// Folds in the count of `bytes`, then the bytes.
    mutating func combine(bytes: UnsafeRawBufferPointer) {
        var state = value ^ (UInt64(bytes.count) &* 0x9E37_79B9_7F4A_7C15)
        var offset = 0
        while offset + 8 <= bytes.count {
            state = Self.mix(state ^ bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            offset += 8
        }
        if offset < bytes.count {
            var tail: UInt64 = 0
            for index in offset..<bytes.count { tail = tail << 8 | UInt64(bytes[index]) }
            state = Self.mix(state ^ tail)
        } else if bytes.isEmpty {
            state = Self.mix(state)
        }
        value = state
    }

    private static let seed = UInt64.random(in: .min ... .max)

    /// SplitMix64's finaliser: every input bit reaches every output bit.
    private static func mix(_ value: UInt64) -> UInt64 {
        var z = value &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
