@testable import Sluice

/// Parses `json`, fed in chunks of `chunkSize` bytes, into `stream`, as an import does.
func feed(_ json: String, to stream: some RecordEventHandler, chunkSize: Int = 1 << 20) throws {
    let parser = JSONParser(sourceName: "in.json", handler: stream)
    stream.parser = parser
    try parse(Array(json.utf8), with: parser, chunkSize: chunkSize)
}

/// Feeds `bytes` to `parser` in chunks of `chunkSize` bytes, then finishes it.
func parse(_ bytes: [UInt8], with parser: JSONParser, chunkSize: Int) throws {
    var start = 0
    while start < bytes.count {
        let end = min(start + chunkSize, bytes.count)
        try bytes[start..<end].withUnsafeBytes { try parser.parse($0) }
        start = end
    }
    try parser.finish()
}

/// `parse(_:with:chunkSize:)` as an import with a reading thread may: every chunk scanned
/// (`ChunkScanner`) before the first is parsed, each then parsed with its scan.
func parseScannedAhead(_ bytes: [UInt8], with parser: JSONParser, chunkSize: Int) throws {
    var scanner = ChunkScanner()
    let chunks = stride(from: 0, to: bytes.count, by: chunkSize).map { Array(bytes[$0..<min($0 + chunkSize, bytes.count)]) }
    let scans = chunks.map { chunk in chunk.withUnsafeBytes { scanner.scan($0) } }
    for (chunk, scan) in zip(chunks, scans) {
        try chunk.withUnsafeBytes { try parser.parse($0, scan: scan) }
    }
    try parser.finish()
}
