/// Turns a stream of JSON events into records, following a `MappingPlan`.
///
/// A state machine in the swift-nio manner: a struct whose events are mutating methods that
/// return an `Action`, with no yajl and no SQLite inside, so it is tested on its own. It
/// keeps only what the plan asks for: values at mapped key paths are converted as they
/// arrive into one slot per attribute; a subtree no attribute needs is skipped by counting
/// its brackets, never built; a `json` attribute's subtree is re-serialised as it streams.
/// Memory is one record in progress, whatever the input's size.
///
/// Positions are asked for through a closure, only when a record starts or goes wrong.
/// Noncopyable: it owns the memory its completed record is read from.
struct RecordAssembler: ~Copyable {
    enum Action {
        case none
        /// A record is complete: read it from `completed` before the next event.
        case record
        /// A record (or what stands where a record should) cannot be imported. The events of
        /// that record are consumed; the next event continues with the next record.
        case rejected(SluiceError.Reason)
    }

    /// What an open container is, from the mapping's point of view.
    private enum Frame {
        /// An object of the envelope above the records.
        case location(Int)
        /// An array in the envelope: its elements stand at the same location.
        case locationArray(Int)
        /// An array whose elements are records of an entity.
        case records(Int)
        /// An object inside the current record; `node` is its key trie node.
        case object(node: Int, isRecord: Bool)
        /// A to-many's array: each element is a link of the innermost open record.
        case links(relationship: Int, priority: Int)
    }

    /// What the next value means, decided by the key before it or the array around it.
    private enum Role {
        case skip
        case location(Int)
        case record(Int)
        case field(Int)
        case link(relationship: Int, priority: Int)
    }

    /// A record begun and not yet completed. Plain values only, so that reading it copies bits.
    private struct OpenRecord {
        var entity: Int
        /// Where its attributes' slots start in `cells`, its relationships' in `linkSlots`.
        var slotBase: Int
        var linkBase: Int
        var position: TextPosition
        /// Numbers the record: its slots are those that carry this number.
        var generation: Int
        /// For a nested record: the relationship of the record below it that it is a value of.
        var parent: (relationship: Int, priority: Int)?
    }

    /// A `json` attribute's value being serialised while its events stream past.
    private struct Capture {
        var node: Int
        /// The container depth its value opened; it ends when that container closes.
        var depth: Int
        var writer: JSONTextWriter
        /// Set when the text passed `maxValueBytes`: writing stops, the value is an error.
        var overflowed = false
    }

    let plan: MappingPlan
    /// What each event reads of `plan`, flat; `eventPlanStorage` keeps its buffers alive.
    private let events: EventPlan
    private let eventPlanStorage: EventPlan.Storage
    /// The largest `json` value re-serialised from a subtree, so that one value cannot take
    /// unbounded memory even when each of its tokens is small.
    let maxValueBytes: Int
    /// The record just completed; its `bytes` are set by `withCompleted`.
    private var completed = Record(entity: 0, values: UnsafeBufferPointer(start: nil, count: 0),
                                   bytes: UnsafeRawBufferPointer(start: nil, count: 0), links: [],
                                   position: TextPosition(line: 0, column: 0, offset: 0), isTopLevel: true)
    /// The completed record's values (`completed.values`), room for the widest entity.
    private let completedCells: UnsafeMutableBufferPointer<Cell>
    /// The nested record just completed, waiting for its handle (`attach(_:)`).
    private var completedParent: (relationship: Int, priority: Int)?
    /// How many records have been completed or rejected.
    private(set) var recordCount = 0

    /// Calls `body` with the record just completed (after a `.record` action), its values
    /// and their bytes valid during the call. (Borrowed: a copy of the record cost a retain
    /// and release of its arrays per record.)
    mutating func withCompleted<Result>(_ body: (borrowing Record) throws(SluiceError) -> Result) throws(SluiceError)
        -> Result
    {
        completed.bytes = arena.bytes
        return try body(completed)
    }
    /// Records begun and not yet completed (more than 1 inside nested records). A record
    /// starts where this goes from 0 to 1 (`RecordStream` captures rejected records from there).
    var openRecordCount: Int { open }

