/// Turns absolute byte offsets into lines and columns while the input streams past.
///
/// Newlines are counted once, with `memchr`, up to the furthest offset asked for, so the cost
/// is one pass over the input however many positions are requested. Offsets asked for must
/// not go backwards past a newline already counted, which holds for a parser's tokens.
struct LineTracker {
    /// Lines completed before `countedTo`.
    private var newlines = 0
    /// Absolute offset just after the last newline counted (the start of the current line).
    private var lineStart: Int64 = 0
    /// Everything before this absolute offset has been counted.
    private var countedTo: Int64 = 0

    /// Counts the newlines of `chunk` (which starts at absolute `chunkStart`) up to `offset`.
    @inline(__always)  // forced: docs/performance.md#forced-inlining
    mutating func advance(to offset: Int64, in chunk: UnsafeRawBufferPointer, chunkStart: Int64) {
        guard offset > countedTo, let base = chunk.baseAddress else { return }
        let from = Int(max(countedTo, chunkStart) - chunkStart)
        let to = Int(min(offset, chunkStart + Int64(chunk.count)) - chunkStart)
        var cursor = from
        while let index = MemoryBytes.firstIndex(of: 0x0A, in: base, from: cursor, to: to) {
            newlines += 1
            lineStart = chunkStart + Int64(index) + 1
            cursor = index + 1
        }
        countedTo = chunkStart + Int64(to)
    }

    /// The line and column of an offset at or after the last newline counted.
    func position(of offset: Int64) -> InputPosition {
        InputPosition(line: newlines + 1, column: Int(max(offset - lineStart, 0)) + 1, offset: offset)
    }
}
