/// Turns tabular JSON into records as it streams: each row (an array) at the record location
/// becomes an object whose keys are the header's names, so the assembler behind it (model or
/// zero-config) sees ordinary records. The header's own events are not passed on (a `null`
/// stands for it under its key). Memory: the header's names and a stack of open containers.
///
/// Header then rows (`.first`): the first array at the record location is the header when its
/// first element is a string, and the array of header and rows when it is an array; once the
/// header is known, each array there is a row (NDJSON of arrays).
final class TabularRows: EventHandler {
    private let inner: any EventHandler
    /// The keys of the envelope above the record location.
    private let path: [[UInt8]]
    private let header: TabularHeader
    /// Asked for positions of errors.
    unowned(unsafe) var parser: EventReader?

    private var names: [[UInt8]]?

    private enum Frame {
        /// An object of the envelope; the value of `path[level]` is the next level down.
        case envelope(level: Int)
        /// An array at the record location, not yet known to be the header or the rows' array.
        case undecided
        /// The array of rows (and, first, the header) at the record location.
        case rows
        /// A row being passed on as an object; `column` is the next value's.
        case row(column: Int)
        case header
        /// Anything else: passed on as it is.
        case plain
    }

    private enum Role {
        case envelope(level: Int)
        case location
        case header
        case plain
    }

    private var frames: [Frame] = []
    private var keyedRole: Role?

    init(inner: any EventHandler, path: [String], header: TabularHeader) {
        self.inner = inner
        self.path = path.map { Array($0.utf8) }
        self.header = header
    }

    // MARK: Roles

    private func takeRole() -> Role {
        if let role = keyedRole {
            keyedRole = nil
            return role
        }
        switch frames.last {
        case nil: return path.isEmpty ? .location : .envelope(level: 0)
        case .rows?: return names == nil ? .header : .location
        default: return .plain
        }
    }

    /// A value starts: inside a row it first gets its column's key.
    private func beginValue() throws(SluiceError) -> Role {
        if case .row(let column)? = frames.last {
            guard let names, column < names.count else {
                throw failure("a row has more values than the header names (\(names?.count ?? 0))")
            }
            frames[frames.count - 1] = .row(column: column + 1)
            let error: SluiceError? = names[column].withUnsafeBytes { bytes in
                do throws(SluiceError) { try inner.key(bytes) } catch { return error }
                return nil
            }
            if let error { throw error }
            return .plain
        }
        if case .undecided? = frames.last { try decide(element: true) }
        return takeRole()
    }

    /// The array at the record location was undecided: its first event tells. An array first
    /// makes it the rows' array; anything else makes it the header (or, once the header is
    /// known, a row).
    private func decide(element isArray: Bool) throws(SluiceError) {
        frames.removeLast()
        if isArray {
            frames.append(.rows)
            try inner.startArray()
        } else {
            frames.append(.header)
            names = []
        }
    }

    private func failure(_ message: String) -> SluiceError {
        SluiceError(.data, message, in: parser?.sourceName, at: parser?.tokenPosition(length: 1))
    }

    // MARK: Events

    func startObject() throws(SluiceError) {
        if case .undecided? = frames.last { throw failure("a table's header must be an array of strings, got an object") }
        let role = try beginValue()
        switch role {
        case .envelope(let level) where level < path.count:
            frames.append(.envelope(level: level))
        case .envelope, .location:
            frames.append(.plain)
        case .header:
            throw failure("a table's header must be an array of strings, got an object")
        case .plain:
            frames.append(.plain)
        }
        try inner.startObject()
    }

    func key(_ bytes: UnsafeRawBufferPointer) throws(SluiceError) {
        if case .envelope(let level)? = frames.last {
            if bytes.elementsEqual(path[level]) {
                keyedRole = level + 1 == path.count ? .location : .envelope(level: level + 1)
            } else if level + 1 == path.count, case .sibling(let key) = header, bytes.elementsEqual(key.utf8) {
                keyedRole = .header
            } else {
                keyedRole = .plain
            }
        }
        try inner.key(bytes)
    }

    func endObject() throws(SluiceError) {
        frames.removeLast()
        try inner.endObject()
    }

    func startArray() throws(SluiceError) {
        if case .undecided? = frames.last { try decide(element: true) }
        let role = try beginValue()
        switch role {
        case .location where names != nil:
            // The split form's array of rows, or a row.
            if case .sibling = header, !isInRows {
                frames.append(.rows)
                try inner.startArray()
            } else {
                frames.append(.row(column: 0))
                try inner.startObject()
            }
        case .location:
            if case .sibling(let key) = header {
                throw failure("the rows come before their header: \"\(key)\" must come first")
            }
            frames.append(.undecided)
        case .header:
            names = []
            frames.append(.header)
        case .envelope, .plain:
            frames.append(.plain)
            try inner.startArray()
        }
    }

    func endArray() throws(SluiceError) {
        switch frames.popLast() {
        case .undecided?:
            try inner.startArray()
            try inner.endArray()
        case .row?:
            try inner.endObject()
        case .header?:
            // Under a key, something stands for the header.
            if case .envelope? = frames.last { try inner.null() }
        default:
            try inner.endArray()
        }
    }

    func null() throws(SluiceError) { try scalar { handler throws(SluiceError) in try handler.null() } }
    func bool(_ value: Bool) throws(SluiceError) { try scalar { handler throws(SluiceError) in try handler.bool(value) } }
    func number(_ text: UnsafeRawBufferPointer) throws(SluiceError) {
        try scalar { handler throws(SluiceError) in try handler.number(text) }
    }

    func string(_ bytes: UnsafeRawBufferPointer) throws(SluiceError) {
        if case .undecided? = frames.last { try decide(element: false) }
        if case .header? = frames.last {
            names!.append(Array(bytes))
            return
        }
        try scalar { handler throws(SluiceError) in try handler.string(bytes) }
    }

    func invalidText(_ error: SluiceError) throws(SluiceError) { try inner.invalidText(error) }

    private func scalar(_ event: (any EventHandler) throws(SluiceError) -> Void) throws(SluiceError) {
        if case .undecided? = frames.last { throw failure("a table's header must be an array of strings") }
        if case .header? = frames.last { throw failure("a table's header must be an array of strings") }
        _ = try beginValue()
        try event(inner)
    }

    private var isInRows: Bool {
        if case .rows? = frames.last { return true }
        return false
    }
}