    private var frames: [Frame] = []
    private var keyedRole: Role?
    /// Where the next key inside a record is looked for first (`EventPlan.child(of:_:hint:)`).
    private var nextKey = 0
    /// Containers entered inside a skipped value; 0 when not skipping.
    private var skipDepth = 0
    private var depth = 0
    /// Only the first `open` are in use; each one's slots follow its parent's in `cells`
    /// and `linkSlots`, which are reused from record to record (see `Slot.generation`).
    private var records: [OpenRecord] = []
    private var open = 0
    /// A buffer of its own, not an array: writing an array's element checked that the array
    /// was not shared, twice per value.
    private var cells = UnsafeMutableBufferPointer<Slot<Cell>>(start: nil, count: 0)
    private var linkSlots: [Slot<Link>] = []
    /// The messages of failed slots (`Slot.State.failed`), emptied when a top-level record
    /// begins: slots hold an index, so that they stay plain values.
    private var failures: [String] = []
    /// The bytes of the open records' text and blob values (`Cell`), emptied when a
    /// top-level record begins; `completed` reads its values' bytes from here.
    private var arena = ByteArena()
    /// The number of the last record begun (see `Slot.generation`).
    private var generation = 0
    /// Whether the current top-level record has had a nested record (whose bytes then share
    /// the arena with it).
    private var hadNestedRecord = false
    private var captures: [Capture] = []
    private var spareWriters: [JSONTextWriter] = []

    init(plan: MappingPlan, maxValueBytes: Int = 64 << 20) {
        self.plan = plan
        eventPlanStorage = EventPlan.Storage(plan)
        events = eventPlanStorage.plan
        self.maxValueBytes = maxValueBytes
        let widest = events.entities.map { Int($0.attributeCount) }.max() ?? 0
        completedCells = .allocate(capacity: max(widest, 1))
        completedCells.initialize(repeating: .missing)
    }

    deinit {
        completedCells.deallocate()
        cells.deallocate()
    }

    // MARK: Events

    mutating func startObject(position: () -> TextPosition) -> Action {
        feedCaptures { $0.startObject() }
        depth += 1
        if skipDepth > 0 {
            skipDepth += 1
            return .none
        }
        switch takeRole() {
        case .skip:
            skipDepth = 1
        case .location(let node):
            let entity = Int(events.locationNodes[node].entity)
            if entity >= 0 {
                beginRecord(entity, at: position())
            } else {
                frames.append(.location(node))
            }
        case .record(let entity):
            beginRecord(entity, at: position())
        case .field(let node):
            enterContainer(node: node, kind: "an object")
            let keyNode = events.keyNodes[node]
            if let link = events.links(of: keyNode).first {
                // A nested record of the relationship's target, linked when it completes.
                beginNested(relationship: Int(link.index), priority: Int(link.priority), at: position())
            } else if keyNode.keyCount == 0 {
                skipDepth = 1
            } else {
                frames.append(.object(node: node, isRecord: false))
            }
        case .link(let relationship, let priority):
            beginNested(relationship: relationship, priority: priority, at: position())
        }
        return .none
    }

    mutating func key(_ bytes: UnsafeRawBufferPointer) {
        feedCaptures { $0.key(bytes) }
        guard skipDepth == 0 else { return }
        switch frames.last {
        case .location(let node)?:
            keyedRole = events.child(of: events.locationNodes[node], bytes).map(Role.location) ?? .skip
        case .object(let node, _)?:
            keyedRole = events.child(of: events.keyNodes[node], bytes, hint: &nextKey).map(Role.field) ?? .skip
        default:
            keyedRole = .skip
        }
    }

    mutating func endObject() -> Action {
        feedCaptures { $0.endObject() }
        finishCaptures()
        depth -= 1
        if skipDepth > 0 {
            skipDepth -= 1
            return .none
        }
        if case .object(_, let isRecord)? = frames.popLast(), isRecord {
            return completeRecord()
        }
        return .none
    }

