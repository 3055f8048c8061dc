/// Bytes that async code hands over as they arrive (`Importer.run(…, chunks:)`), read as a
/// `ByteSource` by the import's own thread.
///
/// The sender suspends (it never blocks a thread of the cooperative pool) while a chunk is
/// still waiting to be read, so at most two chunks are held: the one waiting and the one whose
/// sender waits. The reader blocks on its own thread until a chunk, the end or a failure comes.
/// `close()` ends the hand-over from the reader's side (the import ended, or was cancelled): the
/// sender is told to stop and the reader sees the end.
final class ChunkChannel: @unchecked Sendable {
    // Below: read and written only while holding `lock`.
    private let lock = Monitor()
    private var waiting: [UInt8]?
    private var sender: (chunk: [UInt8], resume: CheckedContinuation<Bool, Never>)?
    private var ended = false
    private var failure: SluiceError?
    private var closed = false

    /// Hands `chunk` over, suspending while the one before it waits; false (and `chunk`
    /// dropped) once the import no longer reads.
    func send(_ chunk: [UInt8]) async -> Bool {
        await withCheckedContinuation { (resume: CheckedContinuation<Bool, Never>) in
            lock.lock()
            defer { lock.unlock() }
            if closed {
                resume.resume(returning: false)
            } else if waiting == nil {
                waiting = chunk
                lock.broadcast()
                resume.resume(returning: true)
            } else {
                sender = (chunk, resume)
            }
        }
    }

    /// No more chunks: the input ends after those sent, or fails with `failure` there.
    func end(failure: SluiceError? = nil) {
        lock.lock()
        defer { lock.unlock() }
        ended = true
        self.failure = failure
        lock.broadcast()
    }

    /// The reader stops: a sender waiting or to come gets false, the chunks waiting are
    /// dropped, a `take` waiting returns nil. Harmless when repeated.
    func close() {
        lock.lock()
        defer { lock.unlock() }
        closed = true
        waiting = nil
        sender?.resume.resume(returning: false)
        sender = nil
        lock.broadcast()
    }

    /// The next chunk, waiting for it; nil at the end (or once closed); the sender's failure
    /// after the chunks sent before it.
    func take() throws(SluiceError) -> [UInt8]? {
        lock.lock()
        defer { lock.unlock() }
        while waiting == nil && !ended && !closed { lock.wait() }
        if let chunk = waiting {
            waiting = sender?.chunk
            sender?.resume.resume(returning: true)
            sender = nil
            return chunk
        }
        if !closed, let failure { throw failure }
        return nil
    }
}

/// The reading side of a `ChunkChannel`: an input of unknown size that may wait for its
/// producer, so it is read on the parsing thread (`ReadAhead`).
final class ChunkChannelSource: ByteSource {
    let name: String
    private let channel: ChunkChannel
    private var chunk: [UInt8] = []
    private var offset = 0
    private(set) var storedBytesRead: Int64 = 0

    init(_ channel: ChunkChannel, name: String) {
        self.channel = channel
        self.name = name
    }

    var expectedSize: Int64? { nil }
    var storedSize: Int64? { nil }
    var waitsForInput: Bool { true }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws(SluiceError) -> Int {
        guard !buffer.isEmpty else { return 0 }
        while offset == chunk.count {
            guard let next = try channel.take() else { return 0 }
            chunk = next
            offset = 0
        }
        let count = chunk.copy(from: &offset, into: buffer)
        storedBytesRead += Int64(count)
        return count
    }
}
