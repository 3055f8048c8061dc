/// Turns a stream of JSON events into records, following a `MappingPlan`.
///
/// An `EventAssembler`, a state machine in the swift-nio manner: a struct whose events are
/// mutating methods that return an `Action`, with no yajl and no SQLite inside, so it is
/// tested on its own. It
/// keeps only what the plan asks for: values at mapped key paths are converted as they
/// arrive into one slot per attribute; a subtree no attribute needs is skipped by counting
/// its brackets, never built; a `json` attribute's subtree is re-serialised as it streams.
/// Memory is one record in progress, whatever the input's size.
///
/// Noncopyable: it owns the memory its completed record is read from. It is made of parts
/// that own their state: the envelope above the records and the skipped values
/// (`RecordLocation`, shared with `FreeformAssembler`), the keys matched (`KeyMatcher`) and
/// the open records' values (`ValueSlots`). What is left, split by responsibility across
/// `RecordAssembler+*.swift` (the events, records, slots, `json` captures and rejections),
/// is what ties them together: the frames inside records and the open records.
struct RecordAssembler: ~Copyable {
    /// What an open container inside a record is, from the mapping's point of view (those of
    /// the envelope above the records are `envelope`'s).
    enum Frame {
        /// An object inside the current record; `node` is its key trie node. `isFamily`: the
        /// record's entity is a family member (`completeFamilyRecord`).
        case object(node: Int, isRecord: Bool, isFamily: Bool = false)
        /// A to-many's array: each element is a link of the innermost open record.
        case links(relationship: Int, priority: Int)
        /// An object used as a map at a to-many's key: each member's value is a link (a
        /// nested record) of the innermost open record.
        case linkMap(relationship: Int, priority: Int)
    }

    /// What the next value inside a record means, decided by the key before it or the array around it.
    enum Role {
        case skip
        case field(Int)
        case link(relationship: Int, priority: Int)
    }

    /// A record begun and not yet completed. Plain values only, so that reading it copies bits.
    struct OpenRecord {
        var entity: Int
        /// Where its attributes' and its relationships' slots start in `slots` (`ValueSlots`).
        var slotBase: Int
        var linkBase: Int
        var position: InputPosition
        /// Numbers the record: its slots are those that carry this number.
        var generation: Int
        /// For a nested record: the relationship of the record below it that it is a value of.
        var parent: (relationship: Int, priority: Int)?
        /// Set by invalid text anywhere inside it (`failures` holds the message): the record is
        /// rejected when it completes.
        var invalidText: Int?
        /// Whether a value of one of its attributes failed to convert (and may still win), so
        /// that completing it checks every slot.
        var hadFailure = false
        /// The place of the current element of its open to-many array (from 0), for a
        /// relationship's `position`.
        var element = 0
    }

    /// The innermost open record's slots (`RecordAssembler.innermost`).
    struct Innermost {
        var slotBase = 0
        var generation = 0
        /// Where its entity's attributes start in `EventPlan.attributes` and `converters`.
        var firstAttribute = 0
    }

    /// A `json` attribute's value being serialised while its events stream past.
    struct Capture {
        var node: Int
        /// The container depth its value opened; it ends when that container closes.
        var depth: Int
        var writer: JSONTextWriter
        /// Set when the text passed `maxValueBytes`: writing stops, the value is an error.
        var overflowed = false
    }

    let plan: MappingPlan
    /// What each event reads of `plan`, flat; `eventPlanStorage` keeps its buffers alive.
    let events: EventPlan
    private let eventPlanStorage: EventPlan.Storage
    /// The largest `json` value re-serialised from a subtree, so that one value cannot take
    /// unbounded memory even when each of its tokens is small.
    let maxValueBytes: Int
    /// The record just completed, lent its values by `completeRecord` and their bytes by
    /// `withCompleted`.
    var completed = Record()
    /// The completed record's values (lent to `completed`), room for the widest entity.
    let completedCells: UnsafeMutableBufferPointer<Cell>
    /// The nested record just completed, waiting for its handle (`attach(_:)`).
    var completedParent: (relationship: Int, priority: Int)?
    /// How many records have been completed or rejected.
    var recordCount = 0
    /// Whether the inlined common cases are taken (`FastPaths`); false sends every event
    /// through the general path.
    let fastPaths: Bool

    /// Calls `body` with the record just completed (after a `.record` action), its values
    /// and their bytes valid during the call. Lent: a record cannot be copied, so `body`
    /// cannot keep it.
    mutating func withCompleted<Result>(_ body: (borrowing Record) throws(SluiceError) -> Result) throws(SluiceError)
        -> Result
    {
        completed.lend(bytes: slots.bytes)
        return try body(completed)
    }

    // The state below belongs to the assembler alone; it is internal, not private, only so
    // that the assembler's extensions in the other `RecordAssembler+*.swift` files reach it.
    // The parts' own state is private to them.

    /// The envelope above the records, and the values skipped whole (`RecordLocation`).
    var envelope: RecordLocation<EventPlan>
    /// The open containers of the open records: empty exactly when `open` is 0.
    var frames = FrameStack<Frame>()
    var keyedRole: Role?
    /// The keys of the objects inside records, matched with the order learned (`KeyMatcher`).
    var keys: KeyMatcher
    var depth = 0
    /// Only the first `open` are in use; each one's slots follow its parent's in `slots`,
    /// which are reused from record to record (see `Slot.generation`).
    var records: [OpenRecord] = []
    var open = 0
    /// What a value needs of the innermost open record, kept beside `records` so that
    /// `setConverted` reads three numbers instead of a whole `OpenRecord` from the array.
    var innermost = Innermost()
    /// The open records' values, their bytes and their failures; `completed` reads its
    /// values' bytes from here.
    var slots = ValueSlots()
    /// Whether the current top-level record has had a nested record (whose bytes then share
    /// the arena with it).
    var hadNestedRecord = false
    /// Why the current top-level record is rejected, set when a record nested in it failed:
    /// the unit of rejection is the top-level record (`docs/import-semantics.md`), so the
    /// records nested in it complete as nothing and it completes as this rejection.
    var rejectingTopLevel: SluiceError.Reason?
    var captures: [Capture] = []
    /// The name of the map member whose value comes next (`Frame.linkMap`), and
    /// the attribute of the record it opens that takes it; nil when the value is not a map's.
    var mapMember: (name: [UInt8], attribute: Int)?
    var spareWriters: [JSONTextWriter] = []

    init(plan: MappingPlan, maxValueBytes: Int = 64 << 20, fastPaths: Bool = FastPaths.enabledByDefault) {
        self.plan = plan
        self.fastPaths = fastPaths
        eventPlanStorage = EventPlan.Storage(plan)
        events = eventPlanStorage.plan
        envelope = RecordLocation(events)
        keys = KeyMatcher(events, triesLearnedKey: fastPaths)
        self.maxValueBytes = maxValueBytes
        let widest = events.entities.map { Int($0.attributeCount) }.max() ?? 0
        completedCells = .allocate(capacity: max(widest, 1))
        completedCells.initialize(repeating: .missing)
    }

    deinit {
        completedCells.deallocate()
    }
}
