#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A number for the calling thread, distinct from that of every other thread alive (never
/// 0): for checks that a value is used by the thread that owns it (`ThreadOwner`).
func currentThreadID() -> UInt {
    #if canImport(Darwin)
    // pthread_t is a pointer to the thread's structure.
    return UInt(bitPattern: pthread_self())
    #else
    // glibc: pthread_t is an unsigned long; musl: a pointer. Int(bitPattern:) takes either.
    return UInt(bitPattern: Int(bitPattern: pthread_self()))
    #endif
}
