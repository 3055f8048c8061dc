/// Reads the header rows of CSV inputs ahead of an import (`UnknownCSV`): a CSV or TSV file,
/// or each CSV or TSV entry of a zip archive, as the import would take it (`Importer`'s
/// formats and names). Only the header is read; an archive's other bytes are passed over.
enum CSVHeaders {
    /// A CSV input's header: its names, or the input error in it (a name given twice, invalid
    /// text), with the input's name in messages and the names its rows may be mapped by
    /// (`InputNames.fileNames`).
    typealias Header = (input: String, fileNames: [String], header: Result<[String], SluiceError>)

    /// The header of each CSV input in the file at `path`. An input that cannot be read, or
    /// has no header, is left out: the import says what is wrong with it. A cancellation
    /// (`options.cancellation`) ends the read at the next entry or 64 KiB: the import that
    /// follows stops at its first check.
    static func read(path: String, options: ImportOptions) -> [Header] {
        var headers: [Header] = []
        let cancelled = { options.cancellation?.isCancelled == true }
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
            while !cancelled(), let entry = try archive.nextEntry() {
                let fileName = entry.path.split(separator: "/").last.map(String.init) ?? entry.path
                if !entry.isDirectory, !entry.path.hasPrefix("__MACOSX/"), !fileName.hasPrefix("._"),
                   let format = InputFormat.named(entry.path, inArchive: true), format != .json,
                   let header = header(of: try InputOpener.decompressing(entry), format: format, options: options) {
                    headers.append((entry.name, InputNames.fileNames(of: entry.path), header))
                }
                // The rest is the import's to read (and check): here it is only passed over.
                try entry.skipUnchecked(unless: cancelled)
            }
        } catch {
            // A damaged archive: what was read so far still counts; the import reports the damage.
        }
        return headers
    }

    /// The header row of a CSV input, or the input error in it: read until its first row
    /// begins (or the input ends), in chunks as the import reads it (a byte order mark before
    /// it is left out); nil when the input ends before its header does, or cannot be read.
    static func header(of source: ByteSource, format: InputFormat, options: ImportOptions) -> Result<[String], SluiceError>? {
        let reader = CSVReader(sourceName: source.name, handler: FirstRowStop(), options: .init(
            separator: format.separator, maxValueBytes: options.maxValueBytes, invalidText: options.invalidText))
        var chunks = ChunkReader(source: source, chunkSize: 64 << 10)
        while reader.header == nil, options.cancellation?.isCancelled != true {
            let chunk: UnsafeRawBufferPointer?
            do {
                chunk = try chunks.next()
            } catch {
                break  // An input that cannot be read is the import's to report.
            }
            do {
                if let chunk { try reader.parse(chunk) } else { try reader.finish() }
            } catch {
                // `FirstRowStop` ended the read at the first row, or the header is bad.
                return reader.header.map { .success($0) } ?? .failure(error)
            }
            if chunk == nil { break }
        }
        return reader.header.map { .success($0) }
    }

    /// Stops the read where the first row after the header begins.
    private final class FirstRowStop: EventHandler {
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
