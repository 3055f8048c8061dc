#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Byte comparison and search on raw memory, for the hot paths (key lookups, change
/// detection, line counting), where the C library's vectorised routines beat a Swift loop.
enum MemoryBytes {
    /// Whether `count` bytes at `a` and `b` are equal.
    static func equal(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, count: Int) -> Bool {
        memcmp(a, b, count) == 0
    }

    /// `count` bytes at `a` against as many at `b`, as `memcmp` orders them (unsigned bytes):
    /// negative, zero or positive.
    static func compare(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, count: Int) -> Int32 {
        memcmp(a, b, count)
    }

    /// The first `byte` in `base[from..<to]`, as an index from `base`.
    static func firstIndex(of byte: UInt8, in base: UnsafeRawPointer, from: Int, to: Int) -> Int? {
        guard from < to, let hit = memchr(base + from, Int32(byte), to - from) else { return nil }
        return base.distance(to: UnsafeRawPointer(hit))
    }
}
