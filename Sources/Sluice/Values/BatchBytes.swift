/// The bytes of a batch's text and blob values (`EntityBatch.bytes`): an array that keeps its
/// length from batch to batch, written in place up to `count`.
///
/// A batch is a value handed between threads, so its bytes cannot be a `ByteArena`; and
/// appending a record's bytes to an `[UInt8]` took about a hundred instructions besides the
/// copy (the generic append path). Here an append is a uniqueness check and a `memcpy`.
struct BatchBytes: Sendable, CellArena {
    /// Written up to `count`; longer after a larger batch, never read past `count`.
    private var storage: [UInt8] = []
    private(set) var count = 0

    init() {}

    @inline(__always)  // forced: docs/performance.md#forced-inlining
    mutating func append(cellBytes bytes: UnsafeRawBufferPointer) -> Int {
        let offset = count
        if storage.count - count < bytes.count { grow(toAtLeast: count + bytes.count) }
        if let source = bytes.baseAddress {
            storage.withUnsafeMutableBytes { ($0.baseAddress! + offset).copyMemory(from: source, byteCount: bytes.count) }
        }
        count += bytes.count
        return offset
    }

    /// Empties it, keeping its memory.
    mutating func removeAll() { count = 0 }

    /// Calls `body` with the bytes written so far.
    func withUnsafeBytes<Result, Failure: Error>(_ body: (UnsafeRawBufferPointer) throws(Failure) -> Result)
        throws(Failure) -> Result
    {
        var outcome: Swift.Result<Result, Failure>!
        storage.withUnsafeBytes { all in
            do throws(Failure) {
                outcome = .success(try body(UnsafeRawBufferPointer(rebasing: all[..<count])))
            } catch {
                outcome = .failure(error)
            }
        }
        return try outcome.get()
    }

    /// Lengthens it to `needed`, no further: the array's capacity grows by doubling, but only
    /// the bytes written are touched, so memory stays the largest batch's bytes.
    @inline(never)
    private mutating func grow(toAtLeast needed: Int) {
        storage.append(contentsOf: repeatElement(0, count: needed - storage.count))
    }
}
