/// Rows in `COPY`'s binary format (`COPY … FROM STDIN (FORMAT binary)`), for tables whose
/// columns are all of the types whose binary form is simple: `bigint`, `double precision`,
/// `text`, `boolean` and `bytea`. The server then reads numbers as they are instead of
/// parsing their digits, which is most of what a `COPY` of numeric columns costs it.
///
/// A cell that does not fit its column's binary form (a blob in a `bigint` column) makes
/// `append` return false: the caller writes that batch in text form instead, where the
/// server's own conversion decides.
struct CopyBinary {
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

    private(set) var bytes: [UInt8] = []

    /// The signature, no flags, no header extension.
    private static let header: [UInt8] = Array("PGCOPY\n".utf8) + [0xFF, 0x0D, 0x0A, 0x00] + [0, 0, 0, 0] + [0, 0, 0, 0]

    mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
        bytes += Self.header
    }

    /// After the last row.
    mutating func finish() {
        bytes += [0xFF, 0xFF]
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

    /// A cell as a field of a `type` column; false when it does not fit that column.
    mutating func append(_ cell: Cell, as type: ColumnType, in arena: UnsafeRawBufferPointer) -> Bool {
        switch (cell.kind, type) {
        case (.missing, _), (.null, _): appendNull()
        case (.integer, .bigint): append(cell.integer)
        case (.integer, .double): appendDouble(Double(cell.integer))
        case (.real, .double): appendDouble(cell.real)
        case (.integer, .boolean):
            append32(1)
            bytes.append(cell.integer == 0 ? 0 : 1)
        case (.text, .text), (.blob, .bytea): appendBytes(cell.bytes(in: arena))
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
        append32(UInt32(text.utf8.count))
        bytes += text.utf8
    }

    private mutating func appendBytes(_ field: UnsafeRawBufferPointer) {
        append32(UInt32(field.count))
        bytes.append(contentsOf: field)
    }

    private mutating func append16(_ value: UInt16) {
        bytes.append(UInt8(value >> 8))
        bytes.append(UInt8(value & 0xFF))
    }

    private mutating func append32(_ value: UInt32) {
        withUnsafeBytes(of: value.bigEndian) { bytes.append(contentsOf: $0) }
    }

    private mutating func append64(_ value: UInt64) {
        withUnsafeBytes(of: value.bigEndian) { bytes.append(contentsOf: $0) }
    }
}
