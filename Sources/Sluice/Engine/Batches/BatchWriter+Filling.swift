extension BatchWriter {
    /// The parsing side of a `BatchWriter`: the batch being filled, one `EntityBatch` per
    /// entity, and what it counts per record. A value the parsing thread alone touches; the
    /// batch it fills goes to the writer thread moved out of it (`takeBatches`), never shared.
    struct Filling {
        /// The batch being filled, one `EntityBatch` per entity.
        private(set) var batches: [EntityBatch]
        /// Records and cells in `batches`.
        private(set) var records = 0
        private(set) var cells = 0
        /// The entities of the nested records accepted since the last top-level record, in
        /// order: they belong to the top-level record being assembled, and go with it if it is
        /// rejected.
        private var nestedSinceTopLevel: [Int] = []
        /// The index of the input being read, recorded with each record for messages.
        var input = 0

        init(_ batches: [EntityBatch]) {
            self.batches = batches
        }

        /// Adds `record` to its entity's batch; returns its index there, and whether the batch
        /// is full now (`limit`) at a top-level record (never between a nested record and its
        /// parent: their links are made in one batch).
        @inline(__always)  // forced: docs/performance.md#forced-inlining
        mutating func append(_ record: borrowing Record, limit: BatchLimit) -> (index: Int, full: Bool) {
            let index = batches[record.entity].append(record, source: input)
            records += 1
            cells += batches[record.entity].width
            if !record.isTopLevel {
                nestedSinceTopLevel.append(record.entity)
            } else if !nestedSinceTopLevel.isEmpty {
                nestedSinceTopLevel.removeAll(keepingCapacity: true)
            }
            return (index, record.isTopLevel && limit.isReached(records: records, cells: cells))
        }

        /// Drops the nested records accepted since the last top-level record, last first (each
        /// is the last of its entity's batch: no batch is handed over between a nested record
        /// and its top-level one).
        mutating func discardNested() {
            while let entity = nestedSinceTopLevel.popLast() {
                batches[entity].removeLast()
                records -= 1
                cells -= batches[entity].width
            }
        }

        /// Moves the batch out, leaving none: the caller owns the only reference to the arrays
        /// it takes. The counts stay until `refill`.
        mutating func takeBatches() -> [EntityBatch] {
            var taken: [EntityBatch] = []
            swap(&batches, &taken)
            return taken
        }

        /// Fills `next` from now on (emptied here, its arrays' capacity kept).
        mutating func refill(with next: consuming [EntityBatch]) {
            var next = next
            for entity in next.indices { next[entity].removeAll() }
            batches = next
            records = 0
            cells = 0
        }

        /// Puts back a batch that `takeBatches` moved out and that could not be handed over.
        mutating func restore(_ batch: consuming [EntityBatch]) {
            batches = batch
        }
    }
}
