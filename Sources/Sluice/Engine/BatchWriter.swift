/// Collects records into a batch and writes it when it holds `batchSize` records: the sink
/// at the end of the record stream.
///
/// A batch is written in steps over all its entities at once, so that links between records
/// of the same batch — in any order, cycles included — are made with the rows' pks known:
/// merge and find existing rows, look up the ids the records name, write the rows (with the
/// to-one links known by then), make the remaining links.
final class BatchWriter: RecordSink {
    let writers: [EntityWriter]
    let links: LinkWriter
    /// Remembers the rows this import touched, for `--delete-missing`.
    let touched: TouchedRows?
    /// The index of the input being read, recorded with each record for messages.
    var input = 0
    private let batchSize: Int
    private let onError: ImportOptions.ErrorPolicy
    private let rejects: RejectsFile?
    private let cancellation: ImportCancellation?
    private let databaseName: String
    private var pending = 0

    init(writers: [EntityWriter], links: LinkWriter, touched: TouchedRows?, batchSize: Int,
         onError: ImportOptions.ErrorPolicy, rejects: RejectsFile? = nil, cancellation: ImportCancellation? = nil,
         databaseName: String = "") {
        self.writers = writers
        self.links = links
        self.touched = touched
        self.batchSize = max(batchSize, 1)
        self.onError = onError
        self.rejects = rejects
        self.cancellation = cancellation
        self.databaseName = databaseName
    }

    func accept(_ record: Record) throws(SluiceError) -> RecordHandle {
        let handle = writers[record.entity].append(record, source: input)
        pending += 1
        // Never between a nested record and its parent: their links are made in one batch.
        if pending >= batchSize && record.isTopLevel { try flush() }
        return handle
    }

    /// Writes the record to `--rejects` (also the one that stops an `abort`), then stops or
    /// counts it.
    func reject(_ error: SluiceError, entity: Int, record: [UInt8]?) throws(SluiceError) {
        try rejects?.write(error, entity: writers[entity].plan.name, record: record)
        if onError == .abort { throw error }
        writers[entity].countRejected()
    }

    /// Writes the batch: rows of every entity, then their links; stops first when the import
    /// was cancelled.
    func flush() throws(SluiceError) {
        if cancellation?.isCancelled == true { throw .interrupted(database: databaseName) }
        guard pending > 0 else { return }
        for writer in writers where !writer.isEmpty { try writer.prepare() }
        try links.lookUpKnownIDs(writers)
        var written = Set<Int>()
        for writer in writers where !writer.isEmpty {
            links.fillToOneColumns(of: writer, written: written, writers: writers)
            try writer.write()
            written.insert(writer.entity)
        }
        try links.writeLinks(writers)
        if let touched {
            for writer in writers where !writer.isEmpty { try touched.record(writer) }
        }
        for writer in writers { writer.reset() }
        pending = 0
    }
}
