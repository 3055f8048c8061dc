import Synchronization

/// Collects records into a batch and writes it when it is full (`BatchLimit`): the sink at the
/// end of the record stream. The first full batch starts a writer thread (`BatchPipeline`),
/// which writes each batch (`BatchWriting`) while the next one fills.
///
/// The connection changes threads with the batches: the writer thread owns it while it
/// writes one, the caller before the first is handed over and once the thread is stopped
/// (`ImportStore.owner`, checked in debug builds).
final class BatchWriter: RecordSink {
    /// The entities' plans, by storage entity.
    let plans: [MappingPlan.EntityPlan]
    /// Per storage entity: its links' plans.
    let linkPlans: [[LinkPlan]]
    /// Remembers the rows this import touched, for `--delete-missing`.
    let touched: (any TouchedRowStore)?
    /// The writers: the caller's until the first batch is handed over and after `finish()`
    /// (or `close()`); nil while the writer thread has them.
    private var writing: BatchWriting?
    /// The index of the input being read, recorded with each record for messages.
    var input: Int {
        get { filling.input }
        set { filling.input = newValue }
    }
    private let limit: BatchLimit
    private let onError: ImportOptions.ErrorPolicy
    private let rejects: RejectsFile?
    private let cancellation: ImportCancellation?
    private let databaseName: String
    /// The store of every writer, whose owner changes with the thread that writes.
    private let store: any ImportStore
    /// The batch being filled, touched for every record by the parsing thread only (`Filling`).
    /// Reached through this class from the parser's callbacks, per record: its dynamic
    /// exclusivity check cost 1.0% of W1's instructions (callgrind), so it is not checked.
    @exclusivity(unchecked) private var filling: Filling
    /// One empty batch per entity, without capacity: what a new batch starts from.
    private let emptyBatches: [EntityBatch]
    /// Rejected records per entity, counted on the parsing side.
    private var rejected: [Int]
    /// Writes full batches on its own thread; nil until the first batch is full, so a small
    /// import never starts a thread.
    private var pipeline: BatchPipeline<[EntityBatch], BatchWriting>?
    /// Set when `didImport` hooks need the rows' pks (`HookedSink`): each written batch's pks,
    /// per entity and record, wait in `writtenPKs` for the importing thread.
    var collectsPKs = false
    private let writtenPKs = Mutex<[[[Int64]]]>([])
    /// Batches handed to the writer thread so far; read by the importing thread only.
    private(set) var handOvers = 0

    init(writers: [EntityWriter], links: LinkWriter, touched: (any TouchedRowStore)?, store: any ImportStore, batchSize: Int,
         onError: ImportOptions.ErrorPolicy, rejects: RejectsFile? = nil, cancellation: ImportCancellation? = nil,
         databaseName: String = "") {
        plans = writers.map(\.plan)
        linkPlans = links.plans
        self.store = store
        self.touched = touched
        writing = BatchWriting(writers: writers, links: links, touched: touched, store: store)
        limit = BatchLimit(batchSize: batchSize)
        self.onError = onError
        self.rejects = rejects
        self.cancellation = cancellation
        self.databaseName = databaseName
        emptyBatches = writers.map { $0.makeBatch() }
        filling = Filling(emptyBatches)
        rejected = Array(repeating: 0, count: writers.count)
    }

    deinit {
        if let pipeline { stop(pipeline) }
    }

    func accept(_ record: borrowing Record) throws(SluiceError) -> RecordHandle {
        let (index, full) = filling.append(record, limit: limit)
        if full { try handOver() }
        return RecordHandle(entity: record.entity, index: index)
    }

    /// Writes the record to `--rejects` (also the one that stops an `abort`), then stops or
    /// counts it. A rejected record is a top-level one: the nested records accepted inside it
    /// are dropped with it (the unit of rejection, `docs/import-semantics.md`).
    func reject(_ error: SluiceError, entity: Int, record: [UInt8]?) throws(SluiceError) {
        try reject(error, entity: entity, record: record, droppingNested: true)
    }

    /// `droppingNested` false: a record rejected after it was written (a `didImport` hook),
    /// while another top-level record may be open.
    func reject(_ error: SluiceError, entity: Int, record: [UInt8]?, droppingNested: Bool) throws(SluiceError) {
        try rejects?.write(error, entity: plans[entity].name, record: record)
        if onError == .abort { throw error }
        rejected[entity] += 1
        if droppingNested { filling.discardNested() }
    }

