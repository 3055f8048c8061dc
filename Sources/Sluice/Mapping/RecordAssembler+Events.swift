/// The events of the state machine: one mutating method per JSON event, each returning an
/// `Action`. Outside records the envelope decides what each event is (`RecordLocation`); inside
/// them a key or the array around a value decides its `Role`, and the role decides what the
/// value does to the open records.
extension RecordAssembler {
    /// Most objects: a record in an array of records, nothing captured or skipped. Kept small
    /// enough to inline into the stream; the rest is out of line. The general path does the
    /// same here: `open` feeds no capture (none is open outside records), and the envelope's
    /// `startObject()` gives the array's record, with no map member to take.
    mutating func startObject(position: () -> InputPosition) -> Action {
        if fastPaths, records.count == 0, captures.isEmpty, let entity = envelope.recordInArray {
            depth += 1
            beginRecord(entity, at: position())
            return .none
        }
        return startObjectInGeneral(position: position)
    }

    @inline(never)
    private mutating func startObjectInGeneral(position: () -> InputPosition) -> Action {
        guard open({ $0.startObject() }) else { return .none }
        guard records.count > 0 else {
            if case .record(let entity) = envelope.startObject() {
                beginRecord(entity, at: position())
                if let member = envelope.takeMember() { setMemberName(member) }
            }
            return .none
        }
        let member = mapMember.take()
        switch takeRole() {
        case .skip:
            envelope.skipValue()
        case .field(let node):
            enterContainer(node: node, kind: "an object")
            let keyNode = events.keyNodes[node]
            if let link = events.links(of: keyNode).first {
                let relationship = Int(link.index), priority = Int(link.priority)
                if plan.shapes[records.last.entity].relationships[relationship].mapAttribute != nil {
                    // An object used as a map: its members are the links.
                    if startLinkArray(relationship, priority) {
                        frames.append(.linkMap(relationship: relationship, priority: priority))
                    } else {
                        envelope.skipValue()
                    }
                } else {
                    // A nested record of the relationship's target, linked when it completes; a
                    // to-many given one object treats it as a list of one (its position is 0).
                    let attribute = positionAttribute(relationship)
                    beginNested(relationship: relationship, priority: priority, at: position())
                    setPosition(0, attribute: attribute)
                }
            } else if keyNode.keyCount == 0 {
                envelope.skipValue()
            } else {
                frames.append(.object(node: node, isRecord: false))
                keys.enter(node)
            }
        case .link(let relationship, let priority):
            // Every element of a to-many's array counts, nulls and ids too: a position is the
            // place in the array as written.
            let element = records.nextElement(), attribute = positionAttribute(relationship)
            beginNested(relationship: relationship, priority: priority, at: position())
            if let member { setMemberName(member) } else { setPosition(element, attribute: attribute) }
        }
        return .none
    }

    /// The attribute of a relationship's target that takes a nested record's place in the
    /// innermost record's value for it (`position`), if any.
    private func positionAttribute(_ relationship: Int) -> Int? {
        plan.shapes[records.last.entity].relationships[relationship].positionAttribute
    }