    mutating func startArray(position: () -> TextPosition) -> Action {
        feedCaptures { $0.startArray() }
        depth += 1
        if skipDepth > 0 {
            skipDepth += 1
            return .none
        }
        switch takeRole() {
        case .skip:
            skipDepth = 1
        case .location(let node):
            let entity = Int(events.locationNodes[node].entity)
            if entity >= 0 {
                frames.append(.records(entity))
            } else {
                frames.append(.locationArray(node))
            }
        case .record(let entity):
            // An array where a record should be: reject it whole and go on after it.
            skipDepth = 1
            return reject(notAnObject: "an array", entity: entity, at: position())
        case .field(let node):
            enterContainer(node: node, kind: "an array")
            if let link = events.links(of: events.keyNodes[node]).first,
               startLinkArray(Int(link.index), Int(link.priority)) {
                frames.append(.links(relationship: Int(link.index), priority: Int(link.priority)))
            } else {
                skipDepth = 1
            }
        case .link(let relationship, let priority):
            setLink(relationship, priority: priority) { _ throws(ConversionError) in
                throw ConversionError(message: "an array inside a to-many's array")
            }
            skipDepth = 1
        }
        return .none
    }

    mutating func endArray() -> Action {
        feedCaptures { $0.endArray() }
        finishCaptures()
        depth -= 1
        if skipDepth > 0 {
            skipDepth -= 1
            return .none
        }
        frames.removeLast()
        return .none
    }

    /// A scalar value. `position` gives where it starts, asked for only on a rejection.
    @inline(__always)
    mutating func scalar(_ value: Scalar, position: () -> TextPosition) -> Action {
        // Most values: a mapped key's value for attributes only, nothing captured or skipped.
        // Kept small enough to inline into the stream; the rest is out of line.
        if case .field(let node)? = keyedRole, skipDepth == 0, captures.isEmpty, events.keyNodes[node].linkCount == 0 {
            keyedRole = nil
            for target in events.targets(of: events.keyNodes[node]) {
                setConverted(Int(target.index), priority: Int(target.priority), value)
            }
            return .none
        }
        return scalarInGeneral(value, position: position)
    }

    @inline(never)
    private mutating func scalarInGeneral(_ value: Scalar, position: () -> TextPosition) -> Action {
        feedCaptures { $0.scalar(value) }
        guard skipDepth == 0 else { return .none }
        switch takeRole() {
        case .skip:
            return .none
        case .location(let node):
            // A null or scalar where an envelope object was expected means "no records here";
            // where records were expected, a null is none and anything else is wrong.
            let entity = Int(events.locationNodes[node].entity)
            guard entity >= 0, !value.isNull else { return .none }
            return reject(notAnObject: value.kindDescription, entity: entity, at: position())
        case .record(let entity):
            return reject(notAnObject: value.kindDescription, entity: entity, at: position())
        case .field(let node):
            let keyNode = events.keyNodes[node]
            for target in events.targets(of: keyNode) {
                setConverted(Int(target.index), priority: Int(target.priority), value)
            }
            for link in events.links(of: keyNode) {
                setLink(Int(link.index), priority: Int(link.priority)) { relationship throws(ConversionError) in
                    if value.isNull { return .clear }
                    let target = LinkTarget.key(try relationship.key(value))
                    return relationship.toMany ? .many([target]) : .one(target)
                }
            }
            return .none
        case .link(let relationship, let priority):
            guard !value.isNull else { return .none }  // null elements are skipped
            appendLink(relationship, priority: priority) { relationship throws(ConversionError) in
                .key(try relationship.key(value))
            }
            return .none
        }
    }

    // MARK: Roles and frames

    private mutating func takeRole() -> Role {
        if let role = keyedRole {
            keyedRole = nil
            return role
        }
        switch frames.last {
        case nil: return .location(MappingPlan.rootLocation)
        case .locationArray(let node)?: return .location(node)
        case .records(let entity)?: return .record(entity)
        case .links(let relationship, let priority)?: return .link(relationship: relationship, priority: priority)
        case .location?, .object?: return .skip
        }
    }

