import Synchronization

/// Collects records into a batch and writes it when it is full (`BatchLimit`): the sink at the
/// end of the record stream.
///
/// A batch is written in steps over all its entities at once, so that links between records
/// of the same batch — in any order, cycles included — are made with the rows' pks known:
/// merge and find existing rows, look up the ids the records name, write the rows (with the
/// to-one links known by then), make the remaining links. An entity whose identity goes
/// through a to-one is found and written after that to-one's target (`ParentIdentity`).
///
/// The connection changes threads with the batches: the writer thread owns it while it
/// writes one, the caller before the first is handed over and once the thread is stopped
/// (`ImportStore.owner`, checked in debug builds).
final class BatchWriter: RecordSink {
    /// Used by the writer thread while the import runs; by the caller only after `finish()`.
    let writers: [EntityWriter]
    let links: LinkWriter
    /// The order entities are written in, and the identity columns filled from their parents.
    private let parentIdentity: ParentIdentity
    /// Remembers the rows this import touched, for `--delete-missing`.
    let touched: (any TouchedRowStore)?
    /// The index of the input being read, recorded with each record for messages.
    @exclusivity(unchecked) var input = 0
    private let limit: BatchLimit
    private let onError: ImportOptions.ErrorPolicy
    private let rejects: RejectsFile?
    private let cancellation: ImportCancellation?
    private let databaseName: String
    /// The store of every writer, whose owner changes with the thread that writes.
    private let store: any ImportStore
    /// The batch being filled, one `EntityBatch` per entity. Touched for every record by the
    /// parsing thread only: no dynamic exclusivity checks.
    @exclusivity(unchecked) private var filling: [EntityBatch]
    @exclusivity(unchecked) private var pending = 0
    @exclusivity(unchecked) private var pendingCells = 0
    /// The entities of the nested records accepted since the last top-level record, in order:
    /// they belong to the top-level record being assembled, and go with it if it is rejected.
    @exclusivity(unchecked) private var nestedSinceTopLevel: [Int] = []
    /// Rejected records per entity, counted on the parsing side.
    private var rejected: [Int]
    /// Writes full batches on its own thread; nil until the first batch is full, so a small
    /// import never starts a thread.
    private var pipeline: BatchPipeline<[EntityBatch]>?
    /// Set when `didImport` hooks need the rows' pks (`HookedSink`): each written batch's pks,
    /// per entity and record, wait in `writtenPKs` for the importing thread.
    var collectsPKs = false
    private let writtenPKs = Mutex<[[[Int64]]]>([])
    /// Batches handed to the writer thread so far; read by the importing thread only.
    private(set) var handOvers = 0

    init(writers: [EntityWriter], links: LinkWriter, touched: (any TouchedRowStore)?, store: any ImportStore, batchSize: Int,
         onError: ImportOptions.ErrorPolicy, rejects: RejectsFile? = nil, cancellation: ImportCancellation? = nil,
         databaseName: String = "") {
        self.writers = writers
        self.store = store
        self.links = links
        parentIdentity = ParentIdentity(writers: writers, plans: links.plans, links: store.links)
        self.touched = touched
        limit = BatchLimit(batchSize: batchSize)
        self.onError = onError
        self.rejects = rejects
        self.cancellation = cancellation
        self.databaseName = databaseName
        filling = writers.map { $0.makeBatch() }
        rejected = Array(repeating: 0, count: writers.count)
    }

    deinit {
        if let pipeline { stop(pipeline) }
    }

    func accept(_ record: borrowing Record) throws(SluiceError) -> RecordHandle {
        let index = filling[record.entity].append(record, source: input)
        pending += 1
        pendingCells += filling[record.entity].width
        if !record.isTopLevel {
            nestedSinceTopLevel.append(record.entity)
        } else if !nestedSinceTopLevel.isEmpty {
            nestedSinceTopLevel.removeAll(keepingCapacity: true)
        }
        // Never between a nested record and its parent: their links are made in one batch.
        if limit.isReached(records: pending, cells: pendingCells) && record.isTopLevel { try handOver() }
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
        try rejects?.write(error, entity: writers[entity].plan.name, record: record)
        if onError == .abort { throw error }
        rejected[entity] += 1
        if droppingNested { discardNested() }
    }

