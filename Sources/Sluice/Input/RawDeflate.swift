internal import CZlib

/// Raw DEFLATE data (RFC 1951: no zlib or gzip header) held whole in memory, inflated whole: a
/// Core Data store's `Z_MODELCACHE` (its archived model, `CoreDataModelCache`). Streams (gzip
/// input, zip entries) are inflated as they are read instead (`GzipSource`, `ZipEntry`).
enum RawDeflate {
    /// The inflated bytes of `bytes`, at most `limit` of them: more, data that does not end, or
    /// invalid data is an error saying so (`what` names the data), never unbounded memory.
    static func inflate(_ bytes: [UInt8], limit: Int, what: String) throws(SluiceError) -> [UInt8] {
        var stream = z_stream()
        guard sluice_inflate_init_raw(&stream) == Z_OK else { throw SluiceError(.io, "\(what): cannot start deflate decompression") }
        defer { inflateEnd(&stream) }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        var input = bytes
        return try input.withUnsafeMutableBufferPointer { (source) throws(SluiceError) -> [UInt8] in
            stream.next_in = source.baseAddress
            stream.avail_in = UInt32(clamping: source.count)
            while true {
                let (status, produced) = chunk.withUnsafeMutableBufferPointer { buffer in
                    stream.next_out = buffer.baseAddress
                    stream.avail_out = UInt32(buffer.count)
                    let status = CZlib.inflate(&stream, Z_NO_FLUSH)
                    return (status, buffer.count - Int(stream.avail_out))
                }
                output += chunk.prefix(produced)
                guard output.count <= limit else { throw SluiceError(.data, "\(what): inflates to more than \(limit) bytes") }
                switch status {
                case Z_STREAM_END:
                    return output
                case Z_OK where produced > 0 || stream.avail_in > 0:
                    continue
                case Z_OK, Z_BUF_ERROR:
                    throw SluiceError(.data, "\(what): its deflate data ends early")
                default:
                    let message = stream.msg.map { String(cString: $0) } ?? "zlib error \(status)"
                    throw SluiceError(.data, "\(what): invalid deflate data: \(message)")
                }
            }
        }
    }
}
