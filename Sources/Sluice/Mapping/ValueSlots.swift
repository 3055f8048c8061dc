/// The values of the open records while their events arrive: one slot per attribute (`CellSlot`)
/// and per relationship (`Slot<Link>`) of each open record, the bytes of their text and blob
/// values, and the messages of the values that failed to convert. A part of `RecordAssembler`,
/// which says where each open record's slots start; tested on its own (`ValueSlotsTests`).
///
/// Slots are reused from record to record without being reset: `begin` numbers the record,
/// and a slot that carries another number is missing for it (`Slot.generation`). A nested
/// record's slots follow the ones of the record that holds it; the bytes and failures of a
/// top-level record and of those nested in it are kept until the next top-level record begins.
///
/// Noncopyable: it owns its buffers.
struct ValueSlots: ~Copyable {
    /// A buffer of its own, not an array: writing an array's element checked that the array
    /// was not shared, twice per value. Never empty (allocated with a slot in `init`), so that
    /// its base address is never nil, even for a model whose entities have no attributes.
    private var cells: UnsafeMutableBufferPointer<CellSlot>
    private var links: [Slot<Link>] = []
    /// The messages of failed slots (`Slot.State.failed`, `CellSlot.failure`): slots hold an
    /// index, so that they stay plain values.
    private var failures: [String] = []
    /// The bytes of the open records' text and blob values (`Cell`).
    private var arena = ByteArena()
    /// The number of the last record begun.
    private var generation = 0

    init() {
        cells = .allocate(capacity: 1)
        cells.initialize(repeating: CellSlot())
    }

    deinit { cells.deallocate() }

    // MARK: Records

    /// A top-level record begins: the bytes and failures of the records before it go.
    mutating func beginTopLevel() {
        arena.removeAll()
        // Checked first: emptying an array that never held anything allocates a new empty
        // buffer (about 50 instructions a record).
        if !failures.isEmpty { failures.removeAll(keepingCapacity: true) }
    }

    /// A record begins whose attributes' slots are `cellBase ..< cellBase + cellCount` and whose
    /// relationships' are `linkBase ..< linkBase + linkCount`: its number, which makes every
    /// one of them missing for it.
    mutating func begin(cellBase: Int, cellCount: Int, linkBase: Int, linkCount: Int) -> Int {
        if cells.count < cellBase + cellCount { growCells(to: cellBase + cellCount) }
        if links.count < linkBase + linkCount {
            links.append(contentsOf: repeatElement(Slot(), count: linkBase + linkCount - links.count))
        }
        generation += 1
        return generation
    }

    @inline(never)
    private mutating func growCells(to count: Int) {
        let grown = UnsafeMutableBufferPointer<CellSlot>.allocate(capacity: max(count, cells.count * 2))
        grown.initialize(repeating: CellSlot())
        grown.baseAddress!.update(from: cells.baseAddress!, count: cells.count)
        cells.deallocate()
        cells = grown
    }

    /// The bytes of the values (`Cell.bytes(in:)`), valid until the next value is set or
    /// top-level record begins.
    var bytes: UnsafeRawBufferPointer { arena.bytes }

    // MARK: Attributes

    /// Whether the attribute slot at `index` takes a value found under a key with this fallback
    /// index, for the record numbered `generation` (`Slot.accepts(priority:in:)`).
    func accepts(_ index: Int, priority: Int, in generation: Int) -> Bool {
        cells[index].accepts(priority: priority, in: generation)
    }

    /// Sets the attribute slot at `index` for the record numbered `generation` to what `convert`
    /// makes (its bytes go to the arena), or to its failure: false then. Call after `accepts`.
    mutating func set(_ index: Int, priority: Int, generation: Int,
                      _ convert: (inout ByteArena) throws(ConversionError) -> Cell) -> Bool {
        do {
            let cell = try convert(&arena)
            cells[index] = CellSlot(.value(cell), priority: priority, generation: generation)
            return true
        } catch {
            fail(index, error.message, priority: priority, generation: generation)
            return false
        }
    }

    @inline(never)
    private mutating func fail(_ index: Int, _ message: String, priority: Int, generation: Int) {
        cells[index] = CellSlot(.failed(failure(message)), priority: priority, generation: generation)
    }

    /// What the attribute slot at `index` holds for the record numbered `generation`.
    func state(_ index: Int, in generation: Int) -> Slot<Cell>.State {
        cells[index].state(in: generation)
    }

    /// Copies the cells of the `count` slots from `base` of the record numbered `generation`
    /// into `values`, missing where a slot is another record's. Meaningful only when no slot of
    /// the record failed.
    func copyCells(_ count: Int, from base: Int, in generation: Int, into values: UnsafeMutablePointer<Cell>) {
        assert(cells.count >= base + count, "a record's slots were not grown")
        let slots = cells.baseAddress! + base
        for index in 0..<count { values[index] = slots[index].cell(in: generation) }
    }

    /// A cell made outside the slots (a default value) whose bytes go to the arena.
    mutating func cell(_ make: (inout ByteArena) -> Cell) -> Cell {
        make(&arena)
    }

    /// Makes the attribute slot at `index` missing for every record.
    mutating func clear(_ index: Int) {
        cells[index].clear()
    }

    // MARK: Relationships

    /// Whether the relationship slot at `index` takes a value found under a key with this
    /// fallback index, for the record numbered `generation`.
    func linkAccepts(_ index: Int, priority: Int, in generation: Int) -> Bool {
        links[index].accepts(priority: priority, in: generation)
    }

    /// What the relationship slot at `index` holds for the record numbered `generation`, moved
    /// out: the slot is missing afterwards. For a record that completes, whose slots nothing
    /// reads again: its links move to the record rather than being copied.
    mutating func takeLinkState(_ index: Int, in generation: Int) -> Slot<Link>.State {
        guard links[index].generation == generation else { return .missing }
        var state = Slot<Link>.State.missing
        swap(&state, &links[index].state)
        return state
    }

    /// Whether the relationship slot at `index` holds a failure of the record numbered
    /// `generation` under the key with this fallback index.
    func linkFailed(_ index: Int, priority: Int, in generation: Int) -> Bool {
        guard links[index].priority == priority, case .failed = links[index].state(in: generation) else { return false }
        return true
    }

    /// Sets the relationship slot at `index` for the record numbered `generation`.
    mutating func setLink(_ index: Int, _ state: Slot<Link>.State, priority: Int, generation: Int) {
        links[index] = Slot(priority: priority, state: state, generation: generation)
    }

    /// Adds `target` to the to-many's list in the relationship slot at `index` when it holds
    /// one of the record numbered `generation` under the key with this fallback index; else
    /// `target` starts the list.
    mutating func appendLink(_ index: Int, _ target: LinkTarget, priority: Int, generation: Int) {
        guard links[index].priority == priority, case .value(.many(var list)) = links[index].state(in: generation) else {
            links[index] = Slot(priority: priority, state: .value(.many([target])), generation: generation)
            return
        }
        // Release the slot's reference first so the list is appended in place.
        links[index].state = .missing
        list.append(target)
        links[index] = Slot(priority: priority, state: .value(.many(list)), generation: generation)
    }

    /// Makes the relationship slot at `index` missing.
    mutating func clearLink(_ index: Int) {
        links[index].state = .missing
    }

    // MARK: Failures

    /// Keeps a failure's message for the slot (or record) that records it: its number.
    mutating func failure(_ message: String) -> Int {
        failures.append(message)
        return failures.count - 1
    }

    /// The message of failure number `failure`.
    func message(_ failure: Int) -> String {
        failures[failure]
    }
}
