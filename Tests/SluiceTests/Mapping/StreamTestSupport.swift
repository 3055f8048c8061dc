@testable import Sluice

/// Parses `json`, fed in chunks of `chunkSize` bytes, into `stream`, as an import does.
func feed(_ json: String, to stream: some RecordEventHandler, chunkSize: Int = 1 << 20) throws {
    let parser = JSONParser(sourceName: "in.json", handler: stream)
    stream.parser = parser
    let bytes = Array(json.utf8)
    var start = 0
    while start < bytes.count {
        let end = min(start + chunkSize, bytes.count)
        try bytes[start..<end].withUnsafeBytes { try parser.parse($0) }
        start = end
    }
    try parser.finish()
}
