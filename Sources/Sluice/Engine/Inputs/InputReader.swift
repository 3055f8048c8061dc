/// Reads an import's inputs (`Importer`): a file, standard input, or each entry of a zip
/// archive, parsed by its format (`JSONParser`, `CSVReader`) into the target's stream. Where
/// an input's records go is chosen by its names before it is parsed (`ImportTarget.route`);
/// what was read of each input is kept here for the report and `sluice_imports`.
final class InputReader {
    private let options: ImportOptions
    private let clock: MonotonicClock
    /// The database as an interruption names it.
    private let databaseName: String
    /// The inputs read so far, by name.
    private(set) var sources: [String] = []
    /// What was read of each input (`sluice_imports.inputs`).
    private(set) var digests: [InputDigest] = []
    private(set) var bytes: Int64 = 0
    /// Bytes of the finished inputs as stored (compressed for gzip), for progress.
    private(set) var storedBytes: Int64 = 0
    private(set) var records = 0
    private(set) var replacementCharacters = 0
    /// Inputs skipped (an archive's entries that are no input, or that nothing maps), and what
    /// CSV readers dropped as padding.
    private(set) var notes: [String] = []
    /// The `feed_version` of the input being read, once its `feed_info.txt` was read.
    private var feedVersion: String?
    /// The input being read is one entity's (`Importer.importFile(_:entity:path:)`): its plan
    /// and the key path of its records.
    var oneEntity: (plan: MappingPlan, path: [String])?

    init(options: ImportOptions, clock: MonotonicClock, databaseName: String) {
        self.options = options
        self.clock = clock
        self.databaseName = databaseName
    }

    /// An input as the importer is given it: `source` decoded (gzip inflated), over `digest`,
    /// which digests its raw bytes as they are read.
    typealias Input = (source: ByteSource, digest: DigestingSource)

    /// The file `path` (`-`: standard input); `stopsWhenInterrupted` lets a read blocked on an
    /// idle input (a FIFO, a terminal) give up.
    static func file(_ path: String, stopsWhenInterrupted: (@Sendable () -> Bool)?) throws(SluiceError) -> Input {
        try decoding(InputOpener.file(path: path, stopsWhenInterrupted: stopsWhenInterrupted))
    }

    /// Standard input.
    static func standardInput(stopsWhenInterrupted: (@Sendable () -> Bool)?) throws(SluiceError) -> Input {
        let input = FileSource.standardInput()
        input.stopsWhenInterrupted = stopsWhenInterrupted
        return try decoding(input)
    }

    /// Bytes held in memory.
    static func bytes(_ bytes: some Collection<UInt8>, name: String) throws(SluiceError) -> Input {
        try decoding(MemorySource(bytes, name: name))
    }

    /// `raw` as it comes, its bytes digested beneath the decoders (`DigestingSource`).
    static func decoding(_ raw: ByteSource) throws(SluiceError) -> Input {
        let digest = DigestingSource(raw)
        return (try InputOpener.decompressing(digest), digest)
    }

    /// Reads `source` (decoded) into `target`: a zip archive's entries, or the one input.
    func read(_ source: ByteSource, into target: any ImportTarget) throws(SluiceError) {
        feedVersion = nil
        if InputOpener.isZip(source) {
            try readArchive(source, into: target)
        } else {
            let format = options.format ?? InputFormat.named(source.name) ?? .json
            try read(source, format: format, fileNames: InputNames.fileNames(of: source.name), inArchive: false, into: target)
        }
    }

    /// Records what was read of `input`, just read (its raw bytes' digest).
    func finishInput(_ input: Input) throws(SluiceError) {
        let (bytes, sha256) = try input.digest.finish()
        digests.append(InputDigest(name: input.source.name, bytes: bytes, sha256: sha256, feedVersion: feedVersion))
    }

    /// The import's row of `sluice_imports`: what was read, and what `report` counted of it.
    func record(of report: ImportReport, startedAt: UnixTime, modelSHA256: String, feed: String?) -> ImportRecord {
        ImportRecord(startedAt: startedAt.iso8601, finishedAt: UnixTime.now().iso8601,
                     sources: sources.joined(separator: "\n"), bytes: bytes, records: Int64(records),
                     inserted: Int64(report.inserted), updated: Int64(report.updated), unchanged: Int64(report.unchanged),
                     rejected: Int64(report.rejected), unresolved: Int64(report.unresolved), modelSHA256: modelSHA256,
                     inputs: InputDigest.json(digests), feed: feed)
    }

    /// Reads a zip archive's entries in archive order, each an input of the format its name
    /// says (`InputFormat.named(_:inArchive:)`); folders are passed over, and entries of no
    /// such format, or macOS's metadata (`__MACOSX/`, `._name`), are skipped with a note.
    private func readArchive(_ source: ByteSource, into target: any ImportTarget) throws(SluiceError) {
        let archive = ZipReader(source: source)
        while let entry = try archive.nextEntry() {
            try checkCancellation()
            if entry.isDirectory { continue }
            let fileName = entry.path.split(separator: "/").last.map(String.init) ?? entry.path
            let isMetadata = entry.path.hasPrefix("__MACOSX/") || fileName.hasPrefix("._")
            guard !isMetadata, let format = InputFormat.named(entry.path, inArchive: true) else {
                notes.append("\(entry.name): skipped: "
                    + (isMetadata ? "macOS metadata" : "not CSV (.csv, .txt), TSV (.tsv) or JSON (.json, .ndjson, .jsonl)"))
                continue
            }
            try target.selectTable(named: InputNames.stem(of: entry.path))
            try read(InputOpener.decompressing(entry), format: format, fileNames: InputNames.fileNames(of: entry.path),
                     inArchive: true, into: target)
            // A reader stopped early (the entry was skipped): its CRC is still checked.
            try entry.drain()
        }
        try target.selectTable(named: nil)
    }