    /// An object or array at a mapped key path: `json` attributes capture it, the others
    /// cannot take it.
    private mutating func enterContainer(node: Int, kind: String) {
        let keyNode = events.keyNodes[node]
        if keyNode.hasJSONTarget {
            var writer = spareWriters.popLast() ?? JSONTextWriter()
            writer.reset()
            if kind == "an object" { writer.startObject() } else { writer.startArray() }
            captures.append(Capture(node: node, depth: depth, writer: writer))
        }
        if keyNode.hasScalarTarget {
            for target in events.targets(of: keyNode) {
                let type = attribute(Int(target.index)).type
                guard type != .json else { continue }
                set(Int(target.index), priority: Int(target.priority)) { _ throws(ConversionError) in
                    throw ConversionError(message: "expected a \(type.rawValue), got \(kind)")
                }
            }
        }
    }

    @inline(__always)
    private mutating func feedCaptures(_ body: (inout JSONTextWriter) -> Void) {
        guard !captures.isEmpty else { return }
        for index in captures.indices where !captures[index].overflowed {
            body(&captures[index].writer)
            if captures[index].writer.bytes.count > maxValueBytes {
                captures[index].overflowed = true
                captures[index].writer.reset()
            }
        }
    }

    /// Ends the captures whose container closes now (the closing bracket is already written).
    private mutating func finishCaptures() {
        while let capture = captures.last, capture.depth == depth {
            captures.removeLast()
            let limit = maxValueBytes
            for target in events.targets(of: events.keyNodes[capture.node]) where attribute(Int(target.index)).type == .json {
                set(Int(target.index), priority: Int(target.priority)) { arena throws(ConversionError) in
                    guard !capture.overflowed else {
                        throw ConversionError(message: "a json value larger than \(limit) bytes (--max-value-bytes)")
                    }
                    return capture.writer.bytes.withUnsafeBytes { Cell.bytes(.text, $0, in: &arena) }
                }
            }
            spareWriters.append(capture.writer)
        }
    }

    // MARK: Records

    private mutating func beginRecord(_ entity: Int, at position: TextPosition,
                                      parent: (relationship: Int, priority: Int)? = nil) {
        generation += 1
        var record = OpenRecord(entity: entity, slotBase: 0, linkBase: 0, position: position,
                                generation: generation, parent: parent)
        if open == 0 {
            arena.removeAll()
            failures.removeAll(keepingCapacity: true)
            hadNestedRecord = false
        } else {
            hadNestedRecord = true
            let outer = records[open - 1]
            record.slotBase = outer.slotBase + Int(events.entities[outer.entity].attributeCount)
            record.linkBase = outer.linkBase + Int(events.entities[outer.entity].relationshipCount)
        }
        // The slots keep what earlier records left; the new number makes them missing.
        let shape = events.entities[entity]
        if cells.count < record.slotBase + Int(shape.attributeCount) {
            growCells(to: record.slotBase + Int(shape.attributeCount))
        }
        if linkSlots.count < record.linkBase + Int(shape.relationshipCount) {
            linkSlots.append(contentsOf: repeatElement(Slot(),
                                                       count: record.linkBase + Int(shape.relationshipCount) - linkSlots.count))
        }
        if open < records.count { records[open] = record } else { records.append(record) }
        open += 1
        frames.append(.object(node: Int(shape.rootNode), isRecord: true))
    }

    /// An object at a relationship's key: a record of its target, nested in the current one.
    private mutating func beginNested(relationship: Int, priority: Int, at position: TextPosition) {
        let target = plan.entities[records[open - 1].entity].relationships[relationship].target
        beginRecord(target, at: position, parent: (relationship, priority))
    }

    private mutating func growCells(to count: Int) {
        let grown = UnsafeMutableBufferPointer<Slot<Cell>>.allocate(capacity: max(count, cells.count * 2))
        grown.initialize(repeating: Slot())
        if let old = cells.baseAddress {
            grown.baseAddress!.update(from: old, count: cells.count)
            cells.deallocate()
        }
        cells = grown
    }

