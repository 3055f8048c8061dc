/// The writing side of a `BatchWriter`: the entity writers and the link writer, which write a
/// batch in steps over all its entities at once, so that links between records of the same
/// batch — in any order, cycles included — are made with the rows' pks known: merge and find
/// existing rows, look up the ids the records name, write the rows (with the to-one links
/// known by then), make the remaining links. An entity whose identity goes through a to-one
/// is found and written after that to-one's target (`ParentIdentity`).
///
/// A value that one thread owns at a time: the importing thread's until the first batch is
/// handed over, the writer thread's (a local of its loop, `BatchPipeline`) until the import
/// finishes, then the importing thread's again. So the writers' per-record state is reached
/// without dynamic exclusivity checks.
struct BatchWriting {
    var writers: [EntityWriter]
    var links: LinkWriter
    /// The order entities are written in, and the identity columns filled from their parents.
    let parentIdentity: ParentIdentity
    /// Remembers the rows this import touched, for `--delete-missing`.
    let touched: (any TouchedRowStore)?

    init(writers: [EntityWriter], links: LinkWriter, touched: (any TouchedRowStore)?, store: any ImportStore) {
        parentIdentity = ParentIdentity(writers: writers, plans: links.plans, links: store.links)
        self.writers = writers
        self.links = links
        self.touched = touched
    }

    /// Writes a batch: rows of every entity, then their links. Leaves `batch` emptied; returns,
    /// when `collectingPKs`, per entity the pk of each of its records in batch order.
    mutating func write(_ batch: inout [EntityBatch], collectingPKs: Bool) throws(SluiceError) -> [[Int64]]? {
        for entity in batch.indices { swap(&writers[entity].batch, &batch[entity]) }
        defer {
            for entity in batch.indices {
                writers[entity].reset()
                swap(&writers[entity].batch, &batch[entity])
            }
        }
        var written = Set<Int>()
        links.beginBatch()
        try links.noteFilledColumns(writers)
        // One level unless an identity goes through a to-one: its targets are written first.
        for level in parentIdentity.levels {
            for entity in level where !writers[entity].isEmpty {
                if parentIdentity.hasParts(entity) { try parentIdentity.fill(entity, writers: &writers, written: written) }
                try writers[entity].prepare()
            }
            try links.lookUpKnownIDs(writers, of: level)
            for entity in level where !writers[entity].isEmpty {
                links.fillToOneColumns(of: entity, written: written, writers: &writers)
                try writers[entity].write()
                if parentIdentity.hasParts(entity) { parentIdentity.countLinks(entity, writers: &writers, written: written) }
                written.insert(entity)
            }
            // Entities without records in this batch are done too: ids are found in the database.
            written.formUnion(level)
        }
        try links.writeLinks(&writers)
        if let touched {
            for entity in writers.indices where !writers[entity].isEmpty && touched.remembers(entity) {
                try touched.record(DeleteMissing.mentioned(in: writers[entity]), of: entity)
            }
        }
        guard collectingPKs else { return nil }
        return writers.map { writer in (0..<writer.count).map { writer.pk(of: $0) } }
    }
}