    /// Writes what is left and waits for every batch to be written; then the writers and the
    /// connection are the caller's again, and the counts final.
    func finish() throws(SluiceError) {
        try checkCancellation()
        if let pipeline {
            if filling.records > 0 { try handOver() }
            try pipeline.drain()
            stop(pipeline)
        } else if filling.records > 0 {
            var last = filling.takeBatches()
            try write(&writing!, &last)
        }
        // The batches' arrays keep their capacity from batch to batch; the second pass and
        // index building that follow need none of it.
        filling.refill(with: emptyBatches)
        for (entity, count) in rejected.enumerated() {
            writing!.writers[entity].counts.rejected += count
            rejected[entity] = 0
        }
    }

    /// Per entity, what the import did: final once `finish()` returned.
    var counts: [ImportReport.EntityCounts] { writing?.writers.map(\.counts) ?? [] }

    /// The links that wait for the second pass, as the link writer left them: read once the
    /// writers are back from the writer thread (after `finish()`).
    var pendingLinks: any PendingLinkStore {
        guard let writing else { preconditionFailure("the pending links are read while the writer thread has them") }
        return writing.links.pending
    }

    /// Changes `entity`'s counts, after `finish()` (the second pass, `--delete-missing`).
    func updateCounts(of entity: Int, _ change: (inout ImportReport.EntityCounts) -> Void) {
        change(&writing!.writers[entity].counts)
    }


    /// Lets the writer thread write what was handed over, then stops it; returns its failure,
    /// which happened before whatever stopped the import on the parsing side (as if the
    /// import ran on one thread). A cancelled import's batches stop at once.
    @discardableResult
    func close() -> SluiceError? {
        guard let pipeline else { return nil }
        try? pipeline.drain()
        return stop(pipeline)
    }

    /// Joins the writer thread (which has released the connection after its last batch) and
    /// takes the connection and the writers back; returns the thread's failure.
    @discardableResult
    private func stop(_ pipeline: BatchPipeline<[EntityBatch], BatchWriting>) -> SluiceError? {
        self.pipeline = nil
        let (state, failure) = pipeline.stop()
        writing = state
        store.owner.takeOver()
        return failure
    }

    /// Hands the full batch to the writer thread and takes an empty one to fill.
    private func handOver() throws(SluiceError) {
        try checkCancellation()
        if pipeline == nil {
            // From here until `stop`, the connection is the writer thread's for each batch it
            // writes, and no thread's in between; the writers are the thread's.
            store.owner.release()
            pipeline = BatchPipeline(state: writing.take()!) { [unowned self] (writing: inout BatchWriting, batch: inout [EntityBatch])
                throws(SluiceError) in
                self.store.owner.takeOver()
                defer { self.store.owner.release() }
                try self.checkCancellation()
                try self.write(&writing, &batch)
            }
        }
        // Moved to the pipeline, not shared: the writer thread must own the arrays it writes.
        var full: [EntityBatch]? = filling.takeBatches()
        // One reference to the batch that comes back: emptying it in place copies nothing.
        let next: [EntityBatch]
        do {
            next = try pipeline!.submit(&full) ?? emptyBatches
        } catch {
            filling.restore(full ?? [])
            throw error
        }
        filling.refill(with: next)
        handOvers += 1
    }

    /// The pks of the batches written since the last call, oldest first: for each, per
    /// entity, the pk of each of its records in batch order.
    func takeWritten() -> [[[Int64]]] {
        writtenPKs.withLock { taken in
            defer { taken = [] }
            return taken
        }
    }

    /// Writes a batch with `writing`, on the thread that owns it, keeping its pks for the
    /// `didImport` hooks when they need them. Leaves `batch` emptied.
    private func write(_ writing: inout BatchWriting, _ batch: inout [EntityBatch]) throws(SluiceError) {
        if let pks = try writing.write(&batch, collectingPKs: collectsPKs) {
            writtenPKs.withLock { $0.append(pks) }
        }
    }

    private func checkCancellation() throws(SluiceError) {
        if cancellation?.isCancelled == true { throw .interrupted(database: databaseName) }
    }
}
