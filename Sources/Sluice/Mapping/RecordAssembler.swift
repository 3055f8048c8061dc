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
/// (`RecordLocation`, shared with `FreeformAssembler`), the keys matched (`KeyMatcher`), the
/// open records (`OpenRecords`) and their values (`ValueSlots`). What is left, split by
/// responsibility across `RecordAssembler+*.swift` (the events, records, slots, `json`
/// captures and rejections), is what ties them together: the frames inside records, the role
/// of the next value, the `json` captures, and the completed record.
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

    /// A record begun and not yet completed (`OpenRecords`).
    typealias OpenRecord = OpenRecords.Record

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
    /// The open containers of the open records: empty exactly when no record is open.
    var frames = FrameStack<Frame>()
    var keyedRole: Role?
    /// The keys of the objects inside records, matched with the order learned (`KeyMatcher`).
    var keys: KeyMatcher
    /// What each CSV column's name matched, per header (`ColumnKeys`).
    var columns = ColumnKeys()
    /// The text of each relationship's last bare id (`RecentTextIDs`).
    var recentIDs: RecentTextIDs
    var depth = 0
    /// The records begun and not yet completed, the innermost last (`OpenRecords`).
    var records: OpenRecords
    /// The open records' values, their bytes and their failures; `completed` reads its
    /// values' bytes from here.
    var slots = ValueSlots()
    var captures: [Capture] = []
    /// The name of the map member whose value comes next (`Frame.linkMap`), and
    /// the attribute of the record it opens that takes it; nil when the value is not a map's.
    var mapMember: (name: [UInt8], attribute: Int)?
    var spareWriters: [JSONTextWriter] = []

    /// `eventPlan`: `plan`'s, when one is made already (an import of many inputs makes it once).
    /// `start`: where the input's top-level values stand (nil: the top of `plan`'s locations).
    init(plan: MappingPlan, eventPlan: EventPlan.Storage? = nil, start: RecordStart? = nil, maxValueBytes: Int = 64 << 20,
         fastPaths: Bool = FastPaths.enabledByDefault) {
        self.plan = plan
        self.fastPaths = fastPaths
        eventPlanStorage = eventPlan ?? EventPlan.Storage(plan)
        events = eventPlanStorage.plan
        envelope = RecordLocation(events, start: start)
        keys = KeyMatcher(events, triesLearnedKey: fastPaths)
        records = OpenRecords(events)
        recentIDs = RecentTextIDs(count: events.relationships.count)
        self.maxValueBytes = maxValueBytes
        let widest = events.entities.map { Int($0.attributeCount) }.max() ?? 0
        completedCells = .allocate(capacity: max(widest, 1))
        completedCells.initialize(repeating: .missing)
    }

    deinit {
        completedCells.deallocate()
    }
}
