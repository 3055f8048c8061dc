/// A converted value as records and batches hold it: a plain 16-byte struct whose text or
/// blob bytes live in an arena (`CellArena`) next to it, never in a Swift `String`.
///
/// `ColumnValue` is the value as the rest of the library speaks it; on the per-value path
/// (slots, records, batches, binding) it costs an allocation or a reference count per text
/// and a generic copy per move. A cell is copied as bits, its bytes are appended to the
/// arena once, and SQLite reads them from there in place (`SQLITE_STATIC`).
///
/// In `Values/`, not in a layer: Mapping makes cells and Store binds and reads them, and
/// neither of those layers may depend on the other.
struct Cell: Sendable {
    enum Kind: UInt8, Sendable {
        /// Not mentioned by the record (a `nil` `ColumnValue?`).
        case missing
        case null
        case integer
        case real
        case text
        case blob
    }

    // In this order, so that a cell takes 16 bytes (kind first, it took 24).
    /// The integer, the double's bit pattern, or the bytes' offset in the arena.
    var bits: UInt64
    /// The bytes' length, for text and blobs.
    var count: Int32
    var kind: Kind

    static let missing = Cell(kind: .missing, bits: 0, count: 0)
    static let null = Cell(kind: .null, bits: 0, count: 0)

    static func integer(_ value: Int64) -> Cell { Cell(kind: .integer, bits: UInt64(bitPattern: value), count: 0) }
    static func real(_ value: Double) -> Cell { Cell(kind: .real, bits: value.bitPattern, count: 0) }

    /// Text or a blob: `bytes` appended to `arena`.
    static func bytes<Arena: CellArena & ~Copyable>(_ kind: Kind, _ bytes: UnsafeRawBufferPointer,
                                                     in arena: inout Arena) -> Cell {
        Cell(kind: kind, bits: UInt64(arena.append(cellBytes: bytes)), count: Int32(bytes.count))
    }

    /// A `ColumnValue` (nil: missing), its bytes appended to `arena`.
    init<Arena: CellArena & ~Copyable>(_ value: ColumnValue?, in arena: inout Arena) {
        switch value {
        case nil: self = .missing
        case .null?: self = .null
        case .integer(let number)?: self = .integer(number)
        case .real(let number)?: self = .real(number)
        case .text(var text)?: self = text.withUTF8 { Cell.bytes(.text, UnsafeRawBufferPointer($0), in: &arena) }
        case .blob(let bytes)?: self = bytes.withUnsafeBytes { Cell.bytes(.blob, $0, in: &arena) }
        }
    }

    private init(kind: Kind, bits: UInt64, count: Int32) {
        self.bits = bits
        self.count = count
        self.kind = kind
    }

    var isMissing: Bool { kind == .missing }
    var hasBytes: Bool { kind == .text || kind == .blob }
    var integer: Int64 { Int64(bitPattern: bits) }
    var real: Double { Double(bitPattern: bits) }
    var offset: Int { Int(bits) }

    /// The cell's bytes within `arena`.
    func bytes(in arena: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: arena[offset..<offset + Int(count)])
    }

    /// The same value with its bytes copied from `source` to the end of `arena`.
    func copied<Arena: CellArena & ~Copyable>(from source: UnsafeRawBufferPointer, to arena: inout Arena) -> Cell {
        guard hasBytes else { return self }
        return Cell.bytes(kind, bytes(in: source), in: &arena)
    }

    /// As a `ColumnValue` (nil when missing), reading bytes from `arena`.
    func columnValue(in arena: UnsafeRawBufferPointer) -> ColumnValue? {
        switch kind {
        case .missing: return nil
        case .null: return .null
        case .integer: return .integer(integer)
        case .real: return .real(real)
        case .text: return .text(String(decoding: bytes(in: arena), as: UTF8.self))
        case .blob: return .blob(Array(bytes(in: arena)))
        }
    }

    /// Whether the cell holds `value` (bytes read from `arena`), without allocating.
    func equals(_ value: ColumnValue, in arena: UnsafeRawBufferPointer) -> Bool {
        switch (kind, value) {
        case (.null, .null): return true
        case (.integer, .integer(let number)): return integer == number
        case (.real, .real(let number)): return real == number
        case (.text, .text(var text)):
            let mine = bytes(in: arena)
            return text.withUTF8 { theirs in
                theirs.count == mine.count && (mine.isEmpty || MemoryBytes.equal(mine.baseAddress!, theirs.baseAddress!, count: mine.count))
            }
        case (.blob, .blob(let other)):
            let mine = bytes(in: arena)
            return other.withUnsafeBytes { theirs in
                theirs.count == mine.count && (mine.isEmpty || MemoryBytes.equal(mine.baseAddress!, theirs.baseAddress!, count: mine.count))
            }
        default: return false
        }
    }

    /// Whether two cells hold the same value, each reading bytes from its own arena.
    func equals(_ other: Cell, in arena: UnsafeRawBufferPointer, otherArena: UnsafeRawBufferPointer) -> Bool {
        guard kind == other.kind else { return false }
        switch kind {
        case .missing, .null: return true
        case .integer: return bits == other.bits
        case .real: return real == other.real
        case .text, .blob:
            guard count == other.count else { return false }
            return count == 0 || MemoryBytes.equal(bytes(in: arena).baseAddress!, other.bytes(in: otherArena).baseAddress!, count: Int(count))
        }
    }
}
