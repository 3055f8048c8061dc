/// Turns a stream of JSON events into records with no model: the zero-config import (`docs/cli.md`).
///
/// The records are the top-level values (each top-level value of NDJSON or concatenated JSON,
/// or each element of a top-level array), or, with an envelope `path`, the values found
/// there. Each distinct key of a record names a column; columns are numbered in the order
/// their keys first appear, and `columnNames` keeps their names. Keys compare byte for byte
/// (`ID` and `id` are two columns; the writer names them apart where the store would not:
/// `FreeformColumns`).
///
/// Limits, each a record error that rejects the record whole (`docs/cli.md`, zero-config): a
/// key longer than `maxKeyBytes`; a nested object or array whose JSON text is longer than
/// `maxValueBytes` (a string or number that long the parser refuses itself); a new key when
/// `maxKeys` keys have columns already (the table's column limit). So the assembler's memory is
/// one record in progress plus at most `maxKeys` names of at most `maxKeyBytes` each.
///
/// Values, by their JSON kind (no inference across records, no model):
/// * string → `.text`;
/// * number → `.integer` when written as plain digits (no fraction, no exponent) within 64
///   bits; any other finite number → `.real` (`2.0` stays a real, as SQLite stores it);
///   what neither holds exactly (plain digits beyond 64 bits, `1e400`, or `1e-400`, nonzero
///   yet 0.0 as a double) → `.text` of the digits as written, so no digit is silently lost.
///   With `numbersAsText` (a store whose columns are text, PostgreSQL's) every number is the
///   `.text` of its digits as written (`1.5e3`, `-0`);
/// * `true`/`false` → `.integer` 1/0; `null` → `.null`;
/// * object or array → `.text` of its compact JSON (`JSONTextWriter`, numbers as written).
///
/// A key repeated in one record: the last value wins. A record that is not an object is
/// rejected (`a record of <table> must be an object, got a number`) and the next one follows.
///
/// An `EventAssembler`, like `RecordAssembler`: a struct whose events are mutating methods
/// returning an `Action`, with no yajl and no SQLite inside. Memory is one record in
/// progress plus one entry per column name.
///
/// Noncopyable: it owns the envelope's frame stack (`RecordLocation`, shared with `RecordAssembler`).
struct FreeformAssembler: ~Copyable {
    /// What the next value inside the record means, decided by the key before it.
    private enum Role {
        case skip
        case column(Int)
        /// A key that found every column taken: a value other than `null` rejects the record.
        case noColumn
    }

    /// The longest key that names a column, in bytes.
    static let maxKeyBytes = 1024

    /// The table the records are for; rejections name it.
    let table: String
    /// `--map-key`: the records are the members of the object at the path, and each member's
    /// name goes to this column (over a key of that name in the record).
    private let mapKey: String?
    /// The name of the map member whose record is open.
    private var memberName: String?

    /// The column names, numbered as `completed.values` is: the spelling of each key's first
    /// appearance.
    private(set) var columnNames: [String] = []
    /// Key bytes → column number, and the other way round.
    private var columnNumbers: [[UInt8]: Int] = [:]
    private var keyBytes: [[UInt8]] = []
    /// The column of the record's previous key: the next key is first compared with the
    /// column after it (records mostly list their keys in the same order), which costs a
    /// comparison where the dictionary hashed every byte.
    private var lastColumn = -1
    /// Reused for the bytes of each key looked up, so looking up a known key allocates nothing.
    private var keyBuffer: [UInt8] = []

    /// The record being assembled, then the completed one: `values` holds one entry per
    /// column known when it completed, nil where the record has no such key. Entity is 0.
    private(set) var completed = FreeformRecord(values: [], position: InputPosition(line: 0, column: 0, offset: 0))
    /// How many records have been completed or rejected.
    private(set) var recordCount = 0

    /// The envelope above the records (the path's keys), and the values skipped whole.
    private var envelope: RecordLocation<FreeformLocations>
    /// Whether the record's own object is open (the containers inside it are captured or skipped).
    private var recordIsOpen = false
    private var keyedRole: Role?
    /// Containers open inside the value being serialised for `captureColumn`; 0 when none.
    private var captureDepth = 0
    private var captureColumn = 0
    private var writer = JSONTextWriter()
    /// Why the open record is rejected when it completes (invalid text, a limit), the first found.
    private var recordProblem: String?
    /// The key of the `.noColumn` role, for the message.
    private var keyWithoutColumn = ""

    /// Every number as the `.text` of its digits (see the type's comment).
    private let numbersAsText: Bool
    private let maxValueBytes: Int
    /// The most distinct keys that get a column, and whose limit that is (`"SQLite's"`).
    private let maxKeys: Int
    private let columnLimitOwner: String

