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
    /// What the reading thread hands over: a chunk, or the end of the source (with its
    /// failure, if it failed).
    private enum Piece {
        case chunk(bytes: UnsafeRawBufferPointer, storedBytesRead: Int64, prepared: Prepared)
        case end(storedBytesRead: Int64, failure: SluiceError?)
    }

    /// Chunks read, to the parsing thread.
    private let ready = HandOff<Piece>(capacity: 2)
    /// The buffers the reading thread may fill: two at first, then each one the parser is done
    /// with. Chunk `n` goes to buffer `n % 2`, so it is read only once chunk `n - 2` is parsed.
    private let free = HandOff<Void>(capacity: 2)
    private var reading: Reading?
    private var thread: JoinableThread?
    /// A chunk returned by `next()` is being parsed: its buffer goes back with the next call.
    private var parsing = false
    /// The end, once `next()` met it: later calls meet it again.
    private var end: Piece?
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
            return
        }
        let reading = Reading(ChunkReader(source: source, chunkSize: chunkSize, buffers: 2), prepare: prepare)
        self.reading = reading
        free.put(())
        free.put(())
        let (ready, free) = (ready, free)
        thread = JoinableThread { reading.fill(ready: ready, free: free) }
    }

    /// Stops the reading thread (it finishes the chunk it is reading) and joins it.
    deinit {
        ready.close()
        free.close()
        thread.take()?.join()
    }

    /// The next chunk and what `prepare` made of it, or nil at the end of the source. The
    /// bytes are valid until the next call.
    func next() throws(SluiceError) -> (bytes: UnsafeRawBufferPointer, prepared: Prepared)? {
        guard reading != nil else {
            let chunk = try direct!.next()
            bytesRead = direct!.bytesRead
            storedBytesRead = direct!.source.storedBytesRead
            return chunk.map { ($0, prepare($0)) }
        }
        if parsing {
            // Taking the next chunk gives the previous one's buffer back to the reading thread.
            free.put(())
            parsing = false
        }
        // The reading thread hands over an end before it stops, so only a second call after
        // the end finds nothing.
        guard let piece = end ?? ready.take() else { preconditionFailure("the reading thread ended without an end") }
        switch piece {
        case .chunk(let bytes, let stored, let prepared):
            parsing = true
            bytesRead += Int64(bytes.count)
            storedBytesRead = stored
            return (bytes, prepared)
        case .end(let stored, let failure):
            end = piece
            storedBytesRead = stored  // gzip's trailer is read after its last byte
            if let failure { throw failure }
            return nil
        }
    }

    /// The reading thread's reader. Owned by the `ReadAhead` rather than the thread: its
    /// buffers must outlive the thread until the last chunk is parsed.
    private final class Reading: @unchecked Sendable {
        private var reader: ChunkReader
        private let prepare: (UnsafeRawBufferPointer) -> Prepared

        init(_ reader: ChunkReader, prepare: @escaping (UnsafeRawBufferPointer) -> Prepared) {
            self.reader = reader
            self.prepare = prepare
        }

        /// The reading thread: a chunk into each buffer the parser gave back, until the end
        /// or until the `ReadAhead` closes the hand-overs.
        func fill(ready: HandOff<Piece>, free: HandOff<Void>) {
            while free.take() != nil {
                let chunk: UnsafeRawBufferPointer?
                do {
                    chunk = try reader.next()
                } catch {
                    ready.put(.end(storedBytesRead: reader.source.storedBytesRead, failure: error))
                    return
                }
                let stored = reader.source.storedBytesRead
                guard let chunk else {
                    ready.put(.end(storedBytesRead: stored, failure: nil))
                    return
                }
                guard ready.put(.chunk(bytes: chunk, storedBytesRead: stored, prepared: prepare(chunk))) else { return }
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