    /// Reads one input (a file, standard input, an entry of an archive) of `format` to its
    /// end, its records where `target` routes them by `fileNames`; when nothing names a CSV
    /// input's rows, an archive's entry is skipped with a note and any other input is a usage error.
    private func read(_ source: ByteSource, format: InputFormat, fileNames: [String], inArchive: Bool,
                      into target: any ImportTarget) throws(SluiceError) {
        guard let route = target.route(forInput: fileNames, format: format, oneEntity: oneEntity) else {
            let name = fileNames.first ?? source.name
            if inArchive {
                let how = Model.RootOverride(key: name, entity: "").hasValidKey
                    ? "map it with --root \(name)=ENTITY or in the root" : UnknownCSV.unnamable
                notes.append("\(source.name): skipped: the model's root names no entity for '\(name)' (\(how))")
                return
            }
            let names = options.optionNames
            let how = "map it with \(names == .commandLine ? "--root \(name)=ENTITY" : "ImportOptions.roots (\(name)=ENTITY)"), "
                + "the model's root (\"\(name)\": \"ENTITY\") or \(names(.entity))"
            throw SluiceError(.usage, "\(source.name): the model's root names no entity for '\(name)': \(how)")
        }
        sources.append(source.name)
        let stream = try target.stream(for: source.name, input: sources.count - 1, route: route)
        let recordsBefore = stream.recordCount
        var json: JSONParser?
        var csv: CSVReader?
        var tap: FeedVersionTap?
        if format == .json {
            var parserOptions = JSONParser.Options()
            parserOptions.maxValueBytes = options.maxValueBytes
            parserOptions.invalidText = options.invalidText
            // `--header`, else the root's table of rows: arrays of fields made objects.
            var table = route.table
            if let header = options.header { table = (options.path.map { JSONKeyPath(parsing: $0).keys } ?? [], header) }
            let rows = table.map { TabularRows(inner: stream, path: $0.path, header: $0.header) }
            let handler: any EventHandler = rows ?? stream
            let parser = JSONParser(sourceName: source.name, handler: handler, options: parserOptions)
            stream.parser = parser
            rows?.parser = parser
            json = parser
        } else {
            // A feed's `feed_info.txt`: its version is recorded with the input (`InputDigest`).
            tap = FeedVersionTap.wanted(for: fileNames) ? FeedVersionTap(inner: stream) : nil
            let reader = CSVReader(sourceName: source.name, handler: tap ?? stream, options: .init(
                separator: format.separator, maxValueBytes: options.maxValueBytes, invalidText: options.invalidText))
            stream.parser = reader
            csv = reader
        }
        // Each chunk's JSON text is scanned (`ChunkScanner`) on the thread that reads it.
        var scanner = ChunkScanner()
        let reader = ReadAhead(source: source, chunkSize: options.chunkSize) { chunk in
            format == .json ? scanner.scan(chunk) : ChunkScan()
        }
        // The first bytes, for the notes on an input whose records were not found.
        var head: [UInt8] = []
        while let chunk = try reader.next() {
            try checkCancellation()
            if head.count < InputShape.headLimit, json != nil {
                head += chunk.bytes.prefix(InputShape.headLimit - head.count)
            }
            if let json { try json.parse(chunk.bytes, scan: chunk.prepared) } else { try csv!.parse(chunk.bytes) }
            if let progress = options.progress {
                progress(ImportProgress(bytesRead: storedBytes + reader.storedBytesRead,
                                        totalBytes: source.storedSize.map { storedBytes + $0 },
                                        records: records + stream.recordCount - recordsBefore,
                                        seconds: clock.elapsedSeconds))
            }
        }
        try checkCancellation()
        if let json {
            try json.finish()
        } else {
            try csv!.finish()
            notes += Self.paddingNotes(csv!, input: source.name)
            if let version = tap?.version { feedVersion = version }
        }
        bytes += reader.bytesRead
        storedBytes += reader.storedBytesRead
        records += stream.recordCount - recordsBefore
        target.inputEnded(source.name, stream: stream, records: stream.recordCount - recordsBefore, head: json != nil ? head : nil)
        replacementCharacters += json?.replacementCharacters ?? csv?.replacementCharacters ?? 0
    }

    /// What a CSV input's reader dropped as padding, one note each (`docs/import-semantics.md#csv`).
    private static func paddingNotes(_ csv: CSVReader, input: String) -> [String] {
        var notes: [String] = []
        if csv.paddedNames > 0 {
            let names = csv.paddedNames == 1 ? "1 header name" : "\(csv.paddedNames) header names"
            notes.append("\(input): \(names) had spaces or tabs around \(csv.paddedNames == 1 ? "it" : "them"); dropped")
        }
        if csv.blanksAfterQuotes > 0 {
            let fields = csv.blanksAfterQuotes == 1 ? "1 quoted field" : "\(csv.blanksAfterQuotes) quoted fields"
            notes.append("\(input): \(fields) had spaces or tabs after \(csv.blanksAfterQuotes == 1 ? "its" : "their") closing quote; dropped")
        }
        return notes
    }

    func checkCancellation() throws(SluiceError) {
        if options.cancellation?.isCancelled == true { throw .interrupted(database: databaseName) }
    }
}
