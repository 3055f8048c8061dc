/// Collects records into a batch and writes it when it holds `batchSize` records: the sink
/// at the end of the record stream.
final class BatchWriter: RecordSink {
    let writers: [EntityWriter]
    private let batchSize: Int
    private let onError: ImportOptions.ErrorPolicy
    private var pending = 0

    init(writers: [EntityWriter], batchSize: Int, onError: ImportOptions.ErrorPolicy) {
        self.writers = writers
        self.batchSize = max(batchSize, 1)
        self.onError = onError
    }

    func accept(_ record: Record) throws(SluiceError) {
        writers[record.entity].append(record)
        pending += 1
        if pending >= batchSize { try flush() }
    }

    func reject(_ error: SluiceError, entity: Int) throws(SluiceError) {
        if onError == .abort { throw error }
        writers[entity].countRejected()
    }

    /// Writes every entity's part of the batch, in model order.
    func flush() throws(SluiceError) {
        for writer in writers where !writer.isEmpty { try writer.flush() }
        pending = 0
    }
}