    /// Links the nested record that just completed (now numbered `handle` by the sink) to
    /// its parent. Call after every `.record` action; top-level records need none.
    mutating func attach(_ handle: RecordHandle) {
        guard let (relationship, priority) = completedParent else { return }
        completedParent = nil
        let toMany = plan.entities[records[open - 1].entity].relationships[relationship].toMany
        if toMany {
            appendLink(relationship, priority: priority) { _ in .record(handle) }
        } else {
            setLink(relationship, priority: priority) { _ in .one(.record(handle)) }
        }
    }

    /// A to-many's array begins: its links replace what a worse key set. False when a better
    /// key already gave the relationship its value, or for a to-one (an error).
    private mutating func startLinkArray(_ relationship: Int, _ priority: Int) -> Bool {
        let record = records[open - 1]
        guard linkSlots[record.linkBase + relationship].accepts(priority: priority, in: record.generation) else {
            return false
        }
        let plan = plan.entities[record.entity].relationships[relationship]
        guard plan.toMany else {
            let target = self.plan.entities[plan.target].name
            setLink(relationship, priority: priority) { _ throws(ConversionError) in
                throw ConversionError(message: "expected one \(target), got an array")
            }
            return false
        }
        linkSlots[record.linkBase + relationship] = Slot(priority: priority, state: .value(.many([])),
                                                         generation: record.generation)
        return true
    }

    /// Sets a relationship's value for the innermost open record, if its key wins.
    private mutating func setLink(_ relationship: Int, priority: Int,
                                  _ make: (MappingPlan.RelationshipPlan) throws(ConversionError) -> Link) {
        let record = records[open - 1]
        let index = record.linkBase + relationship
        guard linkSlots[index].accepts(priority: priority, in: record.generation) else { return }
        let state: Slot<Link>.State
        do {
            state = .value(try make(plan.entities[record.entity].relationships[relationship]))
        } catch {
            state = .failed(failure(error.message))
        }
        linkSlots[index] = Slot(priority: priority, state: state, generation: record.generation)
    }

    /// Adds one target to a to-many's list (started by its array, or by a single value).
    private mutating func appendLink(_ relationship: Int, priority: Int,
                                     _ make: (MappingPlan.RelationshipPlan) throws(ConversionError) -> LinkTarget) {
        let record = records[open - 1]
        let index = record.linkBase + relationship
        let slot = linkSlots[index]
        guard slot.accepts(priority: priority, in: record.generation) else { return }
        let target: LinkTarget
        do {
            target = try make(plan.entities[record.entity].relationships[relationship])
        } catch {
            linkSlots[index] = Slot(priority: priority, state: .failed(failure(error.message)),
                                    generation: record.generation)
            return
        }
        guard slot.priority == priority, case .value(.many(var list)) = slot.state(in: record.generation) else {
            linkSlots[index] = Slot(priority: priority, state: .value(.many([target])), generation: record.generation)
            return
        }
        // Release the slot's reference first so the list is appended in place.
        linkSlots[index].state = .missing
        list.append(target)
        linkSlots[index] = Slot(priority: priority, state: .value(.many(list)), generation: record.generation)
    }

    /// An attribute of the innermost open record's entity.
    @inline(__always)
    private func attribute(_ attribute: Int) -> EventPlan.Attribute {
        events.attributes[Int(events.entities[records[open - 1].entity].firstAttribute) + attribute]
    }

    /// Keeps a failure's message for the slot that records it.
    private mutating func failure(_ message: String) -> Int {
        failures.append(message)
        return failures.count - 1
    }

    /// Converts a scalar for an attribute of the innermost open record, if its key wins. The
    /// hot path of `set`, without a closure.
    @inline(__always)
    private mutating func setConverted(_ attribute: Int, priority: Int, _ value: Scalar) {
        let record = records[open - 1]
        let index = record.slotBase + attribute
        guard cells[index].accepts(priority: priority, in: record.generation) else { return }
        let converter = Int(events.entities[record.entity].firstAttribute) + attribute
        let state: Slot<Cell>.State
        do {
            state = .value(try events.converters[converter].convert(value, into: &arena))
        } catch {
            state = .failed(failure(error.message))
        }
        cells[index] = Slot(priority: priority, state: state, generation: record.generation)
    }

