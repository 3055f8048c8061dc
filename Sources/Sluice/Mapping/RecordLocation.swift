/// Where records stand in an input: the locations of the envelope above them, a trie of keys
/// from the top-level value down. `EventPlan` reads a model's (`MappingPlan.locationNodes`),
/// `FreeformLocations` a zero-config import's `--path` and `--map-key`.
protocol EnvelopeLocations {
    /// The location of a top-level value.
    var rootLocation: Int { get }
    /// The entity whose records stand at location `node` (the value there, or each element of
    /// an array there); nil when none do.
    func entity(at node: Int) -> Int?
    /// At a location of records: the attribute that takes each member's name when the records
    /// are the members of an object there (a map); nil when they stand there themselves.
    func mapAttribute(at node: Int) -> Int?
    /// The location under `key` of an object at `node`; nil when no record stands down there.
    func child(of node: Int, _ key: UnsafeRawBufferPointer) -> Int?
}

/// Where an input's top-level values stand among the record locations, chosen by the input's
/// name before it is parsed (`InputReader`): nothing is wrapped around an input to route it.
enum RecordStart: Equatable {
    /// At this location: a JSON input's values as they come (the model's top level, or the
    /// location of the root entry that names the file, `"trips.json": "Trip"`).
    case location(Int)
    /// Each top-level object is an element of an array at this location: a CSV or TSV input's
    /// rows, the records of the entity there (`"stops.txt": "Stop"`).
    case rows(Int)
}

/// The part of an assembler that reads the envelope above the records, shared by
/// `RecordAssembler` and `FreeformAssembler`: the open containers of the envelope, what the
/// next value of the envelope is (the role its key or the array around it gives it), and the
/// values skipped whole because no record stands in them, inside records too.
///
/// It sees the events outside records only, and says what each one is: nothing for it (a
/// location or an array of locations entered, a value skipped), a record beginning (the
/// assembler then owns the events until the record's object closes), or a value standing
/// where a record should that is not an object. An assembler asks `isSkipping` (or
/// `enter`/`leave`) first and hands it the other events only while no record is open.
///
/// An input's top-level values stand where its name put them, chosen before it is parsed
/// (`RecordStart`): the top of the locations, another location, or rows of one entity.
///
/// Noncopyable: it owns its frame stack. Its state is private; the assemblers reach it through
/// the methods below, inlined where they run for every event.
struct RecordLocation<Locations: EnvelopeLocations>: ~Copyable {
    /// An open container of the envelope.
    enum Frame {
        /// An object at a location.
        case location(Int)
        /// An array at a location where no records stand: its elements stand at the same location.
        case locationArray(Int)
        /// An array whose elements are records of an entity.
        case records(Int)
        /// An object used as a map at a location of records: each member's value is a record
        /// of `entity`, whose `attribute` takes the member's name.
        case recordMap(entity: Int, attribute: Int)
    }

    /// What the next value of the envelope is, decided by the key before it or the array around it.
    enum Role {
        case skip
        case location(Int)
        case record(Int)
    }

    /// What a value of the envelope turned out to be.
    enum Value: Equatable {
        /// Nothing for the assembler: the envelope entered it, skips it, or found no record there.
        case none
        /// A record of this entity begins with the object just opened (`takeMember()` names a map's).
        case record(Int)
        /// What stands where a record of this entity should is not an object: it is rejected
        /// (an array is skipped to its end).
        case notAnObject(Int)
    }

    let locations: Locations
    private var frames = FrameStack<Frame>()
    /// The location of a top-level value.
    private let top: Int
    private var keyedRole: Role?
    /// Containers entered inside a skipped value; 0 when not skipping.
    private var skipDepth = 0
    /// The name of the map member whose value comes next, and the attribute of the record it
    /// opens that takes it (`Frame.recordMap`); nil when the value is not a map's.
    private var member: (name: [UInt8], attribute: Int)?

    init(_ locations: Locations, start: RecordStart? = nil) {
        self.locations = locations
        switch start {
        case nil:
            top = locations.rootLocation
        case .location(let node):
            top = node
        case .rows(let node):
            // As the elements of an array at `node` are: each object a record of its entity.
            top = locations.rootLocation
            frames.append(locations.entity(at: node).map(Frame.records) ?? .locationArray(node))
        }
    }

    // MARK: Skipping, everywhere

    /// Whether the events are inside a value skipped whole.
    var isSkipping: Bool {
        get { skipDepth > 0 }
    }

    /// The container just opened is skipped whole: its events are only counted until it closes.
    mutating func skipValue() {
        skipDepth = 1
    }

    /// The value open `levels` containers deep is skipped whole from here on.
    mutating func skip(levels: Int) {
        skipDepth = levels
    }

    /// A container opens: false inside a skipped value, whose brackets are only counted.
    mutating func enter() -> Bool {
        if skipDepth > 0 {
            skipDepth += 1
            return false
        }
        return true
    }