    /// Drops the nested records accepted since the last top-level record, last first (each is
    /// the last of its entity's batch: no batch is handed over between a nested record and
    /// its top-level one).
    private func discardNested() {
        while let entity = nestedSinceTopLevel.popLast() {
            filling[entity].removeLast()
            pending -= 1
            pendingCells -= filling[entity].width
        }
    }

    /// Writes what is left and waits for every batch to be written; then the writers and the
    /// connection are the caller's again, and the counts final.
    func finish() throws(SluiceError) {
        try checkCancellation()
        if let pipeline {
            if pending > 0 { try handOver() }
            try pipeline.drain()
            stop(pipeline)
        } else if pending > 0 {
            try write(&filling)
            pending = 0
            pendingCells = 0
        }
        // The batches' arrays keep their capacity from batch to batch; the second pass and
        // index building that follow need none of it.
        filling = writers.map { $0.makeBatch() }
        for (entity, count) in rejected.enumerated() {
            writers[entity].counts.rejected += count
            rejected[entity] = 0
        }
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
    /// takes the connection back; returns the thread's failure.
    @discardableResult
    private func stop(_ pipeline: BatchPipeline<[EntityBatch]>) -> SluiceError? {
        self.pipeline = nil
        let failure = pipeline.stop()
        store.owner.takeOver()
        return failure
    }

    /// Hands the full batch to the writer thread and takes an empty one to fill.
    private func handOver() throws(SluiceError) {
        try checkCancellation()
        if pipeline == nil {
            // From here until `stop`, the connection is the writer thread's for each batch it
            // writes, and no thread's in between.
            store.owner.release()
            pipeline = BatchPipeline { [unowned self] (batch: inout [EntityBatch]) throws(SluiceError) in
                self.store.owner.takeOver()
                defer { self.store.owner.release() }
                try self.write(&batch)
            }
        }
        // Moved to the pipeline, not shared: the writer thread must own the arrays it writes.
        var full: [EntityBatch]? = filling
        filling = []
        // One reference to the batch that comes back: emptying it in place copies nothing.
        var next: [EntityBatch]
        do {
            next = try pipeline!.submit(&full) ?? writers.map { $0.makeBatch() }
        } catch {
            filling = full ?? []
            throw error
        }
        for entity in next.indices { next[entity].removeAll() }
        filling = next
        pending = 0
        pendingCells = 0
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

    /// Writes a batch: rows of every entity, then their links; stops first when the import
    /// was cancelled. Leaves `batch` emptied.
    private func write(_ batch: inout [EntityBatch]) throws(SluiceError) {
        try checkCancellation()
        for (writer, entity) in zip(writers, batch.indices) { swap(&writer.batch, &batch[entity]) }
        defer {
            for writer in writers { writer.reset() }
            for (writer, entity) in zip(writers, batch.indices) { swap(&writer.batch, &batch[entity]) }
        }
        var written = Set<Int>()
        links.beginBatch()
        // One level unless an identity goes through a to-one: its targets are written first.
        for level in parentIdentity.levels {
            for entity in level where !writers[entity].isEmpty {
                if parentIdentity.hasParts(entity) { try parentIdentity.fill(writers[entity], writers: writers, written: written) }
                try writers[entity].prepare()
            }
            try links.lookUpKnownIDs(writers, of: level)
            for entity in level where !writers[entity].isEmpty {
                links.fillToOneColumns(of: writers[entity], written: written, writers: writers)
                try writers[entity].write()
                if parentIdentity.hasParts(entity) { parentIdentity.countLinks(writers[entity], writers: writers, written: written) }
                written.insert(entity)
            }
            // Entities without records in this batch are done too: ids are found in the database.
            written.formUnion(level)
        }
        try links.writeLinks(writers)
        if collectsPKs {
            let pks = writers.map { writer in (0..<writer.batch.count).map { writer.pk(of: $0) } }
            writtenPKs.withLock { $0.append(pks) }
        }
        if let touched {
            for writer in writers where !writer.isEmpty && touched.remembers(writer.entity) {
                try touched.record(DeleteMissing.mentioned(in: writer), of: writer.entity)
            }
        }
    }

    private func checkCancellation() throws(SluiceError) {
        if cancellation?.isCancelled == true { throw .interrupted(database: databaseName) }
    }
}