    /// - Parameter path: the keys of an envelope above the records (`--path data.items`).
    init(table: String, path: [String] = [], mapKey: String? = nil, numbersAsText: Bool = false,
         maxValueBytes: Int = 64 << 20, maxKeys: Int = .max, columnLimitOwner: String = "the store's") {
        self.table = table
        self.numbersAsText = numbersAsText
        self.maxValueBytes = maxValueBytes
        self.maxKeys = maxKeys
        self.columnLimitOwner = columnLimitOwner
        envelope = RecordLocation(FreeformLocations(path: path.map { Array($0.utf8) }, isMap: mapKey != nil))
        self.mapKey = mapKey
    }

    // MARK: Events

    mutating func startObject(position: () -> InputPosition) -> Action {
        guard open({ $0.startObject() }) else { return .none }
        guard recordIsOpen else {
            if case .record = envelope.startObject() {
                memberName = envelope.takeMember().map { String(decoding: $0.name, as: UTF8.self) }
                beginRecord(at: position())
            }
            return .none
        }
        enterValue { $0.startObject() }
        return .none
    }

    mutating func key(_ bytes: UnsafeRawBufferPointer) {
        if captureDepth > 0 {
            writer.key(bytes)
            checkCaptureSize()
            return
        }
        guard !envelope.isSkipping else { return }
        guard recordIsOpen else {
            envelope.key(bytes)
            return
        }
        // A record being rejected names no new column.
        keyedRole = recordProblem == nil ? columnRole(for: bytes) : .skip
    }

    mutating func endObject() -> Action {
        guard close({ $0.endObject() }) else { return .none }
        guard recordIsOpen else {
            envelope.end()
            return .none
        }
        recordIsOpen = false
        return completeRecord()
    }

    mutating func startArray(position: () -> InputPosition) -> Action {
        guard open({ $0.startArray() }) else { return .none }
        guard recordIsOpen else {
            // An array where a record should be: reject it whole and go on after it.
            if case .notAnObject = envelope.startArray() { return reject("an array", at: position()) }
            return .none
        }
        enterValue { $0.startArray() }
        return .none
    }

    /// An object or array opens as a value of the record: captured whole for its key's column
    /// (`start` writes its bracket), else skipped.
    private mutating func enterValue(_ start: (inout JSONTextWriter) -> Void) {
        switch keyedRole.take() ?? .skip {
        case .skip:
            envelope.skipValue()
        case .column(let column):
            beginCapture(column)
            start(&writer)
        case .noColumn:
            refuseKeyWithoutColumn()
            envelope.skipValue()
        }
    }

    /// Only containers of the envelope reach here: those inside a record are captured or skipped.
    mutating func endArray() -> Action {
        guard close({ $0.endArray() }) else { return .none }
        envelope.end()
        return .none
    }

    /// Inlined into the stream: it runs for every value.
    @inline(__always)  // forced: docs/performance.md#forced-inlining
    mutating func scalar(_ value: Scalar, position: () -> InputPosition) -> Action {
        if captureDepth > 0 {
            writer.scalar(value)
            checkCaptureSize()
            return .none
        }
        guard !envelope.isSkipping else { return .none }
        guard recordIsOpen else {
            if case .notAnObject = envelope.scalar(isNull: value.isNull) { return reject(value.kindDescription, at: position()) }
            return .none
        }
        switch keyedRole.take() ?? .skip {
        case .skip:
            return .none
        case .column(let column):
            if numbersAsText, case .number(let bytes) = value {
                set(column, .text(String(decoding: bytes, as: UTF8.self)))
            } else {
                set(column, Self.columnValue(of: value))
            }
            return .none
        case .noColumn:
            if !value.isNull { refuseKeyWithoutColumn() }
            return .none
        }
    }

    // MARK: Values

    /// The stored form of a scalar (see the type's comment).
    static func columnValue(of scalar: Scalar) -> ColumnValue {
        switch scalar {
        case .null:
            return .null
        case .bool(let value):
            return .integer(value ? 1 : 0)
        case .string(let bytes):
            return .text(String(decoding: bytes, as: UTF8.self))
        case .number(let bytes):
            // The parser hands over valid JSON numbers only; anything else is kept as text.
            guard let number = NumberText(bytes) else { return .text(String(decoding: bytes, as: UTF8.self)) }
            if number.isPlainInteger {
                if case .value(let value) = number.integer(in: bytes) { return .integer(value) }
                return .text(String(decoding: bytes, as: UTF8.self))
            }
            // Locale-independent; strings of at most 15 bytes are stored inline, unallocated.
            let text = String(decoding: bytes, as: UTF8.self)
            // A nonzero number that rounds to 0.0 keeps its digits (checked only for a 0.0).
            if let value = Double(text), value.isFinite, value != 0 || number.isZero(in: bytes) { return .real(value) }
            return .text(text)
        }
    }

    // MARK: Roles and columns

    /// A bracket opens a container: written when inside a value being serialised, counted when
    /// skipped (false for both), or else true.
    private mutating func open(_ bracket: (inout JSONTextWriter) -> Void) -> Bool {
        if captureDepth > 0 {
            bracket(&writer)
            captureDepth += 1
            return false
        }
        return envelope.enter()
    }

