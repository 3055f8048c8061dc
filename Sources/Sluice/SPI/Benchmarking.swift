/// Entry points for `Benchmarks/` that measure one stage of the pipeline alone. Not API:
/// `@_spi(Benchmarks) import Sluice` to use them.
@_spi(Benchmarks)
public enum Benchmarking {
    /// Reads a file (or `-`, gzip detected) and runs `JSONParser` over it with a handler that
    /// does nothing: the parser's ceiling, with no records assembled and nothing written.
    /// Returns the number of JSON events (scalars, keys, brackets).
    public static func countEvents(inFile path: String, chunkSize: Int = 1 << 20) throws(SluiceError) -> Int {
        try countEvents(in: InputOpener.open(path: path), chunkSize: chunkSize)
    }

    /// The same over bytes held in memory.
    public static func countEvents(in bytes: some Collection<UInt8>, chunkSize: Int = 1 << 20) throws(SluiceError) -> Int {
        try countEvents(in: MemorySource(bytes, name: "<memory>"), chunkSize: chunkSize)
    }

    private static func countEvents(in source: ByteSource, chunkSize: Int) throws(SluiceError) -> Int {
        let counter = EventCounter()
        let parser = JSONParser(sourceName: source.name, handler: counter)
        var reader = ChunkReader(source: source, chunkSize: chunkSize)
        while let chunk = try reader.next() {
            try parser.parse(chunk)
        }
        try parser.finish()
        return counter.events
    }
}

/// A handler that only counts what it is handed.
private final class EventCounter: EventHandler {
    var events = 0
    func startObject() { events += 1 }
    func key(_ bytes: UnsafeRawBufferPointer) { events += 1 }
    func endObject() { events += 1 }
    func startArray() { events += 1 }
    func endArray() { events += 1 }
    func null() { events += 1 }
    func bool(_ value: Bool) { events += 1 }
    func number(_ text: UnsafeRawBufferPointer) { events += 1 }
    func string(_ bytes: UnsafeRawBufferPointer) { events += 1 }
}
