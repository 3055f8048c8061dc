/// Hands out a source's chunks while the next one is read on a thread of its own.
///
/// Reading is not free: `read(2)` copies every byte from the page cache (about a tenth of the
/// parsing thread's time on a plain file) and a gzip input is inflated there. Parsing is the
/// slower half of an import, so that work is moved to a second thread, one chunk ahead. Two
/// buffers take turns: the one being parsed and the one being filled, so memory stays two
/// chunks however large the input. What else can be done to a chunk before it is parsed
/// (`prepare`, run on the thread that read it: the importer scans it there, `ChunkScanner`)
/// comes with it.
///
/// A source that may wait indefinitely for its producer (`ByteSource.waitsForInput`: a pipe,
/// a terminal) is read on the calling thread instead, as a plain `ChunkReader` does: a read
/// blocked on an idle pipe must be where a signal interrupts it and the import sees the
/// cancellation, and a pipe's producer runs in parallel anyway.
///
/// Failures keep their place: a read error is thrown by the `next()` that would have returned
/// that chunk, after every chunk before it.
final class ReadAhead<Prepared> {
    private let shared: Shared?
    private var thread: JoinableThread?
    /// The reader used on the calling thread when the source waits for input.
    private var direct: ChunkReader?
    private let prepare: (UnsafeRawBufferPointer) -> Prepared
    /// Bytes of the chunks returned so far (decompressed for gzip), as `ChunkReader.bytesRead`.
    private(set) var bytesRead: Int64 = 0
    /// The source's `storedBytesRead` when the last chunk returned was read, for progress. The
    /// source itself belongs to the reading thread and is not asked.
    private(set) var storedBytesRead: Int64 = 0

    /// `prepare` is called with each chunk, in order, on the thread that read it.
    init(source: ByteSource, chunkSize: Int = 1 << 20, prepare: @escaping (UnsafeRawBufferPointer) -> Prepared) {
        self.prepare = prepare
        guard !source.waitsForInput else {
            direct = ChunkReader(source: source, chunkSize: chunkSize)
            shared = nil
            return
        }
        let shared = Shared(ChunkReader(source: source, chunkSize: chunkSize, buffers: 2), prepare: prepare)
        self.shared = shared
        thread = JoinableThread { shared.fill() }
    }

    /// Stops the reading thread (it finishes the chunk it is reading) and joins it.
    deinit {
        guard let shared else { return }
        shared.lock.lock()
        shared.stopping = true
        shared.lock.broadcast()
        shared.lock.unlock()
        thread.take()?.join()
    }

    /// The next chunk and what `prepare` made of it, or nil at the end of the source. The
    /// bytes are valid until the next call.
    func next() throws(SluiceError) -> (bytes: UnsafeRawBufferPointer, prepared: Prepared)? {
        guard let shared else {
            let chunk = try direct!.next()
            bytesRead = direct!.bytesRead
            storedBytesRead = direct!.source.storedBytesRead
            return chunk.map { ($0, prepare($0)) }
        }
        shared.lock.lock()
        defer { shared.lock.unlock() }
        // Taking the next chunk gives the previous one's buffer back to the reading thread.
        shared.taken += 1
        shared.lock.broadcast()
        while shared.ready.isEmpty && !shared.ended { shared.lock.wait() }
        guard !shared.ready.isEmpty else {
            if let failure = shared.failure { throw failure }
            storedBytesRead = shared.storedAtEnd  // gzip's trailer is read after its last byte
            return nil
        }
        let chunk = shared.ready.removeFirst()
        bytesRead += Int64(chunk.bytes.count)
        storedBytesRead = chunk.storedBytesRead
        return (chunk.bytes, chunk.prepared)
    }

    /// What the two threads share; every property but `reader` and `prepare` is read and
    /// written under `lock`.
    private final class Shared: @unchecked Sendable {
        let lock = Monitor()
        /// Used by the reading thread only; kept here because its buffers must outlive the
        /// thread until the last chunk is parsed.
        private var reader: ChunkReader
        /// Used by the reading thread only.
        private let prepare: (UnsafeRawBufferPointer) -> Prepared
        /// Chunks read and not yet taken, oldest first: at most two, when the parser waits in
        /// `next()` (having given its chunk's buffer back) while both are filled.
        var ready: [(bytes: UnsafeRawBufferPointer, storedBytesRead: Int64, prepared: Prepared)] = []
        /// Calls of `next()` so far; the chunk returned by the last one is being parsed.
        var taken = 0
        /// Chunks read so far. Chunk `n` goes to buffer `n % 2`, free once chunk `n - 2` is
        /// no longer parsed: once `taken` passed `n - 1`, so reading may go on while
        /// `produced <= taken`.
        var produced = 0
        /// The source ended or failed: nothing more comes.
        var ended = false
        var storedAtEnd: Int64 = 0
        var failure: SluiceError?
        var stopping = false

        init(_ reader: ChunkReader, prepare: @escaping (UnsafeRawBufferPointer) -> Prepared) {
            self.reader = reader
            self.prepare = prepare
        }

        /// The reading thread: one chunk ahead of the one being parsed, never further (its
        /// buffer would be the one the parser still reads).
        func fill() {
            lock.lock()
            defer { lock.unlock() }
            while !stopping {
                guard produced <= taken else {
                    lock.wait()
                    continue
                }
                lock.unlock()
                var chunk: UnsafeRawBufferPointer?
                var error: SluiceError?
                do { chunk = try reader.next() } catch let failed { error = failed }
                let stored = reader.source.storedBytesRead
                let prepared = chunk.map(prepare)
                lock.lock()
                if let chunk, let prepared {
                    ready.append((chunk, stored, prepared))
                    produced += 1
                } else {
                    failure = error
                    storedAtEnd = stored
                    ended = true
                    stopping = true
                }
                lock.broadcast()
            }
        }
    }
}

extension ReadAhead where Prepared == Void {
    /// Chunks with nothing more done to them.
    convenience init(source: ByteSource, chunkSize: Int = 1 << 20) {
        self.init(source: source, chunkSize: chunkSize) { _ in }
    }
}
