import Foundation

/// Gzip data for input tests, without a compression library in the test target.
enum Gzip {
    /// A valid gzip member (RFC 1952) whose deflate stream is made of stored blocks (RFC 1951
    /// §3.2.4): the data as is, so no compressor is needed.
    static func stored(_ data: [UInt8]) -> [UInt8] {
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
    static func crc32(_ data: [UInt8]) -> UInt32 {
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

    /// A `gzip` executable, when the machine has one.
    static let toolPath: String? = ["/usr/bin/gzip", "/bin/gzip"].first { FileManager.default.isExecutableFile(atPath: $0) }

    /// `gzip -c` of `data` (really compressed, unlike `stored`).
    static func compressWithTool(_ data: [UInt8]) throws -> [UInt8] {
        guard let toolPath else { throw CocoaError(.fileNoSuchFile) }
        let scratch = Workspace()
        let input = scratch.file("input")
        try Data(data).write(to: URL(fileURLWithPath: input))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: toolPath)
        process.arguments = ["-9", input]  // replaces `input` by `input.gz`
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0, let bytes = scratch.bytes(of: "input.gz") else {
            throw CocoaError(.fileWriteUnknown)
        }
        return bytes
    }
}
