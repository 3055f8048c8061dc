/// `sluice infer`: a starter model proposed from the first records of an input.
///
/// The input is read as an import reads it (a file or standard input, gzip inflated, any
/// shape an import accepts) but only until `sampleSize` records were seen: the rest of the
/// input is never read, so a sample of a 5 GB file or of an endless pipe costs the same.
/// (One top-level object is read to its end: it may be an envelope whose record arrays are
/// all needed; only the first `sampleSize` records of each array are analysed.)
///
/// ```swift
/// let inference = try ModelInference.infer(path: "stops.json")
/// print(inference.text)     // the model file
/// ```
public enum ModelInference {
    /// What `infer` reads and how it names the records (`sluice infer`'s options).
    public struct Options: Sendable {
        /// `--entity`: the entity of the top-level records (which are then never taken as an
        /// envelope). By default it is named after the file (`people.json` → `Person`), or
        /// `Record` for standard input.
        public var entity: String?
        /// `--sample`: how many records to read.
        public var sampleSize = 1_000
        /// The largest single JSON value accepted, in bytes (as `import --max-value-bytes`).
        public var maxValueBytes = 64 << 20
        /// `--format`: what the input is; by default by its name (`.csv`, `.tsv`), else JSON.
        public var format: InputFormat?

        /// The options of `sluice infer --entity entity --sample sampleSize`.
        public init(entity: String? = nil, sampleSize: Int = 1_000) {
            self.entity = entity
            self.sampleSize = sampleSize
        }
    }

    /// A proposed model, its file's text, and the notes on the choices that were fallbacks.
    public struct Result: Sendable {
        /// The model proposed, already validated as `sluice check` validates it.
        public var model: Model
        /// The model file's text: pretty JSON, stable order.
        public var text: String
        /// One line for each choice that was a fallback (mixed types, no identity, keys left out).
        public var notes: [String]
        /// Records read.
        public var records: Int
    }

    /// Infers a model from the file at `path` (`-` is standard input).
    public static func infer(path: String, options: Options = Options()) throws(SluiceError) -> Result {
        try infer(InputOpener.open(path: path), stem: InferenceNaming.fileStem(path),
                  format: options.format ?? InputFormat.named(path) ?? .json, options: options)
    }

    /// Infers a model from bytes in memory; `name` names them in errors and, like a file name,
    /// names the entity and table (`stops.json` → `Stop` in `stops`).
    public static func infer(bytes: some Collection<UInt8>, name: String = "<memory>", options: Options = Options())
        throws(SluiceError) -> Result
    {
        try infer(InputOpener.decompressing(MemorySource(bytes, name: name)),
                  stem: name.hasPrefix("<") ? nil : InferenceNaming.fileStem(name),
                  format: options.format ?? InputFormat.named(name) ?? .json, options: options)
    }

    private static func infer(_ source: ByteSource, stem: String?, format: InputFormat, options: Options)
        throws(SluiceError) -> Result
    {
        guard options.sampleSize > 0 else { throw SluiceError(.usage, "the sample must hold at least one record") }
        if let entity = options.entity, entity.isEmpty { throw SluiceError(.usage, "the entity name is empty") }
        let rootName = options.entity ?? stem.map(InferenceNaming.entityName(fromKey:)) ?? "Record"
        let rootTable = stem.map(InferenceNaming.identifier) ?? (options.entity == nil ? "records" : nil)

        let reader = SampleReader(limit: options.sampleSize, identityBase: IdentityCandidate.normalise(rootName))
        // A table is read as its records (`TabularRows`), found from the input's first bytes.
        let peeked = try peek(source, count: 1 << 16)
        let table = options.entity == nil && format == .json ? TabularSniffer.sniff(peeked, name: source.name) : nil
        let input = ReplaySource(peeked, then: source)
        try read(input, into: reader, table: table, format: format, maxValueBytes: options.maxValueBytes)
        guard reader.records > reader.nonObjectRecords else {
            let what = reader.records == 0 ? "no records" : "none of the \(reader.records) records read is an object"
            throw SluiceError(.data, "\(source.name): \(what): nothing to infer a model from")
        }

        var designer = ModelDesigner(reader: reader, rootName: rootName, rootTable: rootTable,
                                     entityGiven: options.entity != nil)
        designer.table = table.map { (JSONKeyPath($0.path), $0.header) }
        let model = designer.design()
        let text = ModelWriter.text(of: model)
        // The promise is a model `sluice check` accepts: prove it on the text itself.
        do {
            let parsed = try Model.parse(Array(text.utf8), sourceName: "inferred model")
            _ = try MappingPlan(model: parsed, sourceName: "inferred model")
        } catch let error as ModelError {
            throw SluiceError(.data, "cannot propose a model for '\(source.name)' (a bug in sluice infer): \(error.problems.map(\.description).joined(separator: "; "))")
        } catch {
            throw SluiceError(.data, "cannot propose a model for '\(source.name)' (a bug in sluice infer): \(error)")
        }
        return Result(model: model, text: text, notes: designer.notes, records: reader.records)
    }

    /// The first `count` bytes of `source` (fewer when it ends first).
    private static func peek(_ source: ByteSource, count: Int) throws(SluiceError) -> [UInt8] {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: count, alignment: 1)
        defer { buffer.deallocate() }
        var filled = 0
        while filled < count {
            let read = try source.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled...]))
            if read == 0 { break }
            filled += read
        }
        return Array(buffer[..<filled])
    }

    /// Feeds `source` to the parser until the reader has its sample or the input ends.
    private static func read(_ source: ByteSource, into reader: SampleReader, table: (path: [String], header: TabularHeader)?,
                             format: InputFormat, maxValueBytes: Int) throws(SluiceError) {
        if format != .json {
            try readCSV(source, into: reader, format: format, maxValueBytes: maxValueBytes)
            return
        }
        var parserOptions = JSONParser.Options()
        parserOptions.maxValueBytes = maxValueBytes
        let rows = table.map { TabularRows(inner: reader, path: $0.path, header: $0.header) }
        let handler: any EventHandler = rows ?? reader
        let parser = JSONParser(sourceName: source.name, handler: handler, options: parserOptions)
        rows?.parser = parser
        try feed(source, until: reader, parse: parser.parse, finish: parser.finish)
    }

    /// The rows of a CSV or TSV input, as the import reads them: objects of strings.
    private static func readCSV(_ source: ByteSource, into reader: SampleReader, format: InputFormat,
                                maxValueBytes: Int) throws(SluiceError) {
        let csv = CSVReader(sourceName: source.name, handler: CSVSampleValues(reader),
                            options: .init(separator: format.separator, maxValueBytes: maxValueBytes))
        try feed(source, until: reader, parse: csv.parse, finish: csv.finish)
    }

    /// Feeds `source` to a parser in small chunks, so that reading stops soon after the
    /// sample's last record: the reader stops the parse with an error once its sample is
    /// complete, which is then no error.
    private static func feed(_ source: ByteSource, until reader: SampleReader,
                             parse: (UnsafeRawBufferPointer) throws(SluiceError) -> Void,
                             finish: () throws(SluiceError) -> Void) throws(SluiceError) {
        var chunks = ChunkReader(source: source, chunkSize: 1 << 16)
        do throws(SluiceError) {
            while let chunk = try chunks.next() {
                try parse(chunk)
            }
            try finish()
        } catch {
            if reader.isDone { return }
            throw error
        }
    }
}
