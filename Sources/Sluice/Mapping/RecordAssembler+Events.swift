/// The events of the state machine: one mutating method per JSON event, each returning an
/// `Action`. A key or the array around a value decides its `Role`; the role decides what the
/// value does to the open records.
extension RecordAssembler {
    /// Most objects: a record in an array of records, nothing captured or skipped. Kept small
    /// enough to inline into the stream; the rest is out of line. The general path does the
    /// same here: `open` feeds no capture and takes the array's role, `.record(entity)`, and
    /// there is no map member to take.
    @inline(__always)
    mutating func startObject(position: () -> InputPosition) -> Action {
        if fastPaths, captures.isEmpty, skipDepth == 0, keyedRole == nil, mapMember == nil, case .records(let entity)? = frames.last {
            depth += 1
            beginRecord(entity, at: position())
            return .none
        }
        return startObjectInGeneral(position: position)
    }

    @inline(never)
    private mutating func startObjectInGeneral(position: () -> InputPosition) -> Action {
        guard let role = open({ $0.startObject() }) else { return .none }
        let member = mapMember.take()
        switch role {
        case .skip:
            skipDepth = 1
        case .location(let node):
            let location = events.locationNodes[node]
            let entity = Int(location.entity)
            if entity >= 0, location.mapAttribute >= 0 {
                frames.append(.recordMap(entity: entity, attribute: Int(location.mapAttribute)))
            } else if entity >= 0 {
                beginRecord(entity, at: position())
            } else {
                frames.append(.location(node))
            }
        case .record(let entity):
            beginRecord(entity, at: position())
            if let member { setMemberName(member) }
        case .field(let node):
            enterContainer(node: node, kind: "an object")
            let keyNode = events.keyNodes[node]
            if let link = events.links(of: keyNode).first {
                let relationship = Int(link.index), priority = Int(link.priority)
                if plan.shapes[records[open - 1].entity].relationships[relationship].mapAttribute != nil {
                    // An object used as a map: its members are the links.
                    if startLinkArray(relationship, priority) {
                        frames.append(.linkMap(relationship: relationship, priority: priority))
                    } else {
                        skipDepth = 1
                    }
                } else {
                    // A nested record of the relationship's target, linked when it completes; a
                    // to-many given one object treats it as a list of one (its position is 0).
                    beginNested(relationship: relationship, priority: priority, at: position())
                    setPosition(0, relationship: relationship)
                }
            } else if keyNode.keyCount == 0 {
                skipDepth = 1
            } else {
                frames.append(.object(node: node, isRecord: false))
                keyOrder.enter(node)
            }
        case .link(let relationship, let priority):
            // Every element of a to-many's array counts, nulls and ids too: a position is the
            // place in the array as written.
            let element = records[open - 1].element
            records[open - 1].element += 1
            beginNested(relationship: relationship, priority: priority, at: position())
            if let member { setMemberName(member) } else { setPosition(element, relationship: relationship) }
        }
        return .none
    }

    /// The nested record just begun is the element `element` of a to-many's array: its
    /// position goes to the relationship's `position` attribute, ahead of any key of the record.
    private mutating func setPosition(_ element: Int, relationship: Int) {
        guard let attribute = plan.shapes[records[open - 2].entity].relationships[relationship].positionAttribute else {
            return
        }
        let text = Array(String(element).utf8)
        text.withUnsafeBytes { setConverted(attribute, priority: -1, .number($0)) }
    }

    /// The record just begun is a map's member: its name is the value of the map's attribute,
    /// ahead of any key of the record (priority -1).
    private mutating func setMemberName(_ member: (name: [UInt8], attribute: Int)) {
        member.name.withUnsafeBytes { name in setConverted(member.attribute, priority: -1, .string(name)) }
    }

    /// Most keys: one inside a record's object, nothing captured or skipped. Kept small enough
    /// to inline into the stream; the rest is out of line (which does the same for them).
    @inline(__always)
    mutating func key(_ bytes: UnsafeRawBufferPointer) {
        if fastPaths, captures.isEmpty, skipDepth == 0, case .object(let node, _, _)? = frames.last {
            objectKey(bytes, node: node)
        } else {
            keyInGeneral(bytes)
        }
    }

    @inline(__always)
    private mutating func objectKey(_ bytes: UnsafeRawBufferPointer, node: Int) {
        let keyNode = events.keyNodes[node]
        // The learned order is only a first guess: a wrong one (or none) finds the same key.
        if let index = EventPlan.keyIndex(in: events.keys, keyBytes: events.keyBytes, from: Int(keyNode.firstKey),
                                          count: Int(keyNode.keyCount), bytes, hint: fastPaths ? keyOrder.hint : -1) {
            keyOrder.found(index)
            keyedRole = .field(Int(events.keys[index].node))
        } else {
            keyedRole = .skip
            keyOrder.missed(bytes, node: node)
        }
    }

