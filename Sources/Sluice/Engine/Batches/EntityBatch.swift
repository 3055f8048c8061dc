/// The records of one entity collected for a batch, in input order, in flat arrays.
///
/// A value type with no reference to any connection: the parsing thread fills one while the
/// writer thread writes another (`BatchPipeline`), and the arrays keep their capacity from
/// batch to batch, so memory is bounded by the batch size whatever the input.
struct EntityBatch: Sendable {
    /// Columns per record: the entity's attributes, then its to-one relationships' columns.
    let width: Int
    let attributeCount: Int
    let relationshipCount: Int
    /// `width` values per record (record `r`'s from `r * width`; the array may be longer);
    /// to-one columns start missing and are filled before the rows are written.
    var values: [Cell] = []
    /// The bytes of the text and blob values, which SQLite binds in place.
    var bytes = BatchBytes()
    /// `relationshipCount` slots per record, each the index in `linkValues` of the link the
    /// record gives that relationship, or -1 when it mentions none (read and written through
    /// `subscript(link:)`). Plain numbers, so that appending a record and emptying the batch
    /// copy and destroy no `Link` for the relationships a record leaves alone: W3's stop times
    /// mention 2 of their 6, and each empty `Link?` slot cost about 300 instructions.
    private(set) var linkSlots: [Int32] = []
    /// The links the slots point at, in the order they were given.
    private var linkValues: [Link] = []
    /// Indexes into `links` of `merge: add` lists merged onto a `null` of an earlier record of
    /// the same row (`merge`): the row loses its other links first, as the `null` said.
    var clearedBeforeList: Set<Int> = []
    /// What a record said of a relationship before `merge` changed it with a later record's
    /// link, by index into `links` (only those changed): each record's own list, for the
    /// records nested in it (`ParentIdentity`).
    var ownLinks: [Int: Link?] = [:]
    /// The columns some record of the batch holds a value in, and the relationships some
    /// record mentions: which columns a lookup reads (`EntityWriter.columnsSet`). Kept as
    /// records are appended, on the reading thread: the writer, a re-import's slower thread,
    /// spent 2.5% of its time asking every record about every column (W3 at scale 0.05).
    private(set) var givenColumns: ColumnSet
    private(set) var mentionedRelationships: ColumnSet
    var positions: [InputPosition] = []
    /// The index of the input each record came from.
    var sources: [Int] = []
    private(set) var count = 0

    init(width: Int, attributeCount: Int, relationshipCount: Int) {
        self.width = width
        self.attributeCount = attributeCount
        self.relationshipCount = relationshipCount
        givenColumns = ColumnSet(width: width)
        mentionedRelationships = ColumnSet(width: relationshipCount)
    }

    var isEmpty: Bool { count == 0 }

    /// Appends a record and returns its index in the batch.
    mutating func append(_ record: borrowing Record, source: Int) -> Int {
        let ownBytes = record.bytesAreItsOwn
        record.withUnsafeValues { cells, cellBytes in append(cells, bytes: cellBytes, ownBytes: ownBytes) }
        // Guarded: iterating even an empty array retains and releases it.
        if relationshipCount > 0 { appendLinks(record.links) }
        positions.append(record.position)
        sources.append(source)
        count += 1
        return count - 1
    }

    /// Copies a record's values, and the bytes of its text and blobs, as the next record's.
    @inline(__always)  // forced: docs/performance.md#forced-inlining
    private mutating func append(_ cells: UnsafeBufferPointer<Cell>, bytes cellBytes: UnsafeRawBufferPointer,
                                 ownBytes: Bool) {
        // Values are written by index, with one copy of the record's cells: appending went
        // element by element. The array grows a record at a time (so it holds no more than
        // the largest batch: doubling it touched up to twice that) and keeps its length.
        let first = count * width
        if values.count < first + width {
            values.append(contentsOf: repeatElement(.missing, count: first + width - values.count))
        }
        let last = first + cells.count
        // One copy of all its bytes when they are its own; its cells' offsets move by where
        // they land.
        let shift = ownBytes ? UInt64(bytes.append(cellBytes: cellBytes)) : 0
        values.withUnsafeMutableBufferPointer { values in
            if let cells = cells.baseAddress { (values.baseAddress! + first).update(from: cells, count: last - first) }
            for index in last..<first + width { values[index] = .missing }
            if ownBytes {
                if shift > 0 {
                    for index in first..<last where values[index].hasBytes { values[index].bits &+= shift }
                }
            } else {
                for index in first..<last where values[index].hasBytes {
                    values[index] = values[index].copied(from: cellBytes, to: &bytes)
                }
            }
        }
        for index in cells.indices where !cells[index].isMissing { givenColumns.insert(index) }
    }

