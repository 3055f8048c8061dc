#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A fixed output buffer that JSON text is formatted into by hand, flushed in large blocks.
///
/// Formatting numbers and strings straight into raw memory (no Foundation, no `String`
/// interpolation) keeps the generator at hundreds of MB/s, so generating is never the
/// bottleneck of a benchmark. Callers `reserve` the most bytes the next record can take; the
/// buffer flushes when it would not fit.
public final class ByteSink {
    /// Where full blocks go. The buffer is valid only during the call.
    public typealias Flush = (UnsafeRawBufferPointer) throws -> Void

    private let buffer: UnsafeMutablePointer<UInt8>
    private let capacity: Int
    private var count = 0
    private let flushBlock: Flush
    /// Bytes handed to `flushBlock` so far.
    public private(set) var bytesWritten: Int64 = 0

    public init(capacity: Int = 4 << 20, flush: @escaping Flush) {
        self.capacity = capacity
        buffer = .allocate(capacity: capacity)
        flushBlock = flush
    }

    deinit { buffer.deallocate() }

    /// A sink writing to a file descriptor with write(2), retrying short writes.
    public convenience init(fileDescriptor: Int32, capacity: Int = 4 << 20) {
        self.init(capacity: capacity) { block in
            var offset = 0
            while offset < block.count {
                let written = write(fileDescriptor, block.baseAddress! + offset, block.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    throw FixtureError("write failed: \(String(cString: strerror(errno)))")
                }
                offset += written
            }
        }
    }

    /// Makes room for `bytes` more bytes, flushing first if they would not fit.
    @inline(__always)
    public func reserve(_ bytes: Int) throws {
        precondition(bytes <= capacity, "one record is larger than the output buffer")  // our bug
        if count + bytes > capacity { try flush() }
    }

    /// Hands everything buffered to the flush block.
    public func flush() throws {
        guard count > 0 else { return }
        try flushBlock(UnsafeRawBufferPointer(start: buffer, count: count))
        bytesWritten += Int64(count)
        count = 0
    }

    @inline(__always)
    func byte(_ value: UInt8) {
        buffer[count] = value
        count += 1
    }

    /// ASCII text known at compile time (keys, punctuation).
    @inline(__always)
    func raw(_ text: StaticString) {
        let length = text.utf8CodeUnitCount
        (buffer + count).update(from: text.utf8Start, count: length)
        count += length
    }

    /// Bytes already valid inside a JSON string (the generator's names need no escaping
    /// beyond what they carry).
    @inline(__always)
    func raw(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { source in
            (buffer + count).update(from: source.baseAddress!, count: source.count)
        }
        count += bytes.count
    }

    /// A non-negative or negative integer in decimal.
    @inline(__always)
    func integer(_ value: Int) {
        if value < 0 {
            byte(UInt8(ascii: "-"))
            unsigned(UInt64(-value))
        } else {
            unsigned(UInt64(value))
        }
    }

    @inline(__always)
    func unsigned(_ value: UInt64) {
        var digits = 1
        var rest = value / 10
        while rest > 0 { digits += 1; rest /= 10 }
        padded(value, width: digits)
    }

    /// `value` in decimal with leading zeros up to `width` digits.
    @inline(__always)
    func padded(_ value: UInt64, width: Int) {
        var rest = value
        var index = count + width - 1
        while index >= count {
            buffer[index] = UInt8(truncatingIfNeeded: rest % 10) + UInt8(ascii: "0")
            rest /= 10
            index -= 1
        }
        count += width
    }

    /// A fixed-point number: `units / 10^decimals`, e.g. (52512345, 6) -> `52.512345`.
    @inline(__always)
    func fixed(_ units: Int, decimals: Int) {
        var magnitude = units
        if magnitude < 0 {
            byte(UInt8(ascii: "-"))
            magnitude = -magnitude
        }
        var scale = 1
        for _ in 0..<decimals { scale *= 10 }
        unsigned(UInt64(magnitude / scale))
        byte(UInt8(ascii: "."))
        padded(UInt64(magnitude % scale), width: decimals)
    }

    /// A GTFS time `HH:MM:SS` from seconds after midnight (hours may pass 24).
    @inline(__always)
    func time(_ seconds: Int) {
        padded(UInt64(seconds / 3600), width: 2)
        byte(UInt8(ascii: ":"))
        padded(UInt64(seconds / 60 % 60), width: 2)
        byte(UInt8(ascii: ":"))
        padded(UInt64(seconds % 60), width: 2)
    }
}

/// A failure of the generator (writing its output, a bad argument).
public struct FixtureError: Error, CustomStringConvertible, Sendable {
    public let description: String
    public init(_ description: String) { self.description = description }
}
