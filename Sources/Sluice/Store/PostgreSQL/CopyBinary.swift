/// Rows in `COPY`'s binary format (`COPY … FROM STDIN (FORMAT binary)`), for tables whose
/// columns are all of the types whose binary form is simple: `bigint`, `double precision`,
/// `text`, `boolean` and `bytea`. The server then reads numbers as they are instead of
/// parsing their digits, which is most of what a `COPY` of numeric columns costs it.
///
/// A cell that does not fit its column's binary form (a blob in a `bigint` column) makes
/// `append` return false: the caller writes that batch in text form instead, where the
/// server's own conversion decides.
///
/// The bytes are a `ByteArena`: a batch's rows are appended field by field, and an array's
/// uniqueness check and generic append cost more than the copying.
struct CopyBinary: ~Copyable {
    /// The column types this format writes; anything else is written as text (`CopyText`).
    enum ColumnType {
        case bigint, double, text, boolean, bytea

        init?(postgresType: String) {
            switch postgresType {
            case "bigint": self = .bigint
            case "double precision": self = .double
            case "text": self = .text
            case "boolean": self = .boolean
            case "bytea": self = .bytea
            default: return nil
            }
        }
    }

    private var arena = ByteArena(capacity: 1 << 16)

    /// The rows so far, valid until the next change.
    var bytes: UnsafeRawBufferPointer { arena.bytes }

    /// The signature, no flags, no header extension.
    private static let header: [UInt8] = Array("PGCOPY\n".utf8) + [0xFF, 0x0D, 0x0A, 0x00] + [0, 0, 0, 0] + [0, 0, 0, 0]

    mutating func removeAll() {
        arena.removeAll()
        Self.header.withUnsafeBytes { arena.append($0) }
    }

    /// After the last row.
    mutating func finish() {
        append16(0xFFFF)
    }

    mutating func beginRow(fields: Int) {
        append16(UInt16(fields))
    }

    mutating func appendNull() {
        append32(UInt32(bitPattern: -1))
    }

    mutating func append(_ number: Int64) {
        append32(8)
        append64(UInt64(bitPattern: number))
    }

    /// A `bigint` field whose value is not known yet: returns where `set(_:at:)` writes it.
    mutating func appendPlaceholder() -> Int {
        append32(8)
        let offset = arena.count
        append64(0)
        return offset
    }

    /// The value of the field `appendPlaceholder()` left at `offset`.
    mutating func set(_ number: Int64, at offset: Int) {
        withUnsafeBytes(of: UInt64(bitPattern: number).bigEndian) { arena.overwrite(at: offset, with: $0) }
    }

    /// Each of `numbers` into the placeholder at the same place in `offsets`.
    mutating func set(_ numbers: [Int64], at offsets: [Int]) {
        precondition(numbers.count == offsets.count, "a number for each placeholder")
        for (number, offset) in zip(numbers, offsets) { set(number, at: offset) }
    }

    /// A cell as a field of a `type` column; false when it does not fit that column.
    mutating func append(_ cell: Cell, as type: ColumnType, in source: UnsafeRawBufferPointer) -> Bool {
        switch (cell.kind, type) {
        case (.missing, _), (.null, _): appendNull()
        case (.integer, .bigint): append(cell.integer)
        case (.integer, .double): appendDouble(Double(cell.integer))
        case (.real, .double): appendDouble(cell.real)
        case (.integer, .boolean):
            append32(1)
            arena.append(byte: cell.integer == 0 ? 0 : 1)
        case (.text, .text), (.blob, .bytea): appendBytes(cell.bytes(in: source))
        // What `CopyText` would send for the server to read as text.
        case (.integer, .text): appendText(String(cell.integer))
        case (.real, .text): appendText(String(cell.real))
        default: return false
        }
        return true
    }

    private mutating func appendDouble(_ number: Double) {
        append32(8)
        append64(number.bitPattern)
    }

    private mutating func appendText(_ text: String) {
        var text = text
        text.withUTF8 { appendBytes(UnsafeRawBufferPointer($0)) }
    }

    private mutating func appendBytes(_ field: UnsafeRawBufferPointer) {
        append32(UInt32(field.count))
        arena.append(field)
    }

    private mutating func append16(_ value: UInt16) {
        withUnsafeBytes(of: value.bigEndian) { arena.append($0) }
    }

    private mutating func append32(_ value: UInt32) {
        withUnsafeBytes(of: value.bigEndian) { arena.append($0) }
    }

    private mutating func append64(_ value: UInt64) {
        withUnsafeBytes(of: value.bigEndian) { arena.append($0) }
    }
}
