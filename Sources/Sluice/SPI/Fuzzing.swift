/// Entry points for the fuzz target in `Fuzz/` (see `Fuzz/README.md`). SPI, not API: they
/// exist so that a separate package can drive internal layers, and may change at any time.
///
/// `Fuzzing.map` runs input → parser → record assembler (with rejected-record capture) →
/// records in memory, with no SQLite, and describes everything that came out as lines, so
/// that two runs over the same bytes in different chunkings can be compared: they must agree.
/// `Fuzzing.importInput` runs a whole import into a new database file.
@_spi(Fuzzing) public enum Fuzzing {
    /// What one run produced: a line per record (entity, position, values), per rejection
    /// (its error and the captured record text) and for the error that ended the input.
    public struct Outcome: Equatable, Sendable {
        /// The lines, in the order the records, rejections and errors came.
        public var lines: [String] = []
        /// The captured text of each rejected record (nil where it was too large).
        public var rejectedTexts: [[UInt8]?] = []
    }

    /// Parses `bytes` in chunks of `chunkSize` and maps them with `model` (records at
    /// `entity`/`path` as `--entity`/`--path` would put them); rejections are collected as
    /// `--on-error skip` does. `fastPaths` false takes the assembler's general path for every
    /// event (the fuzzer checks that both agree). Throws `ModelError` only for a model or location that is wrong.
    public static func map(_ bytes: [UInt8], model: Model, entity: String? = nil, path: String? = nil,
                           chunkSize: Int, maxValueBytes: Int = 64 << 20, maxDepth: Int = 1_000,
                           fastPaths: Bool = true) throws -> Outcome
    {
        let plan = try MappingPlan(model: model, locations: .init(entity: entity, path: path.map(JSONKeyPath.init(parsing:))))
        let sink = CollectingSink(plan: plan)
        let stream = RecordStream(plan: plan, sink: sink, maxValueBytes: maxValueBytes, capturesRejectedRecords: true,
                                  fastPaths: fastPaths)
        let failure = feed(bytes, to: stream, chunkSize: chunkSize, maxValueBytes: maxValueBytes, maxDepth: maxDepth)
        if let failure { sink.outcome.lines.append("error \(failure)") }
        return sink.outcome
    }

    /// The same for a zero-config import (`FreeformAssembler`), records at `path`.
    public static func mapFreeform(_ bytes: [UInt8], path: [String] = [], chunkSize: Int,
                                   maxValueBytes: Int = 64 << 20, maxDepth: Int = 1_000) -> Outcome
    {
        let sink = FreeformCollectingSink()
        let stream = FreeformStream(table: "t", path: path, sink: sink, capturesRejectedRecords: true,
                                    maxValueBytes: maxValueBytes)
        let failure = feed(bytes, to: stream, chunkSize: chunkSize, maxValueBytes: maxValueBytes, maxDepth: maxDepth)
        if let failure { sink.outcome.lines.append("error \(failure)") }
        return sink.outcome
    }

    /// An outcome's error line without its ` near '…'` excerpt, which shows the current
    /// chunk only and so differs between chunkings of the same input.
    public static func withoutExcerpt(_ line: String) -> String {
        // Bytes, not characters: a combining mark after the quote would join it into one Character.
        let bytes = Array(line.utf8)
        let marker = Array(" near '".utf8)
        guard line.hasPrefix("error "), let start = (0...max(bytes.count - marker.count, 0)).first(where: {
            bytes.count >= marker.count && Array(bytes[$0..<$0 + marker.count]) == marker
        }) else { return line }
        return String(decoding: bytes[..<start], as: UTF8.self)
    }

    /// Whether `bytes` is exactly one JSON value (what a captured record must be).
    public static func isOneJSONValue(_ bytes: [UInt8]) -> Bool {
        (try? JSONValue.parse(bytes, sourceName: "record")) != nil
    }

    /// A whole import of `bytes` into a new database at `databasePath` (model or, when
    /// `model` is nil, zero-config into table `t`), with `--on-error skip` and `--rejects
    /// rejectsPath`. Returns the report, or the error the import threw; the database exists
    /// afterwards exactly when the import succeeded.
    public static func importInput(_ bytes: [UInt8], model: Model?, databasePath: String, rejectsPath: String?,
                                   options: ImportOptions = ImportOptions()) -> Result<ImportReport, SluiceError>
    {
        var options = options
        options.onError = .skip
        options.rejectsPath = rejectsPath
        do throws(SluiceError) {
            let importer = if let model {
                try Importer(databasePath: databasePath, model: model, options: options)
            } else {
                try Importer(databasePath: databasePath, table: "t", options: options)
            }
            try importer.importBytes(bytes)
            return .success(try importer.finish())
        } catch {
            return .failure(error)
        }
    }

    /// Parses `bytes` into `stream`; returns the error that stopped it, if any.
    private static func feed(_ bytes: [UInt8], to stream: any RecordEventHandler, chunkSize: Int, maxValueBytes: Int,
                             maxDepth: Int) -> SluiceError?
    {
        let parser = JSONParser(sourceName: "fuzz", handler: stream,
                                options: .init(maxDepth: maxDepth, maxValueBytes: maxValueBytes))
        stream.parser = parser
        let step = max(chunkSize, 1)
        var failure: SluiceError?
        var start = 0
        while failure == nil, start < bytes.count {
            let end = min(start + step, bytes.count)
            failure = bytes[start..<end].withUnsafeBytes { chunk -> SluiceError? in
                do throws(SluiceError) { try parser.parse(chunk) } catch { return error }
                return nil
            }
            start = end
        }
        if failure == nil {
            do { try parser.finish() } catch { failure = error }
        }
        return failure
    }

    final class CollectingSink: RecordSink {
        let plan: MappingPlan
        var outcome = Outcome()

        init(plan: MappingPlan) { self.plan = plan }

        func accept(_ record: borrowing Record) -> RecordHandle {
            let entity = plan.entities[record.entity]
            let values = (0..<record.valueCount).map { record.value($0).map(String.init(describing:)) ?? "-" }.joined(separator: ", ")
            let links = record.links.map { $0.map { String(describing: $0) } ?? "-" }.joined(separator: ", ")
            outcome.lines.append("record \(entity.name) \(record.position) \(values) | \(links)")
            return RecordHandle(entity: record.entity, index: outcome.lines.count)
        }

        func reject(_ error: SluiceError, entity: Int, record: [UInt8]?) {
            outcome.lines.append("rejected \(plan.entities[entity].name) \(error) \(record.map { String(decoding: $0, as: UTF8.self) } ?? "-")")
            outcome.rejectedTexts.append(record)
        }
    }

    private final class FreeformCollectingSink: FreeformSink {
        var outcome = Outcome()

        func accept(_ record: FreeformRecord, columnNames: [String]) {
            var fields: [String] = []
            for (index, value) in record.values.enumerated() {
                if let value { fields.append("\(columnNames[index])=\(value)") }
            }
            outcome.lines.append("record \(record.position) \(fields.joined(separator: ", "))")
        }

        func reject(_ error: SluiceError, record: [UInt8]?) {
            outcome.lines.append("rejected \(error) \(record.map { String(decoding: $0, as: UTF8.self) } ?? "-")")
            outcome.rejectedTexts.append(record)
        }
    }
}