    @inline(never)
    private mutating func keyInGeneral(_ bytes: UnsafeRawBufferPointer) {
        feedCaptures { $0.key(bytes) }
        guard skipDepth == 0 else { return }
        switch frames.last {
        case .location(let node)?:
            keyedRole = events.child(of: events.locationNodes[node], bytes).map(Role.location) ?? .skip
        case .object(let node, _, _)?:
            objectKey(bytes, node: node)
        case .recordMap(let entity, let attribute)?:
            keyedRole = .record(entity)
            mapMember = (Array(bytes), attribute)
        case .linkMap(let relationship, let priority)?:
            keyedRole = .link(relationship: relationship, priority: priority)
            let plan = plan.shapes[records[open - 1].entity].relationships[relationship]
            mapMember = plan.mapAttribute.map { (Array(bytes), $0) }
        default:
            keyedRole = .skip
        }
    }

    @inline(__always)
    mutating func endObject() -> Action {
        guard close({ $0.endObject() }) else { return .none }
        if case .object(_, let isRecord, let isFamily)? = frames.popLast(), isRecord {
            if isFamily { return completeFamilyRecord() }
            return completeRecord()
        }
        return .none
    }

    mutating func startArray(position: () -> InputPosition) -> Action {
        guard let role = open({ $0.startArray() }) else { return .none }
        mapMember = nil
        switch role {
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
                records[open - 1].element = 0
            } else {
                skipDepth = 1
            }
        case .link(let relationship, let priority):
            records[open - 1].element += 1
            setLink(relationship, priority: priority) { _ throws(ConversionError) in
                throw ConversionError(message: "an array inside a to-many's array")
            }
            skipDepth = 1
        }
        return .none
    }

    mutating func endArray() -> Action {
        guard close({ $0.endArray() }) else { return .none }
        frames.removeLast()
        return .none
    }

    @inline(__always)
    mutating func scalar(_ value: Scalar, position: () -> InputPosition) -> Action {
        // Most values: a mapped key's value for attributes only, nothing captured or skipped.
        // Kept small enough to inline into the stream; the rest is out of line. The general
        // path also clears `mapMember`, which a key's `.field` role never leaves set.
        if fastPaths, case .field(let node)? = keyedRole, skipDepth == 0, captures.isEmpty,
           events.keyNodes[node].linkCount == 0 {
            assert(mapMember == nil, "a map member's name outlived its value")
            keyedRole = nil
            for target in events.targets(of: events.keyNodes[node]) {
                setConverted(Int(target.index), priority: Int(target.priority), value)
            }
            return .none
        }
        return scalarInGeneral(value, position: position)
    }

    @inline(never)
    private mutating func scalarInGeneral(_ value: Scalar, position: () -> InputPosition) -> Action {
        feedCaptures { $0.scalar(value) }
        guard skipDepth == 0 else { return .none }
        mapMember = nil
        switch takeRole() {
        case .skip:
            return .none
        case .location(let node):
            // A null or scalar where an envelope object was expected means "no records here";
            // where records were expected, a null is none and anything else is wrong. A
            // top-level value is a record itself (NDJSON): a null there is a record error.
            let entity = Int(events.locationNodes[node].entity)
            guard entity >= 0, !value.isNull || depth == 0 else { return .none }
            return reject(notAnObject: value.kindDescription, entity: entity, at: position())
        case .record(let entity):
            // A map's null members are skipped, as a to-many's null elements are.
            if value.isNull, case .recordMap? = frames.last { return .none }
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
            records[open - 1].element += 1
            guard !value.isNull else { return .none }  // null elements are skipped
            if case .linkMap? = frames.last {
                // A map's members are records; read as a bare id, the member's name would be lost.
                let message = "a record of \(plan.shapes[plan.shapes[records[open - 1].entity].relationships[relationship].target].name) "
                    + "must be an object, got \(value.kindDescription)"
                appendLink(relationship, priority: priority) { _ throws(ConversionError) in throw ConversionError(message: message) }
                return .none
            }
            appendLink(relationship, priority: priority) { relationship throws(ConversionError) in
                .key(try relationship.key(value))
            }
            return .none
        }
    }

    /// A bracket opens a container: the captures get it, and the container takes its role; nil
    /// inside a skipped value, whose brackets are only counted.
    @inline(__always)
    private mutating func open(_ bracket: (inout JSONTextWriter) -> Void) -> Role? {
        feedCaptures(bracket)
        depth += 1
        if skipDepth > 0 {
            skipDepth += 1
            return nil
        }
        return takeRole()
    }

    /// A bracket closes a container: the captures get it, and those it ends become values.
    /// False inside a skipped value.
    @inline(__always)
    private mutating func close(_ bracket: (inout JSONTextWriter) -> Void) -> Bool {
        feedCaptures(bracket)
        finishCaptures()
        depth -= 1
        if skipDepth > 0 {
            skipDepth -= 1
            return false
        }
        return true
    }

    /// What the next value means: the role its key gave it, or else the one of the array around it.
    @inline(__always)
    private mutating func takeRole() -> Role {
        if let role = keyedRole.take() { return role }
        switch frames.last {
        case nil: return .location(MappingPlan.rootLocation)
        case .locationArray(let node)?: return .location(node)
        case .records(let entity)?: return .record(entity)
        case .links(let relationship, let priority)?: return .link(relationship: relationship, priority: priority)
        case .location?, .object?, .recordMap?, .linkMap?: return .skip  // a member's value follows its key
        }
    }
}
