/// The JSON event handler of `sluice infer`: counts what the first records of the input hold,
/// place by place (`ObjectShape`), and says when it has seen enough.
///
/// Records are what an import takes at the top level: each top-level value, or each element
/// of a top-level array. After `limit` of them the reader throws (`isDone` tells that apart
/// from a real error) so the caller stops reading the input. Objects nested in records are
/// analysed up to `limit` per place and `maxDepth` levels down; beyond that they are only
/// counted where they stand. One top-level object is read to its end whatever its size: it
/// may be an envelope (`{"stops": [...], "trips": [...]}`) whose arrays are all needed.
///
/// Memory: per place, per key, a few counters, plus the distinct values of id-like keys
/// (at most `limit` per place). Nothing depends on how much input follows the sample.
final class SampleReader: EventHandler {
    let limit: Int
    /// Levels of objects analysed below the top-level records.
    static let maxDepth = 8

    /// Shape 0 is the top-level records'.
    private(set) var shapes: [ObjectShape]
    /// Top-level JSON values read (a top-level array is one).
    private(set) var topLevelValues = 0
    /// Records read, objects or not.
    private(set) var records = 0
    /// Records that were not objects (an import rejects them).
    private(set) var nonObjectRecords = 0
    /// Set when `limit` records were read and the reader stopped the parse.
    private(set) var isDone = false

    private enum Frame {
        /// An object being analysed; `pendingKey` says where its next value goes.
        case object(shape: Int)
        /// An array at a key: its elements are counted there.
        case array(shape: Int, key: Int)
        /// A top-level array: its elements are records.
        case records
        /// A container nobody analyses.
        case skip
        /// An array where a record should be: skipped, but its end ends a record.
        case skippedRecord
    }

    private var stack: [Frame] = []
    /// Per open object frame, the values of its composite-identity candidates (key, text),
    /// paired up when the object ends.
    private var compositeValues: [[(key: Int, text: String)]] = []
    /// The key (of the innermost object's shape) whose value comes next; nil for a dropped key.
    private var pendingKey: Int?

    /// - Parameter identityBase: the normalised name of the top-level records' entity, for
    ///   telling which of their keys are id-like.
    init(limit: Int, identityBase: String) {
        precondition(limit > 0, "a sample holds at least one record")
        self.limit = limit
        shapes = [ObjectShape(sourceKey: nil, parent: nil, depth: 0, identityBase: identityBase)]
    }

    // MARK: Places

    /// Where the value that begins now stands.
    private enum Place {
        case topLevel
        case record
        case key(shape: Int, key: Int)
        case element(shape: Int, key: Int)
        case skipped
    }

    private func takePlace() -> Place {
        switch stack.last {
        case nil: return .topLevel
        case .records?: return .record
        case .object(let shape)?:
            defer { pendingKey = nil }
            guard let key = pendingKey else { return .skipped }
            shapes[shape].keys[key].present += 1
            return .key(shape: shape, key: key)
        case .array(let shape, let key)?: return .element(shape: shape, key: key)
        case .skip?, .skippedRecord?: return .skipped
        }
    }

    private func beginRecord() {
        records += 1
    }

    /// A record ended: once `limit` were read, stops the parse right there, so nothing after
    /// the sample's last record is read (or has to be valid JSON).
    private func endRecord() throws(SluiceError) {
        guard records >= limit else { return }
        isDone = true
        throw SluiceError(.data, "the sample is complete")  // caught by the caller: `isDone`
    }

    /// The shape of the objects at `key` of `shape`, made on first use; nil when objects there
    /// are too deep or the place already has `limit` of them.
    private func childShape(of shape: Int, key: Int) -> Int? {
        let depth = shapes[shape].depth + 1
        guard depth <= Self.maxDepth else {
            shapes[shape].keys[key].tooDeep = true
            return nil
        }
        let child: Int
        if let existing = shapes[shape].keys[key].child {
            child = existing
        } else {
            let sourceKey = shapes[shape].keys[key].key
            shapes.append(ObjectShape(sourceKey: sourceKey, parent: shape, depth: depth,
                                      identityBase: IdentityCandidate.normalise(InferenceNaming.entityName(fromKey: sourceKey))))
            child = shapes.count - 1
            shapes[shape].keys[key].child = child
        }
        return shapes[child].records < limit ? child : nil
    }

    /// Enters an object whose shape is `shape`, or skips it when nil.
    private func enter(_ shape: Int?) {
        if let shape {
            shapes[shape].records += 1
            stack.append(.object(shape: shape))
            compositeValues.append([])
        } else {
            stack.append(.skip)
        }
    }

    // MARK: Events

    func startObject() throws(SluiceError) {
        switch takePlace() {
        case .topLevel:
            topLevelValues += 1
            beginRecord()
            enter(0)
        case .record:
            beginRecord()
            enter(0)
        case .key(let shape, let key):
            shapes[shape].keys[key].values.addObject()
            refuseIdentity(shape, key)
            enter(childShape(of: shape, key: key))
        case .element(let shape, let key):
            shapes[shape].keys[key].elements.addObject()
            enter(childShape(of: shape, key: key))
        case .skipped:
            stack.append(.skip)
        }
    }

