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