    /// A bracket closes a container: written (perhaps ending the value being serialised) or
    /// counted when skipped, both false; true when it closes a container of the envelope or a record.
    private mutating func close(_ bracket: (inout JSONTextWriter) -> Void) -> Bool {
        if captureDepth > 0 {
            bracket(&writer)
            endCaptureLevel()
            return false
        }
        return envelope.leave()
    }

    /// What a record's key means: its column (numbered when new), or a record error for a key
    /// too long or past the column limit.
    private mutating func columnRole(for key: UnsafeRawBufferPointer) -> Role {
        guard key.count <= Self.maxKeyBytes else {
            recordProblem = "a key is \(key.count) bytes long, longer than the \(Self.maxKeyBytes) bytes a column's name may be "
                + "(it begins \(quoteIdentifier(String(decoding: key.prefix(40), as: UTF8.self)) + "…"))"
            return .skip
        }
        let guess = lastColumn + 1
        if guess < keyBytes.count, keyBytes[guess].elementsEqual(key) {
            lastColumn = guess
            return .column(guess)
        }
        keyBuffer.removeAll(keepingCapacity: true)
        keyBuffer.append(contentsOf: key)
        if let number = columnNumbers[keyBuffer] {
            lastColumn = number
            return .column(number)
        }
        guard columnNames.count < maxKeys else {
            keyWithoutColumn = String(decoding: key, as: UTF8.self)
            return .noColumn
        }
        return .column(newColumn(keyBuffer))
    }

    private mutating func newColumn(_ key: [UInt8]) -> Int {
        let number = columnNames.count
        columnNumbers[key] = number
        keyBytes.append(key)
        columnNames.append(String(decoding: key, as: UTF8.self))
        lastColumn = number
        return number
    }

    /// A record with a value for a key past the column limit cannot be imported whole.
    private mutating func refuseKeyWithoutColumn() {
        if recordProblem == nil {
            recordProblem = Self.tooManyColumns(table: table, key: keyWithoutColumn, limit: maxKeys + 1, owner: columnLimitOwner)
        }
    }

    /// The record error for a key that found the table's columns all taken.
    static func tooManyColumns(table: String, key: String, limit: Int, owner: String) -> String {
        "table \(quoteIdentifier(table)) already has \(limit) columns, \(owner) limit: no column for the key "
            + "\(quoteIdentifier(key)) (a zero-config import makes one column per distinct key; import such data with a model)"
    }

    /// A nested value's text past `maxValueBytes`: the record is rejected, and the rest of the
    /// value is skipped rather than written (checked only inside a captured value).
    private mutating func checkCaptureSize() {
        if writer.bytes.count > maxValueBytes { refuseCapture() }
    }

    @inline(never)
    private mutating func refuseCapture() {
        if recordProblem == nil {
            recordProblem = "the value of \(quoteIdentifier(columnNames[captureColumn])) is larger than \(maxValueBytes) "
                + "bytes (--max-value-bytes)"
        }
        writer.reset()
        envelope.skip(levels: captureDepth)
        captureDepth = 0
    }

    private mutating func beginCapture(_ column: Int) {
        writer.reset()
        captureColumn = column
        captureDepth = 1
    }

    /// A container inside the captured value closed (its bracket is written); when it was the
    /// value itself, its text becomes the column's value.
    private mutating func endCaptureLevel() {
        captureDepth -= 1
        guard captureDepth == 0 else { return }
        set(captureColumn, .text(writer.text))
    }

    // MARK: Records

    /// The column of the map key's name (`--map-key`): always one, named before any key.
    private mutating func columnNumber(for name: String) -> Int {
        if let number = columnNumbers[Array(name.utf8)] { return number }
        return newColumn(Array(name.utf8))
    }

    private mutating func beginRecord(at position: InputPosition) {
        completed.position = position
        completed.values.removeAll(keepingCapacity: true)
        lastColumn = -1
        recordIsOpen = true
    }

    /// Sets a column of the open record; a repeated key replaces its earlier value.
    private mutating func set(_ column: Int, _ value: ColumnValue) {
        if column >= completed.values.count {
            completed.values.append(contentsOf: repeatElement(nil, count: column + 1 - completed.values.count))
        }
        completed.values[column] = value
    }

    private mutating func completeRecord() -> Action {
        recordCount += 1
        if let problem = recordProblem {
            recordProblem = nil
            return .rejected(.init(problem, at: completed.position, entity: 0))
        }
        if let mapKey, let name = memberName.take() {
            set(columnNumber(for: mapKey), .text(name))
        }
        if completed.values.count < columnNames.count {
            completed.values.append(contentsOf: repeatElement(nil, count: columnNames.count - completed.values.count))
        }
        return .record
    }

    /// Whether the events are inside a record's object.
    var isInRecord: Bool { recordIsOpen }

    mutating func invalidText(_ problem: String) -> Bool {
        guard isInRecord else { return false }
        if recordProblem == nil { recordProblem = problem }
        return true
    }

    private mutating func reject(_ kind: String, at position: InputPosition) -> Action {
        recordCount += 1
        return .rejected(.init("a record of \(table) must be an object, got \(kind)", at: position, entity: 0))
    }
}
