/// Values between Sluice and PostgreSQL's text forms: parameters and results of the
/// engine's statements (`ColumnValue`), and the rows of `COPY … FROM STDIN` (`CopyText`).
///
/// Results are read back as the engine made its values (`docs/postgresql.md`, types): a
/// boolean as 1 or 0, a timestamptz as ISO 8601 UTC text (the session's time zone is UTC), a
/// bytea as its bytes, numbers as numbers, anything else as text.
enum PostgresValues {
    /// `pg_type` oids of the types read back as something other than text.
    private enum Oid {
        static let bool: UInt32 = 16, bytea: UInt32 = 17, int8: UInt32 = 20, int2: UInt32 = 21, int4: UInt32 = 23
        static let float4: UInt32 = 700, float8: UInt32 = 701, timestamptz: UInt32 = 1184
    }

    /// A parameter in text form; nil for NULL.
    static func parameter(_ value: ColumnValue) -> String? {
        switch value {
        case .null: return nil
        case .integer(let number): return String(number)
        case .real(let number): return String(number)
        case .text(let text): return text
        case .blob(let bytes): return "\\x" + hex(bytes)
        }
    }

    /// The value at `row`, `column` of `result`.
    static func value(_ result: PostgresResult, _ row: Int, _ column: Int) -> ColumnValue {
        if result.isNull(row, column) { return .null }
        let text = result.text(row, column)
        switch result.type(column) {
        case Oid.int8, Oid.int2, Oid.int4: return Int64(text).map(ColumnValue.integer) ?? .text(text)
        case Oid.bool: return .integer(text == "t" ? 1 : 0)
        case Oid.float4, Oid.float8: return Double(text).map(ColumnValue.real) ?? .text(text)
        case Oid.bytea: return .blob(unhex(text.utf8.dropFirst(2)))
        case Oid.timestamptz: return .text(iso8601(text))
        default: return .text(text)
        }
    }

    /// `2024-01-05 09:30:00.125+00` (UTC, as the session prints) → `2024-01-05T09:30:00.125Z`,
    /// the form Sluice converts dates to for PostgreSQL (`ValueEncoding.postgreSQL`): no
    /// fraction when zero, three digits when whole milliseconds, else six.
    static func iso8601(_ text: String) -> String {
        var utf8 = Array(text.utf8)
        if utf8.count > 3, utf8[utf8.count - 3] == UInt8(ascii: "+"), utf8.suffix(2) == [48, 48] { utf8.removeLast(3) }
        guard utf8.count >= 19, utf8[10] == UInt8(ascii: " ") else { return text }
        utf8[10] = UInt8(ascii: "T")
        var result = Array(utf8[..<19])
        if utf8.count > 20, utf8[19] == UInt8(ascii: ".") {
            var fraction = Array(utf8[20...].prefix(6))
            while fraction.count < 6 { fraction.append(48) }
            if fraction.suffix(3) == [48, 48, 48] { fraction.removeLast(3) }
            if fraction != [48, 48, 48] { result += [UInt8(ascii: ".")] + fraction }
        }
        return String(decoding: result + [UInt8(ascii: "Z")], as: UTF8.self)
    }

    static func hex(_ bytes: some Sequence<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 15)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    static func unhex(_ text: some Sequence<UInt8>) -> [UInt8] {
        func digit(_ c: UInt8) -> UInt8 {
            switch c {
            case 48...57: return c - 48
            case 97...102: return c - 87
            default: return c - 55
            }
        }
        var bytes: [UInt8] = []
        var high: UInt8?
        for c in text {
            if let h = high { bytes.append(h << 4 | digit(c)); high = nil } else { high = digit(c) }
        }
        return bytes
    }
}

/// Rows in `COPY`'s text format: fields separated by tabs, rows ended by newlines, `\N` for
/// NULL, and backslash, tab, newline and carriage return escaped in text.
struct CopyText {
    private(set) var bytes: [UInt8] = []
    private var fieldsInRow = 0

    var isEmpty: Bool { bytes.isEmpty }

    mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
        fieldsInRow = 0
    }

    mutating func endRow() {
        bytes.append(UInt8(ascii: "\n"))
        fieldsInRow = 0
    }

    private mutating func separate() {
        if fieldsInRow > 0 { bytes.append(UInt8(ascii: "\t")) }
        fieldsInRow += 1
    }

    mutating func appendNull() {
        separate()
        bytes += [UInt8(ascii: "\\"), UInt8(ascii: "N")]
    }

    mutating func append(_ number: Int64) {
        separate()
        bytes += String(number).utf8
    }

    /// A cell (bytes in `arena`); a missing one is NULL.
    mutating func append(_ cell: Cell, in arena: UnsafeRawBufferPointer) {
        switch cell.kind {
        case .missing, .null: appendNull()
        case .integer: append(cell.integer)
        case .real:
            separate()
            bytes += String(cell.real).utf8
        case .text:
            separate()
            appendEscaped(cell.bytes(in: arena))
        case .blob:
            separate()
            bytes += [UInt8(ascii: "\\"), UInt8(ascii: "\\"), UInt8(ascii: "x")]
            bytes += PostgresValues.hex(cell.bytes(in: arena)).utf8
        }
    }

    mutating func append(_ value: ColumnValue) {
        switch value {
        case .null: appendNull()
        case .integer(let number): append(number)
        case .real(let number):
            separate()
            bytes += String(number).utf8
        case .text(let text):
            separate()
            appendEscaped(text.utf8)
        case .blob(let blob):
            separate()
            bytes += [UInt8(ascii: "\\"), UInt8(ascii: "\\"), UInt8(ascii: "x")]
            bytes += PostgresValues.hex(blob).utf8
        }
    }

    private mutating func appendEscaped(_ text: some Sequence<UInt8>) {
        for byte in text {
            switch byte {
            case UInt8(ascii: "\\"): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
            case UInt8(ascii: "\t"): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
            case UInt8(ascii: "\n"): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            case UInt8(ascii: "\r"): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
            default: bytes.append(byte)
            }
        }
    }
}

/// A one-dimensional array in PostgreSQL's text form (`{1,"a b",NULL}`), built element by
/// element: one column of the rows an `UPDATE … FROM unnest(…)` sets, passed as a parameter.
/// Each element is read by its type's input function, as a `COPY` in text form reads a field.
struct ArrayText {
    private var bytes: [UInt8] = [UInt8(ascii: "{")]

    private mutating func separate() {
        if bytes.count > 1 { bytes.append(UInt8(ascii: ",")) }
    }

    mutating func append(_ number: Int64) {
        separate()
        bytes += String(number).utf8
    }

    /// A cell (bytes in `arena`); a missing one is NULL.
    mutating func append(_ cell: Cell, in arena: UnsafeRawBufferPointer) {
        switch cell.kind {
        case .missing, .null:
            separate()
            bytes += "NULL".utf8
        case .integer: append(cell.integer)
        case .real: appendQuoted(String(cell.real).utf8)
        case .text: appendQuoted(cell.bytes(in: arena))
        case .blob: appendQuoted(Array("\\x".utf8) + Array(PostgresValues.hex(cell.bytes(in: arena)).utf8))
        }
    }

    /// In double quotes, which take any text (`NULL`, spaces, commas, braces), a `"` or `\`
    /// escaped with a backslash.
    private mutating func appendQuoted(_ text: some Sequence<UInt8>) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        for byte in text {
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { bytes.append(UInt8(ascii: "\\")) }
            bytes.append(byte)
        }
        bytes.append(UInt8(ascii: "\""))
    }

    var text: String { String(decoding: bytes + [UInt8(ascii: "}")], as: UTF8.self) }
}
