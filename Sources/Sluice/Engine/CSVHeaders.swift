/// Reads the header rows of CSV inputs ahead of an import (`UnknownCSV`): a CSV or TSV file,
/// or each CSV or TSV entry of a zip archive, as the import would take it (`Importer`'s
/// formats and names). Only the header is read; an archive's other bytes are passed over.
enum CSVHeaders {
    /// The header of each CSV input in the file at `path`, with the input's name in messages
    /// and the names its rows may be mapped by (`InputNames.fileNames`). An input that cannot
    /// be read, or has no header, is left out: the import says what is wrong with it.
    static func read(path: String, options: ImportOptions) -> [(input: String, fileNames: [String], header: [String])] {
        var headers: [(input: String, fileNames: [String], header: [String])] = []
        do {
            let source = try InputOpener.open(path: path)
            guard InputOpener.isZip(source) else {
                let format = options.format ?? InputFormat.named(source.name) ?? .json
                if format != .json, let header = header(of: source, format: format, options: options) {
                    headers.append((source.name, InputNames.fileNames(of: source.name), header))
                }
                return headers
            }
            let archive = ZipReader(source: source)
            while let entry = try archive.nextEntry() {
                let fileName = entry.path.split(separator: "/").last.map(String.init) ?? entry.path
                if !entry.isDirectory, !entry.path.hasPrefix("__MACOSX/"), !fileName.hasPrefix("._"),
                   let format = InputFormat.named(entry.path, inArchive: true), format != .json,
                   let header = header(of: try InputOpener.decompressing(entry), format: format, options: options) {
                    headers.append((entry.name, InputNames.fileNames(of: entry.path), header))
                }
                // The rest is the import's to read (and check): here it is only passed over.
                try entry.skipUnchecked()
            }
        } catch {
            // A damaged archive: what was read so far still counts; the import reports the damage.
        }
        return headers
    }

    /// The header row of a CSV input: read until its first row begins (or the input ends), in
    /// chunks as the import reads it (a byte order mark before it is left out).
    static func header(of source: ByteSource, format: InputFormat, options: ImportOptions) -> [String]? {
        let reader = CSVReader(sourceName: source.name, handler: FirstRowStop(), options: .init(
            separator: format.separator, maxValueBytes: options.maxValueBytes, invalidText: options.invalidText))
        var chunks = ChunkReader(source: source, chunkSize: 64 << 10)
        do {
            while reader.header == nil {
                guard let chunk = try chunks.next() else {
                    try reader.finish()
                    break
                }
                try reader.parse(chunk)
            }
        } catch {
            // `FirstRowStop` ended the read at the first row, or the header is bad (the import
            // reports it then).
        }
        return reader.header
    }

    /// Stops the read where the first row after the header begins.
    private final class FirstRowStop: JSONEventHandler {
        func startObject() throws(SluiceError) { throw SluiceError(.data, "the header is read") }
        func key(_: UnsafeRawBufferPointer) {}
        func endObject() {}
        func startArray() {}
        func endArray() {}
        func null() {}
        func bool(_: Bool) {}
        func number(_: UnsafeRawBufferPointer) {}
        func string(_: UnsafeRawBufferPointer) {}
        func invalidText(_: SluiceError) {}
    }
}
