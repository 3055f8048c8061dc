import Foundation

/// Gzip data for input tests, without a compression library in the test targets.
public enum Gzip {
    /// A valid gzip member (RFC 1952) whose deflate stream is made of stored blocks (RFC 1951
    /// §3.2.4): the data as is, so no compressor is needed.
    public static func stored(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 0xFF]
        var start = 0
        repeat {
            let end = min(start + 65_535, data.count)
            let length = UInt16(end - start)
            out.append(end == data.count ? 1 : 0)  // BFINAL, BTYPE 00
            out += littleEndian(length) + littleEndian(~length)
            out += data[start..<end]
            start = end
        } while start < data.count
        out += littleEndian(crc32(data)) + littleEndian(UInt32(truncatingIfNeeded: data.count))
        return out
    }

    /// CRC-32 as gzip uses it (reflected, polynomial 0xEDB88320).
    public static func crc32(_ data: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in data {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    private static func littleEndian<T: FixedWidthInteger>(_ value: T) -> [UInt8] {
        withUnsafeBytes(of: value.littleEndian) { Array($0) }
    }

    /// `data` compressed by the `gzip` tool (`-c -n -9`: really compressed, unlike `stored`,
    /// and the same bytes on every run).
    public static func compress(_ data: [UInt8]) throws -> [UInt8] {
        let scratch = TemporaryDirectory()
        try scratch.writeFile(data, named: "plain")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["gzip", "-c", "-n", "-9", scratch.file("plain")]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let compressed = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw CocoaError(.fileWriteUnknown) }
        return Array(compressed)
    }
}