    func key(_ bytes: UnsafeRawBufferPointer) {
        guard case .object(let shape)? = stack.last else { return }
        pendingKey = shapes[shape].keyNumber(String(decoding: bytes, as: UTF8.self))
    }

    func endObject() throws(SluiceError) {
        guard case .object(let shape)? = stack.popLast() else { return }
        if let values = compositeValues.popLast() {
            if values.count > 1 { pairUp(values, in: shape) }
            if let parent = shapes[shape].parent { recordSequences(values, in: shape, parent: parent) }
        }
        // Shape 0 is the records' own: its objects are never nested in anything analysed.
        if shape == 0 { try endRecord() }
    }

    /// Records each (reference, sequence) pair the object held.
    private func pairUp(_ values: [(key: Int, text: String)], in shape: Int) {
        for reference in values where shapes[shape].keys[reference.key].compositeRole == .reference {
            for sequence in values where shapes[shape].keys[sequence.key].compositeRole == .sequence {
                let pair = ObjectShape.KeyPair(reference: reference.key, sequence: sequence.key)
                // Length-prefixed, so no two different pairs give the same text.
                let text = "\(reference.text.utf8.count):" + reference.text + sequence.text
                shapes[shape].pairs[pair, default: .init()].distinct.insert(text)
                shapes[shape].pairs[pair, default: .init()].count += 1
            }
        }
    }

    /// Records the sequence-like values of an object nested in an object of `parent`, which is
    /// still open: the parent's latest object, numbered by its count.
    private func recordSequences(_ values: [(key: Int, text: String)], in shape: Int, parent: Int) {
        for value in values where shapes[shape].keys[value.key].compositeRole == .sequence {
            shapes[shape].sequencesInParent[value.key, default: .init()].distinct.insert("\(shapes[parent].records):" + value.text)
            shapes[shape].sequencesInParent[value.key, default: .init()].count += 1
        }
    }

    func startArray() throws(SluiceError) {
        switch takePlace() {
        case .topLevel:
            topLevelValues += 1
            stack.append(.records)
        case .record:
            // An array where a record should be: an import rejects it.
            beginRecord()
            nonObjectRecords += 1
            stack.append(.skippedRecord)
        case .key(let shape, let key):
            shapes[shape].keys[key].values.addArray()
            refuseIdentity(shape, key)
            stack.append(.array(shape: shape, key: key))
        case .element(let shape, let key):
            shapes[shape].keys[key].elements.addArray()
            stack.append(.skip)
        case .skipped:
            stack.append(.skip)
        }
    }

    func endArray() throws(SluiceError) {
        if case .skippedRecord? = stack.popLast() { try endRecord() }
    }

    func null() throws(SluiceError) {
        try scalar { kinds in kinds.addNull() } identity: { nil }
    }

    func bool(_ value: Bool) throws(SluiceError) {
        try scalar { kinds in kinds.addBool() } identity: { nil }
    }

    func number(_ text: UnsafeRawBufferPointer) throws(SluiceError) {
        try scalar { kinds in kinds.addNumber(text) } identity: {
            ValueKinds.numberKind(text) == .real ? nil : String(decoding: text, as: UTF8.self)
        }
    }

    func string(_ bytes: UnsafeRawBufferPointer) throws(SluiceError) {
        try scalar { kinds in kinds.addString(bytes) } identity: { String(decoding: bytes, as: UTF8.self) }
    }

    /// A scalar where it stands: `count` adds it to the kinds there; `identity` gives its
    /// text as an identity value, or nil when an identity cannot be such a value.
    private func scalar(_ count: (inout ValueKinds) -> Void, identity: () -> String?) throws(SluiceError) {
        switch takePlace() {
        case .topLevel:
            topLevelValues += 1
            beginRecord()
            nonObjectRecords += 1
            try endRecord()
        case .record:
            beginRecord()
            nonObjectRecords += 1
            try endRecord()
        case .key(let shape, let key):
            count(&shapes[shape].keys[key].values)
            if shapes[shape].keys[key].compositeRole != nil, let text = identity() {
                compositeValues[compositeValues.count - 1].append((key, text))
            }
            guard shapes[shape].keys[key].identityRank != nil else { return }
            if let text = identity() {
                shapes[shape].keys[key].identityValues.insert(text)
                shapes[shape].keys[key].identityCount += 1
            } else {
                refuseIdentity(shape, key)
            }
        case .element(let shape, let key):
            count(&shapes[shape].keys[key].elements)
        case .skipped:
            break
        }
    }

    private func refuseIdentity(_ shape: Int, _ key: Int) {
        shapes[shape].keys[key].identityRefused = true
    }
}
