#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Seconds since the Unix epoch, for `sluice_imports`' timestamps.
struct UnixTime {
    var seconds: Int64
    var milliseconds: Int

    static func now() -> UnixTime {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return UnixTime(seconds: Int64(spec.tv_sec), milliseconds: Int(spec.tv_nsec / 1_000_000))
    }

    /// `YYYY-MM-DDTHH:MM:SS.sssZ`, the format of `docs/database-layout.md` dates.
    var iso8601: String {
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        func pad(_ value: Int32, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return "\(pad(parts.tm_year + 1900, 4))-\(pad(parts.tm_mon + 1, 2))-\(pad(parts.tm_mday, 2))T"
            + "\(pad(parts.tm_hour, 2)):\(pad(parts.tm_min, 2)):\(pad(parts.tm_sec, 2)).\(pad(Int32(milliseconds), 3))Z"
    }
}

/// Elapsed time for reports (monotonic, unaffected by clock changes).
struct MonotonicClock {
    private let start = MonotonicClock.nanoseconds()

    var elapsedSeconds: Double { Double(Self.nanoseconds() - start) / 1e9 }

    private static func nanoseconds() -> Int64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Int64(spec.tv_sec) * 1_000_000_000 + Int64(spec.tv_nsec)
    }
}

#if canImport(Glibc)
/// Glibc imports RUSAGE_SELF as an enum case where getrusage wants an Int32.
private let RUSAGE_SELF_WHO = __rusage_who_t(RUSAGE_SELF.rawValue)
#else
private let RUSAGE_SELF_WHO = RUSAGE_SELF
#endif

/// The process's peak resident memory so far (getrusage's maxrss, KiB on Linux).
enum PeakMemory {
    static func residentBytes() -> Int64 {
        var usage = rusage()
        getrusage(RUSAGE_SELF_WHO, &usage)
        #if canImport(Darwin)
        return Int64(usage.ru_maxrss)
        #else
        return Int64(usage.ru_maxrss) * 1024
        #endif
    }
}