    private mutating func appendLinks(_ links: [Link?]) {
        // The record's slots in one append from a buffer on the stack: an append per slot
        // checked the array's uniqueness and capacity each time.
        withUnsafeTemporaryAllocation(of: Int32.self, capacity: links.count) { slots in
            for index in links.indices {
                guard case .some(let link) = links[index] else {
                    slots.initializeElement(at: index, to: -1)
                    continue
                }
                slots.initializeElement(at: index, to: Int32(linkValues.count))
                linkValues.append(link)
                mentionedRelationships.insert(index)
            }
            linkSlots.append(contentsOf: slots)
        }
    }

    /// The link of slot `index` (`record * relationshipCount + relationship`); nil when the
    /// record mentions none. Setting one keeps the link it replaces in `linkValues` until the
    /// batch is emptied.
    subscript(link index: Int) -> Link? {
        get {
            let slot = linkSlots[index]
            return slot < 0 ? nil : linkValues[Int(slot)]
        }
        set {
            guard let newValue else {
                linkSlots[index] = -1
                return
            }
            linkSlots[index] = Int32(linkValues.count)
            linkValues.append(newValue)
            mentionedRelationships.insert(index % relationshipCount)
        }
    }

    /// Whether slot `index` holds a link other than `null`.
    func linksSomething(_ index: Int) -> Bool {
        let slot = linkSlots[index]
        guard slot >= 0 else { return false }
        if case .clear = linkValues[Int(slot)] { return false }
        return true
    }

    /// Forgets the last record appended (a nested record whose top-level record was rejected).
    /// Its values stay in `values` and `bytes` until overwritten or emptied: `append` writes a
    /// record's whole width by index, and nothing reads past `count`.
    mutating func removeLast() {
        precondition(count > 0, "no record to remove")
        count -= 1
        if relationshipCount > 0 {
            // Its links are the last ones given: nothing is merged while a batch fills.
            let given = linkSlots.suffix(relationshipCount).count { $0 >= 0 }
            linkSlots.removeLast(relationshipCount)
            linkValues.removeLast(given)
        }
        positions.removeLast()
        sources.removeLast()
    }

    /// Empties the batch. `values` and `bytes` keep their memory: they are written by index,
    /// and refilling `values` element by element cost as much as appending did. The links,
    /// `positions` and `sources` start again in new buffers of the same capacity, which hold
    /// only what the next batch writes: kept, each would stay as large as the most records of
    /// its entity any batch held, in each of the three batches in flight (`BatchPipeline`),
    /// and the linked workload's peak was 2 MiB higher.
    mutating func removeAll() {
        bytes.removeAll()
        givenColumns.removeAll()
        mentionedRelationships.removeAll()
        Self.empty(&linkSlots)
        Self.empty(&linkValues)
        if !clearedBeforeList.isEmpty { clearedBeforeList.removeAll() }
        if !ownLinks.isEmpty { ownLinks.removeAll() }
        Self.empty(&positions)
        Self.empty(&sources)
        count = 0
    }

    /// Empties the batch once it is written. An entity none of whose records came in it
    /// gives its arrays' memory back: records come in runs of one entity (a document's
    /// arrays, a feed's files), so one absent from a whole batch is most likely done. Kept,
    /// its arrays stayed as large as its largest batch in each of the three batches in flight
    /// (`BatchPipeline`), beside those of the entities after it: W2's peak at the end of its
    /// load (stops after trips after stop times) was 4 MiB above the load's at scale 1 and
    /// 9 MiB above it at scale 11.1, where it reached 49 MiB.
    mutating func removeAllWritten() {
        guard isEmpty else { return removeAll() }
        self = EntityBatch(width: width, attributeCount: attributeCount, relationshipCount: relationshipCount)
    }

    /// A new, empty buffer with `array`'s capacity; none when `array` is empty already (a
    /// batch emptied once by the writer and again before it is filled).
    private static func empty<Element>(_ array: inout [Element]) {
        guard !array.isEmpty else { return }
        var fresh: [Element] = []
        fresh.reserveCapacity(array.capacity)
        array = fresh
    }
}

extension EntityBatch {
    /// Sets a value of record `record` (`EntityWriter.setToOne`).
    mutating func set(_ record: Int, column: Int, _ cell: Cell) {
        values[record * width + column] = cell
        givenColumns.insert(column)
    }

    /// The records' cells read in place, for `body` only: how `Store/` reads a batch.
    func withRows<Result>(_ body: (CellRows) throws(SluiceError) -> Result) throws(SluiceError) -> Result {
        var outcome: Swift.Result<Result, SluiceError>!
        values.withUnsafeBufferPointer { cells in
            bytes.withUnsafeBytes { arena in
                positions.withUnsafeBufferPointer { positions in
                    sources.withUnsafeBufferPointer { inputs in
                        do throws(SluiceError) {
                            outcome = .success(try body(CellRows(cells: cells, width: width, arena: arena,
                                                                 positions: positions, inputs: inputs)))
                        } catch {
                            outcome = .failure(error)
                        }
                    }
                }
            }
        }
        return try outcome.get()
    }
}