    /// Converts a value for an attribute of the innermost open record, if its key wins.
    @inline(__always)
    private mutating func set(_ attribute: Int, priority: Int,
                              _ convert: (inout ByteArena) throws(ConversionError) -> Cell) {
        let record = records[open - 1]
        let index = record.slotBase + attribute
        guard cells[index].accepts(priority: priority, in: record.generation) else { return }
        let state: Slot<Cell>.State
        do {
            state = .value(try convert(&arena))
        } catch {
            state = .failed(failure(error.message))
        }
        cells[index] = Slot(priority: priority, state: state, generation: record.generation)
    }

    private mutating func completeRecord() -> Action {
        open -= 1
        recordCount += 1
        let record = records[open]
        let entity = events.entities[record.entity]
        let attributeCount = Int(entity.attributeCount)
        let relationshipCount = Int(entity.relationshipCount)
        completed.entity = record.entity
        completed.position = record.position
        completed.isTopLevel = open == 0
        completed.bytesAreItsOwn = open == 0 && !hadNestedRecord
        // Written by index: `removeAll` and `append` on arrays of enums go through generic
        // value witnesses, several times slower.
        let values = completedCells
        completed.values = UnsafeBufferPointer(rebasing: values[..<attributeCount])
        if completed.links.count != relationshipCount {
            completed.links = Array(repeating: nil, count: relationshipCount)
        }
        completedParent = nil
        // Names are read from `plan` only here, on the way out.
        func rejection(attribute index: Int, _ problem: String) -> Action {
            let entity = plan.entities[record.entity]
            return .rejected(.init("\(entity.name).\(entity.attributes[index].name): \(problem)", at: record.position,
                                   entity: record.entity))
        }
        for index in 0..<attributeCount {
            let attribute = events.attributes[Int(entity.firstAttribute) + index]
            switch cells[record.slotBase + index].state(in: record.generation) {
            case .value(let value) where value.kind == .null && !attribute.optional:
                return rejection(attribute: index, "null for a required attribute")
            case .value(let value):
                values[index] = value
            case .failed(let failure):
                return rejection(attribute: index, failures[failure])
            case .missing:
                if attribute.defaultWhenMissing && attribute.hasDefault {
                    values[index] = Cell(plan.entities[record.entity].attributes[index].defaultValue, in: &arena)
                } else if !attribute.optional && !attribute.hasDefault {
                    return rejection(attribute: index, "missing required attribute")
                } else {
                    values[index] = .missing
                }
            }
        }
        for index in 0..<relationshipCount {
            switch linkSlots[record.linkBase + index].state(in: record.generation) {
            case .missing: completed.links[index] = nil
            case .value(let link): completed.links[index] = link
            case .failed(let failure):
                let entity = plan.entities[record.entity]
                return .rejected(.init("\(entity.name).\(entity.relationships[index].name): \(failures[failure])",
                                       at: record.position, entity: record.entity))
            }
        }
        completedParent = record.parent
        return .record
    }

    private mutating func reject(notAnObject kind: String, entity: Int, at position: TextPosition) -> Action {
        recordCount += 1
        let message = "a record of \(plan.entities[entity].name) must be an object, got \(kind)"
        return .rejected(.init(message, at: position, entity: entity))
    }
}

extension SluiceError {
    /// A record-level problem before it is tied to a source: what and where in the text.
    struct Reason: Sendable, Equatable {
        var message: String
        var position: TextPosition
        /// The entity of the record that failed.
        var entity: Int
        init(_ message: String, at position: TextPosition, entity: Int) {
            self.message = message
            self.position = position
            self.entity = entity
        }
    }
}

extension Scalar {
    var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// "a string", "a number", ... for messages.
    var kindDescription: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        }
    }
}
