/// Collects records into a batch and writes it when it holds `batchSize` records: the sink
/// at the end of the record stream.
final class BatchWriter: RecordSink {
    let writers: [EntityWriter]
    private let batchSize: Int
    private let onError: ImportOptions.ErrorPolicy
    private let rejects: RejectsFile?
    private let cancellation: ImportCancellation?
    private let databaseName: String
    private var pending = 0

    init(writers: [EntityWriter], batchSize: Int, onError: ImportOptions.ErrorPolicy, rejects: RejectsFile? = nil,
         cancellation: ImportCancellation? = nil, databaseName: String = "") {
        self.writers = writers
        self.batchSize = max(batchSize, 1)
        self.onError = onError
        self.rejects = rejects
        self.cancellation = cancellation
        self.databaseName = databaseName
    }

    func accept(_ record: Record) throws(SluiceError) {
        writers[record.entity].append(record)
        pending += 1
        if pending >= batchSize { try flush() }
    }

    /// Writes the record to `--rejects` (also the one that stops an `abort`), then stops or
    /// counts it.
    func reject(_ error: SluiceError, entity: Int, record: [UInt8]?) throws(SluiceError) {
        try rejects?.write(error, entity: writers[entity].plan.name, record: record)
        if onError == .abort { throw error }
        writers[entity].countRejected()
    }

    /// Writes every entity's part of the batch, in model order; stops first when the import
    /// was cancelled.
    func flush() throws(SluiceError) {
        if cancellation?.isCancelled == true { throw .interrupted(database: databaseName) }
        for writer in writers where !writer.isEmpty { try writer.flush() }
        pending = 0
    }
}
