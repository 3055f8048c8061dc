/// What is found in a chunk of input before yajl lexes it: its invalid text, and where a
/// vertical tab or form feed ends the input.
struct ChunkScan: Sendable {
    /// Invalid text found in the chunk (`TextScanner`), in the order found.
    var faults: [TextFault] = []
    /// The index of a vertical tab or form feed, where the scan stopped.
    var stop: Int?
}

/// Scans an input's chunks in order, each before the parser gets it (`JSONParser.parse(_:scan:)`).
///
/// The parser does not need the scan to be its own: a reading thread that has a chunk before
/// the parser does (`ReadAhead`) scans it there, off the parsing thread, which is the import's
/// slower half. Its state carries from chunk to chunk, so one scanner sees all of one input.
struct ChunkScanner {
    private var text = TextScanner()
    /// Where the next chunk starts in the input.
    private var offset: Int64 = 0

    mutating func scan(_ chunk: UnsafeRawBufferPointer) -> ChunkScan {
        var scan = ChunkScan()
        scan.stop = text.scan(chunk, at: offset)
        scan.faults = text.takeFound()
        offset += Int64(chunk.count)
        return scan
    }
}
