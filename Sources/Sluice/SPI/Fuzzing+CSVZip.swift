/// The fuzz targets of the CSV reader and the zip reader (`Fuzz/README.md`): each run is
/// described as lines, so that the same bytes read in different chunkings can be compared.
extension Fuzzing {
    /// The CSV reader's events for `bytes` fed in chunks of `chunkSize`: a line per event (a
    /// row with its position, each key and value, each record error with its place), the
    /// replacement characters and the padding dropped counted, and the error that ended the input.
    public static func readCSV(_ bytes: [UInt8], chunkSize: Int, tab: Bool = false, maxValueBytes: Int = 64 << 20,
                               replace: Bool = false) -> [String] {
        let recorder = CSVEventLines()
        let reader = CSVReader(sourceName: "fuzz.csv", handler: recorder, options: .init(
            separator: tab ? 0x09 : UInt8(ascii: ","), maxValueBytes: maxValueBytes, invalidText: replace ? .replace : .reject))
        recorder.reader = reader
        if let failure = feedCSV(bytes, to: reader, chunkSize: chunkSize) { recorder.lines.append("error \(failure)") }
        recorder.lines.append("replaced \(reader.replacementCharacters)")
        recorder.lines.append("padding dropped \(reader.paddedNames) names \(reader.blanksAfterQuotes) after quotes")
        return recorder.lines
    }

    /// CSV rows mapped with `model` as the records of `entity` (rejections collected as under
    /// `--on-error skip`, with their captured text unless `capturesRejectedRecords` is false).
    /// Each input of `bytes` is read by a reader of its own, its header first, into one
    /// stream. `fastPaths` false takes the assembler's general path for every event.
    public static func mapCSV(_ bytes: [UInt8]..., model: Model, entity: String, chunkSize: Int,
                              maxValueBytes: Int = 64 << 20, capturesRejectedRecords: Bool = true,
                              fastPaths: Bool = true) throws -> Outcome {
        let plan = try MappingPlan(model: model, locations: .init(entity: entity))
        let sink = CollectingSink(plan: plan)
        let stream = RecordStream(plan: plan, sink: sink, maxValueBytes: maxValueBytes,
                                  capturesRejectedRecords: capturesRejectedRecords, fastPaths: fastPaths)
        for input in bytes {
            let reader = CSVReader(sourceName: "fuzz.csv", handler: stream, options: .init(maxValueBytes: maxValueBytes))
            stream.parser = reader
            if let failure = feedCSV(input, to: reader, chunkSize: chunkSize) {
                sink.outcome.lines.append("error \(failure)")
                break
            }
        }
        return sink.outcome
    }

    /// The zip reader over `bytes`, the archive handed over `readSize` bytes at a time (a pipe's
    /// short reads) and each entry read in chunks of `chunkSize`: a line per entry (its path,
    /// size and a hash of its bytes) and the error that ended the archive.
    public static func readZip(_ bytes: [UInt8], readSize: Int, chunkSize: Int) -> [String] {
        let reader = ZipReader(source: ShortReads(bytes, readSize: readSize))
        var lines: [String] = []
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(chunkSize, 1), alignment: 16)
        defer { buffer.deallocate() }
        do throws(SluiceError) {
            while let entry = try reader.nextEntry() {
                // Every other entry is left unread: the next one drains and checks it.
                if lines.count % 2 == 1 {
                    lines.append("skipped \(entry.path)")
                    continue
                }
                var count = 0
                var hash: UInt64 = 0xCBF2_9CE4_8422_2325
                while true {
                    let read = try entry.read(into: buffer)
                    if read == 0 { break }
                    for byte in buffer[..<read] { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 }
                    count += read
                }
                lines.append("entry \(entry.path) \(count) \(hash)")
            }
        } catch {
            lines.append("error \(error)")
        }
        return lines
    }

    private static func feedCSV(_ bytes: [UInt8], to reader: CSVReader, chunkSize: Int) -> SluiceError? {
        let step = max(chunkSize, 1)
        var start = 0
        while start < bytes.count {
            let end = min(start + step, bytes.count)
            let failure = bytes[start..<end].withUnsafeBytes { chunk -> SluiceError? in
                do throws(SluiceError) { try reader.parse(chunk) } catch { return error }
                return nil
            }
            if let failure { return failure }
            start = end
        }
        do { try reader.finish() } catch { return error }
        return nil
    }

    private final class CSVEventLines: EventHandler {
        var lines: [String] = []
        weak var reader: CSVReader?

        func startObject() { lines.append("{ \(reader?.tokenPosition(length: 1).description ?? "?")") }
        func key(_ bytes: UnsafeRawBufferPointer) { lines.append("key \(text(bytes))") }
        func endObject() { lines.append("}") }
        func startArray() { lines.append("[") }
        func endArray() { lines.append("]") }
        func null() { lines.append("null") }
        func bool(_ value: Bool) { lines.append("\(value)") }
        func number(_ text: UnsafeRawBufferPointer) { lines.append("number \(self.text(text))") }
        func string(_ bytes: UnsafeRawBufferPointer) { lines.append("string \(text(bytes))") }
        func invalidText(_ error: SluiceError) { lines.append("record error \(error)") }

        /// The bytes as text; a line that is not valid UTF-8 says so (the reader must never hand one over).
        private func text(_ bytes: UnsafeRawBufferPointer) -> String {
            String(validating: bytes, as: UTF8.self).map { "\"\($0)\"" } ?? "INVALID UTF-8"
        }
    }

    /// Bytes in memory, handed over at most `readSize` at a time.
    private final class ShortReads: ByteSource {
        private let bytes: [UInt8]
        private let readSize: Int
        private var position = 0

        init(_ bytes: [UInt8], readSize: Int) {
            self.bytes = bytes
            self.readSize = max(readSize, 1)
        }

        var name: String { "fuzz.zip" }
        var expectedSize: Int64? { Int64(bytes.count) }
        var storedSize: Int64? { expectedSize }
        var storedBytesRead: Int64 { Int64(position) }
        var waitsForInput: Bool { false }

        func read(into buffer: UnsafeMutableRawBufferPointer) throws(SluiceError) -> Int {
            let count = min(buffer.count, readSize, bytes.count - position)
            guard count > 0 else { return 0 }
            bytes.withUnsafeBytes { source in
                buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: source[position..<position + count]))
            }
            position += count
            return count
        }
    }
}
