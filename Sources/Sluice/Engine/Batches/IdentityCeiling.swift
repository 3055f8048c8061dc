/// The largest identity an entity's writer has inserted into a table the import created: a
/// record whose identity is larger cannot be in the table, so it is inserted without a lookup
/// (`EntityRowStore.find`, an index search per record: 465 M of the 2,950 M instructions W3's
/// cold import spent writing, callgrind at scale 0.05).
///
/// Inputs most often come with their ids counting up: a feed's trips `T0`, `T1`, … `T10`, …,
/// an API's numbered records, a dump in key order. Two orders are kept, for ids that count up
/// written with leading zeros or without: by bytes (`T09` < `T10`), and shorter first, then by
/// bytes (`T9` < `T10`). Integers compare as numbers in both; parts compare in model order. A
/// record above the ceiling in either order is new; any other is looked up as before.
///
/// Why it never misses a row: the table holds only rows this writer inserted (the store made
/// it, `EntityRowStore.startedEmpty`, with its own schema, and no other entity writes to it
/// during the batches; stubs come in the second pass, after the last batch), each at or below
/// the ceiling of both orders; a record above a ceiling is above every such row, so it differs
/// from each in some part. Parts are compared only as
/// the database compares them: text of a string attribute byte for byte (SQLite's `BINARY`,
/// PostgreSQL's deterministic collations), integers of an integer attribute as numbers. A cell
/// of another kind, an identity with a to-one part (`ParentIdentity`'s generations link rows
/// afterwards) or a default (a missing part would be stored as a value) turns it off.
/// `ImportOptions.fastPaths` false (`SLUICE_GENERAL_PATHS=1`) turns it off too.
struct IdentityCeiling {
    /// Whether records are compared with the ceiling; false for good once it cannot be kept.
    private(set) var enabled: Bool
    /// Whether every identity inserted so far came after the one before it by bytes, as the
    /// identity index orders them: each went in at the index's end, which costs less than one
    /// sort of them all after the load (W2's stop times: 1,950 instructions a row against
    /// 3,700). False for good once one did not; unknown (false) while turned off.
    private(set) var inIndexOrder = true
    /// Indexes into the row's columns of the identity's parts, and the kind each part holds.
    private let parts: [(column: Int, kind: Cell.Kind)]
    /// The largest identity inserted in each order, its bytes in its own arena; nil: none yet.
    private var byBytes: Ceiling?
    private var byLength: Ceiling?

    private struct Ceiling {
        var cells: [Cell]
        var bytes: [UInt8]
    }

    private enum Order {
        /// By bytes, as `memcmp` orders them; a prefix first.
        case bytes
        /// Shorter text first, then by bytes.
        case lengthFirst
    }

    private enum Comparison {
        case less, equal, greater
        /// Parts of kinds this does not compare.
        case unknown
    }

    /// `identity`: the identity's columns among the row's; `types`: the attribute type of
    /// each (nil for a to-one's column); `hasDefault`: whether each has a default.
    /// `startedEmpty`: the import created the table, and only this writer inserts into it.
    init(identity: [Int], types: [AttributeType?], hasDefault: [Bool], startedEmpty: Bool, fastPaths: Bool) {
        var parts: [(column: Int, kind: Cell.Kind)] = []
        var comparable = !identity.isEmpty
        for (offset, column) in identity.enumerated() {
            switch types[offset] {
            case .string?: parts.append((column, .text))
            case .integer?: parts.append((column, .integer))
            default: comparable = false
            }
            if hasDefault[offset] { comparable = false }
        }
        self.parts = parts
        enabled = fastPaths && startedEmpty && comparable
        inIndexOrder = enabled
    }

    /// Whether `record`'s identity is above the ceiling in either order: no row of the table
    /// holds it. True for every record while nothing was inserted.
    func isAbove(_ record: Int, in rows: CellRows) -> Bool {
        guard enabled else { return false }
        guard let byBytes, let byLength else { return true }
        return byBytes.cells.withUnsafeBufferPointer { cells in byBytes.bytes.withUnsafeBytes { bytes in
            compare(record, rows, with: cells, bytes, .bytes) == .greater
        } } || byLength.cells.withUnsafeBufferPointer { cells in byLength.bytes.withUnsafeBytes { bytes in
            compare(record, rows, with: cells, bytes, .lengthFirst) == .greater
        } }
    }