    /// The nested record just begun is the element `element` of a to-many's array: its
    /// position goes to the relationship's `position` attribute, ahead of any key of the record.
    private mutating func setPosition(_ element: Int, attribute: Int?) {
        guard let attribute else { return }
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
    @inline(__always)  // forced: docs/performance.md#forced-inlining
    mutating func key(_ bytes: UnsafeRawBufferPointer) {
        if fastPaths, captures.isEmpty, !envelope.isSkipping, case .object(let node, _, _)? = frames.last {
            objectKey(bytes, node: node)
        } else {
            keyInGeneral(bytes)
        }
    }

    @inline(__always)  // forced: docs/performance.md#forced-inlining
    private mutating func objectKey(_ bytes: UnsafeRawBufferPointer, node: Int) {
        keyedRole = keys.match(bytes, in: node).map(Role.field) ?? .skip
    }

    /// A CSV field: its column's name as `key` does, matched once per header (`ColumnKeys`)
    /// when the key's common case applies, then the value as `scalar`. A remembered match is
    /// the one `KeyMatcher.match` gives (an unmapped name is matched again while unmapped
    /// names are sampled); only the learned key order, a guess, is not updated.
    mutating func field(_ column: Int, name: UnsafeRawBufferPointer, value: Scalar, position: () -> InputPosition)
        -> Action
    {
        if fastPaths, captures.isEmpty, !envelope.isSkipping, case .object(let node, _, _)? = frames.last {
            let known = columns.match(column, in: node)
            if known >= 0 {
                // `scalar`'s common case with the role the key gives, which it would clear.
                assert(mapMember == nil, "a map member's name outlived its value")
                if setField(Int(known), value) {
                    keyedRole = nil
                    return .none
                }
                keyedRole = .field(Int(known))
            } else if known == ColumnKeys.unmapped && !keys.samplesUnmapped {
                keyedRole = .skip
            } else {
                let child = keys.match(name, in: node)
                columns.remember(column, in: node, child: child)
                keyedRole = child.map(Role.field) ?? .skip
            }
        } else {
            key(name)
        }
        return scalar(value, position: position)
    }

    /// A new CSV header: the columns' names are matched again.
    mutating func columnsNamed() {
        columns.reset()
    }

    @inline(never)
    private mutating func keyInGeneral(_ bytes: UnsafeRawBufferPointer) {
        feedCaptures { $0.key(bytes) }
        guard !envelope.isSkipping else { return }
        switch frames.last {
        case nil:
            envelope.key(bytes)
        case .object(let node, _, _)?:
            objectKey(bytes, node: node)
        case .linkMap(let relationship, let priority)?:
            keyedRole = .link(relationship: relationship, priority: priority)
            let plan = plan.shapes[records.last.entity].relationships[relationship]
            mapMember = plan.mapAttribute.map { (Array(bytes), $0) }
        case .links?:
            keyedRole = .skip
        }
    }

    mutating func endObject() -> Action {
        guard close({ $0.endObject() }) else { return .none }
        guard let frame = frames.popLast() else {
            envelope.end()
            return .none
        }
        if case .object(_, let isRecord, let isFamily) = frame, isRecord {
            if isFamily { return completeFamilyRecord() }
            return completeRecord()
        }
        return .none
    }

    mutating func startArray(position: () -> InputPosition) -> Action {
        guard open({ $0.startArray() }) else { return .none }
        mapMember = nil
        guard records.count > 0 else {
            // An array where a record should be: reject it whole and go on after it.
            if case .notAnObject(let entity) = envelope.startArray() {
                return reject(notAnObject: "an array", entity: entity, at: position())
            }
            return .none
        }
        switch takeRole() {
        case .skip:
            envelope.skipValue()
        case .field(let node):
            enterContainer(node: node, kind: "an array")
            if let link = events.links(of: events.keyNodes[node]).first,
               startLinkArray(Int(link.index), Int(link.priority)) {
                frames.append(.links(relationship: Int(link.index), priority: Int(link.priority)))
                records.startElements()
            } else {
                envelope.skipValue()
            }
        case .link(let relationship, let priority):
            _ = records.nextElement()
            setLink(relationship, priority: priority) { _ throws(ConversionError) in
                throw ConversionError(message: "an array inside a to-many's array")
            }
            envelope.skipValue()
        }
        return .none
    }

    mutating func endArray() -> Action {
        guard close({ $0.endArray() }) else { return .none }
        if records.count > 0 { frames.removeLast() } else { envelope.end() }
        return .none
    }

    @inline(__always)  // forced: docs/performance.md#forced-inlining
    mutating func scalar(_ value: Scalar, position: () -> InputPosition) -> Action {
        // Most values: a mapped key's value for attributes only, nothing captured or skipped.
        // Kept small enough to inline into the stream; the rest is out of line. The general
        // path also clears `mapMember`, which a key's `.field` role never leaves set.
        // A key that also gives relationships takes it too when each is a bare id that
        // becomes its text (`textLinks`): what the general path's `setLink` makes of it.
        if fastPaths, case .field(let node)? = keyedRole, !envelope.isSkipping, captures.isEmpty {
            assert(mapMember == nil, "a map member's name outlived its value")
            if setField(node, value) {
                keyedRole = nil
                return .none
            }
        }
        return scalarInGeneral(value, position: position)
    }

    /// The common case of a value at key node `node`: its attributes, and its relationships when
    /// each takes a bare id as its text. False, having done nothing, when the general path
    /// must take the value.
    @inline(__always)  // forced: docs/performance.md#forced-inlining
    private mutating func setField(_ node: Int, _ value: Scalar) -> Bool {
        let keyNode = events.keyNodes[node]
        if keyNode.linkCount == 0 {
            for target in events.targets(of: keyNode) {
                setConverted(Int(target.index), priority: Int(target.priority), value)
            }
            return true
        }
        guard let id = value.textOfID, textLinks(keyNode) else { return false }
        for target in events.targets(of: keyNode) {
            setConverted(Int(target.index), priority: Int(target.priority), value)
        }
        for link in events.links(of: keyNode) {
            setTextLink(Int(link.index), priority: Int(link.priority), id)
        }
        return true
    }

    /// Whether every relationship the key node gives takes a bare id as its text
    /// (`EventPlan.Relationship.keyIsText`), in the innermost open record.
    private func textLinks(_ keyNode: EventPlan.Node) -> Bool {
        let first = records.innermost.firstRelationship
        for link in events.links(of: keyNode) where !events.relationships[first + Int(link.index)].keyIsText {
            return false
        }
        return true
    }

    @inline(never)
    private mutating func scalarInGeneral(_ value: Scalar, position: () -> InputPosition) -> Action {
        feedCaptures { $0.scalar(value) }
        guard !envelope.isSkipping else { return .none }
        mapMember = nil
        guard records.count > 0 else {
            if case .notAnObject(let entity) = envelope.scalar(isNull: value.isNull) {
                return reject(notAnObject: value.kindDescription, entity: entity, at: position())
            }
            return .none
        }
        switch takeRole() {
        case .skip:
            return .none
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
            _ = records.nextElement()
            guard !value.isNull else { return .none }  // null elements are skipped
            if case .linkMap? = frames.last {
                // A map's members are records; read as a bare id, the member's name would be lost.
                let message = "a record of \(plan.shapes[plan.shapes[records.last.entity].relationships[relationship].target].name) "
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

    /// A bracket opens a container: the captures get it; false inside a skipped value, whose
    /// brackets are only counted.
    private mutating func open(_ bracket: (inout JSONTextWriter) -> Void) -> Bool {
        feedCaptures(bracket)
        depth += 1
        return envelope.enter()
    }

    /// A bracket closes a container: the captures get it, and those it ends become values.
    /// False inside a skipped value.
    private mutating func close(_ bracket: (inout JSONTextWriter) -> Void) -> Bool {
        feedCaptures(bracket)
        finishCaptures()
        depth -= 1
        return envelope.leave()
    }

    /// What the next value inside a record means: the role its key gave it, or else the one of
    /// the array around it.
    private mutating func takeRole() -> Role {
        if let role = keyedRole.take() { return role }
        switch frames.last {
        case .links(let relationship, let priority)?: return .link(relationship: relationship, priority: priority)
        case .object?, .linkMap?, nil: return .skip  // a member's value follows its key
        }
    }
}
