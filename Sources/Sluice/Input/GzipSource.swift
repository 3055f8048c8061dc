internal import CZlib

/// Inflates gzip data from another source as a stream, through one fixed-size input buffer.
///
/// Concatenated members (`cat a.gz b.gz`) are read one after another, as `gunzip` does.
/// Anything after a member that is not another gzip member is an error rather than being
/// silently dropped. Corrupt or truncated data is `.data`:
/// `<name>: invalid gzip data: <zlib's message>`.
final class GzipSource: ByteSource {
    private let source: ByteSource
    /// Heap-allocated because zlib keeps a pointer back to the stream and checks it.
    private let stream: UnsafeMutablePointer<z_stream>
    private let input: UnsafeMutableRawBufferPointer
    /// The compressed source has returned 0.
    private var inputEnded = false
    /// The last `inflate` finished a member; the next input byte starts a new one, if any.
    private var memberEnded = false
    private var finished = false
    /// An error found after some output was produced; thrown by the next read so the
    /// bytes before the damage are delivered first.
    private var pendingError: SluiceError?

    var name: String { source.name }
    /// The inflated size is not known in advance (the gzip trailer only has it modulo 2³²,
    /// and only for the last member).
    var expectedSize: Int64? { nil }
    /// Progress counts compressed bytes against the compressed size, which is known.
    var storedSize: Int64? { source.storedSize }
    var storedBytesRead: Int64 { source.storedBytesRead }
    var waitsForInput: Bool { source.waitsForInput }

    init(wrapping source: ByteSource, inputBufferSize: Int = 256 << 10) throws(SluiceError) {
        precondition(inputBufferSize > 0, "the input buffer must hold at least one byte")
        self.source = source
        self.input = .allocate(byteCount: min(inputBufferSize, Int(UInt32.max)), alignment: 16)
        self.stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        let status = sluice_inflate_init_gzip(stream)
        guard status == Z_OK else {
            // Only out of memory or a zlib built for another ABI; still not worth a crash.
            let message = GzipSource.message(of: stream, status: status)
            stream.deinitialize(count: 1)
            stream.deallocate()
            input.deallocate()
            throw SluiceError(.io, "\(source.name): cannot start gzip decompression: \(message)")
        }
    }

    deinit {
        inflateEnd(stream)
        stream.deinitialize(count: 1)
        stream.deallocate()
        input.deallocate()
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws(SluiceError) -> Int {
        if let error = pendingError { throw error }
        guard let base = buffer.baseAddress, buffer.count > 0, !finished else { return 0 }
        let capacity = min(buffer.count, Int(UInt32.max))
        stream.pointee.next_out = base.assumingMemoryBound(to: Bytef.self)
        stream.pointee.avail_out = UInt32(capacity)
        var produced: Int { capacity - Int(stream.pointee.avail_out) }

        while stream.pointee.avail_out > 0 {
            if stream.pointee.avail_in == 0 && !inputEnded {
                // Hand back what we have rather than wait on a slow pipe for more.
                if produced > 0 { return produced }
                let count = try source.read(into: input)
                if count == 0 {
                    inputEnded = true
                } else {
                    stream.pointee.next_in = input.baseAddress!.assumingMemoryBound(to: Bytef.self)
                    stream.pointee.avail_in = UInt32(count)
                }
            }
            if memberEnded {
                if stream.pointee.avail_in == 0 {
                    if inputEnded {
                        finished = true
                        return produced
                    }
                    continue
                }
                // More bytes follow a member: they must be another member.
                inflateReset(stream)
                memberEnded = false
            }
            let status = inflate(stream, Z_NO_FLUSH)
            switch status {
            case Z_OK:
                continue
            case Z_STREAM_END:
                memberEnded = true
            case Z_BUF_ERROR where stream.pointee.avail_in == 0 && !inputEnded:
                continue  // needs more input; the top of the loop reads it
            case Z_BUF_ERROR:
                return try fail("unexpected end of file", produced: produced)
            default:
                return try fail(GzipSource.message(of: stream, status: status), produced: produced)
            }
        }
        return produced
    }

    /// Throws now when nothing was produced in this call; otherwise returns the good bytes
    /// and keeps the error for the next call.
    private func fail(_ reason: String, produced: Int) throws(SluiceError) -> Int {
        let error = SluiceError(.data, "\(name): invalid gzip data: \(reason)")
        pendingError = error
        if produced == 0 { throw error }
        return produced
    }

    private static func message(of stream: UnsafeMutablePointer<z_stream>, status: Int32) -> String {
        if let text = stream.pointee.msg { return String(cString: text) }
        if let text = zError(status) { return String(cString: text) }
        return "zlib error \(status)"
    }
}