    /// A container closes: false inside a skipped value (the skipped value itself included).
    mutating func leave() -> Bool {
        if skipDepth > 0 {
            skipDepth -= 1
            return false
        }
        return true
    }

    // MARK: Events outside records

    /// Most records: the entity of the next element of an array of records, when the next
    /// object is one with nothing else to decide (no key before it, nothing skipped); the
    /// common case of `startObject()`, which does the same.
    var recordInArray: Int? {
        get {
            guard skipDepth == 0, keyedRole == nil, case .records(let entity)? = frames.last else { return nil }
            assert(member == nil, "a map member's name outlived its value")
            return entity
        }
    }

    /// An object opens in the envelope (after `enter()`).
    mutating func startObject() -> Value {
        let role = takeRole()
        if case .record = role {} else { member = nil }
        switch role {
        case .skip:
            skipDepth = 1
        case .location(let node):
            if let entity = locations.entity(at: node) {
                guard let attribute = locations.mapAttribute(at: node) else { return .record(entity) }
                frames.append(.recordMap(entity: entity, attribute: attribute))
            } else {
                frames.append(.location(node))
            }
        case .record(let entity):
            return .record(entity)
        }
        return .none
    }

    /// The name of the map member whose record just began (`Value.record`), and the attribute
    /// that takes it; nil for a record that is not a map's member.
    mutating func takeMember() -> (name: [UInt8], attribute: Int)? {
        member.take()
    }

    /// An array opens in the envelope (after `enter()`).
    mutating func startArray() -> Value {
        member = nil
        switch takeRole() {
        case .skip:
            skipDepth = 1
        case .location(let node):
            frames.append(locations.entity(at: node).map(Frame.records) ?? .locationArray(node))
        case .record(let entity):
            skipDepth = 1
            return .notAnObject(entity)
        }
        return .none
    }

    /// A key of an object of the envelope (not skipped): it decides what its value is.
    mutating func key(_ bytes: UnsafeRawBufferPointer) {
        switch frames.last {
        case .location(let node)?:
            keyedRole = locations.child(of: node, bytes).map(Role.location) ?? .skip
        case .recordMap(let entity, let attribute)?:
            keyedRole = .record(entity)
            member = (Array(bytes), attribute)
        case .locationArray?, .records?, nil:
            keyedRole = .skip
        }
    }

    /// A scalar of the envelope (not skipped). Where an envelope object was expected it means
    /// "no records here"; where records were expected, a null is none (a map's null members
    /// and an array's null elements are skipped) and anything else is not a record. A
    /// top-level value is a record itself (NDJSON): a null there is not a record either.
    mutating func scalar(isNull: Bool) -> Value {
        member = nil
        switch takeRole() {
        case .skip:
            return .none
        case .location(let node):
            guard let entity = locations.entity(at: node), !isNull || frames.count == 0 else { return .none }
            return .notAnObject(entity)
        case .record(let entity):
            if isNull, case .recordMap? = frames.last { return .none }
            return .notAnObject(entity)
        }
    }

    /// A container of the envelope closes (after `leave()`).
    mutating func end() {
        frames.removeLast()
    }

    /// What the next value means: the role its key gave it, or else the one of the array around it.
    private mutating func takeRole() -> Role {
        if let role = keyedRole.take() { return role }
        switch frames.last {
        case nil: return .location(top)
        case .locationArray(let node)?: return .location(node)
        case .records(let entity)?: return .record(entity)
        case .location?, .recordMap?: return .skip  // a member's value follows its key
        }
    }
}

extension EventPlan: EnvelopeLocations {
    var rootLocation: Int { MappingPlan.rootLocation }

    func entity(at node: Int) -> Int? {
        let entity = Int(locationNodes[node].entity)
        return entity >= 0 ? entity : nil
    }

    func mapAttribute(at node: Int) -> Int? {
        let attribute = Int(locationNodes[node].mapAttribute)
        return attribute >= 0 ? attribute : nil
    }

    func child(of node: Int, _ key: UnsafeRawBufferPointer) -> Int? {
        child(of: locationNodes[node], key)
    }
}

/// A zero-config import's locations: the records stand at the end of `path` (the top-level
/// values when it is empty), as an object's members with `--map-key` (`isMap`). Location `n`
/// is `n` keys down the path; the records are of entity 0, and a map's member name goes to
/// attribute 0 (the assembler puts it in the map key's column).
struct FreeformLocations: EnvelopeLocations {
    let path: [[UInt8]]
    let isMap: Bool

    var rootLocation: Int { 0 }

    func entity(at level: Int) -> Int? { level == path.count ? 0 : nil }

    func mapAttribute(at level: Int) -> Int? { level == path.count && isMap ? 0 : nil }

    func child(of level: Int, _ key: UnsafeRawBufferPointer) -> Int? {
        level < path.count && key.elementsEqual(path[level]) ? level + 1 : nil
    }
}