    /// Raises the ceiling to the identities of `records`, about to be inserted (each with every
    /// part given). A part it cannot compare turns it off.
    mutating func raise(to records: [Int], in rows: CellRows) {
        guard enabled, !records.isEmpty else { return }
        var (byBytes, byLength) = (self.byBytes, self.byLength)
        self.byBytes = nil
        self.byLength = nil
        guard raise(&byBytes, to: records, in: rows, .bytes), raise(&byLength, to: records, in: rows, .lengthFirst) else {
            enabled = false
            inIndexOrder = false
            return
        }
        (self.byBytes, self.byLength) = (byBytes, byLength)
    }

    /// False for a part it cannot compare.
    private mutating func raise(_ ceiling: inout Ceiling?, to records: [Int], in rows: CellRows, _ order: Order) -> Bool {
        // By bytes, in order while each record is above the one before (then the largest).
        var inOrder = order == .bytes && inIndexOrder
        var largest = records[0]
        for record in records.dropFirst() {
            switch compare(record, rows, with: largest, order) {
            case .greater: largest = record
            case .less, .equal: inOrder = false
            case .unknown: return false
            }
        }
        if let current = ceiling {
            let (first, last) = current.cells.withUnsafeBufferPointer { cells in current.bytes.withUnsafeBytes { bytes in
                (inOrder ? compare(records[0], rows, with: cells, bytes, order) : .greater,
                 compare(largest, rows, with: cells, bytes, order))
            } }
            if first != .greater { inOrder = false }
            if order == .bytes, !inOrder { inIndexOrder = false }
            switch last {
            case .greater: break
            case .less, .equal: return true
            case .unknown: return false
            }
        } else if order == .bytes, !inOrder {
            inIndexOrder = false
        }
        var new = ceiling ?? Ceiling(cells: [], bytes: [])
        ceiling = nil
        new.cells.removeAll(keepingCapacity: true)
        new.bytes.removeAll(keepingCapacity: true)
        for part in parts {
            new.cells.append(rows[largest, part.column].copied(from: rows.arena, to: &new.bytes))
        }
        ceiling = new
        return true
    }

    /// `record`'s identity against the ceiling `cells` (bytes in `bytes`).
    private func compare(_ record: Int, _ rows: CellRows, with cells: UnsafeBufferPointer<Cell>, _ bytes: UnsafeRawBufferPointer,
                         _ order: Order) -> Comparison {
        for (index, part) in parts.enumerated() {
            let comparison = Self.compare(rows[record, part.column], rows.arena, cells[index], bytes, as: part.kind, order)
            if comparison != .equal { return comparison }
        }
        return .equal
    }

    /// `record`'s identity against `other`'s, both in `rows`.
    private func compare(_ record: Int, _ rows: CellRows, with other: Int, _ order: Order) -> Comparison {
        for part in parts {
            let comparison = Self.compare(rows[record, part.column], rows.arena, rows[other, part.column], rows.arena, as: part.kind, order)
            if comparison != .equal { return comparison }
        }
        return .equal
    }

    private static func compare(_ a: Cell, _ aBytes: UnsafeRawBufferPointer, _ b: Cell, _ bBytes: UnsafeRawBufferPointer,
                                as kind: Cell.Kind, _ order: Order) -> Comparison {
        guard a.kind == kind, b.kind == kind else { return .unknown }
        if kind == .integer {
            return a.integer < b.integer ? .less : a.integer > b.integer ? .greater : .equal
        }
        let (aCount, bCount) = (Int(a.count), Int(b.count))
        if order == .lengthFirst, aCount != bCount { return aCount < bCount ? .less : .greater }
        let common = min(aCount, bCount)
        let bytes = common == 0 ? 0 : MemoryBytes.compare(aBytes.baseAddress! + a.offset, bBytes.baseAddress! + b.offset, count: common)
        if bytes != 0 { return bytes < 0 ? .less : .greater }
        return aCount < bCount ? .less : aCount > bCount ? .greater : .equal
    }
}
