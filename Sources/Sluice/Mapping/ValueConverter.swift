/// Converts JSON scalars to the column values of an attribute's type (`docs/database-layout.md`, `docs/import-semantics.md`).
///
/// `null` is `.null` for every type (the caller enforces `optional: false`). Otherwise:
///
/// * **string** ← strings; numbers as their JSON text exactly as written (`10248909829` →
///   `"10248909829"`, `1.50` → `"1.50"`); `true`/`false` → `"true"`/`"false"`.
/// * **integer** ← integral numbers within 64 bits, exactly (`12.0`, `1e3`, `-0` included;
///   digits are read from the text, never through `Double`); numeric strings the same way;
///   booleans → 1/0. A fraction (`1.5`), overflow, an empty string or junk is an error, never 0.
///   With `bits` 16 or 32 (Core Data's Integer 16 and 32), a value outside that signed range
///   is an error too, never truncated.
/// * **double** ← numbers and numeric strings; the result must be finite (`1e400` is an
///   error), and a nonzero number must not round to zero (`1e-400` is an error, never 0.0; a
///   subnormal such as `5e-324` is kept). Booleans → 1.0/0.0. Parsing is locale-independent.
/// * **decimal** ← numbers and numeric strings, stored as `.text` with the digits exactly as
///   written (`1.20` stays `"1.20"`). Booleans are an error. With `canonical` (an attribute
///   records are matched by: an identity, a `relatedBy`), the text is the one spelling of the
///   value instead (`NumberText.canonicalDecimal`: `1.0`, `1.00` and `1` are `"1"`), so that
///   spellings of one value are one identity on every store and at every batch size; one
///   longer than `canonicalDecimalLimit` bytes written out is an error.
/// * **boolean** ← `true`/`false`; numbers: zero in any spelling (`0`, `-0`, `0.0`, `0e5`) is
///   false, any other number true; strings `true yes y t 1` / `false no n f 0` in any letter
///   case. Stored as `.integer(1)`/`.integer(0)`.
/// * **date** → `.text` `YYYY-MM-DDTHH:MM:SSZ`, or `YYYY-MM-DDTHH:MM:SS.sssZ` when the
///   milliseconds are not zero, in UTC. Strings: without `dateFormat`, ISO 8601 (see
///   `ISO8601`); with a pattern, as `DatePattern` documents. Numbers are Unix seconds
///   (fractions allowed, truncated to milliseconds) for every `dateFormat` except `unix-ms`
///   (alias `UnixTime`), which means milliseconds; `unix` and `unix-ms` also accept numeric
///   strings. Month, day (leap years included), hour, minute and second are range-checked;
///   only the years 0000…9999 (in UTC) exist. Booleans are an error.
/// * **uuid** ← canonical 8-4-4-4-12 UUID strings in any case → lowercase `.text`.
/// * **binary** ← base64 strings (see `Base64Decoding`) → `.blob`.
/// * **json** ← any value: a string → its compact JSON encoding (quoted, escaped), a number →
///   its raw text, a boolean → `true`/`false`, all as `.text`; with `canonical`, a number in its
///   value's one spelling (`CanonicalJSON`). Objects and arrays are written by
///   `JSONTextWriter` and never reach a converter (the assembler makes them canonical).
///
/// With `encoding` `.coreData` (`--layout coredata`, `docs/coredata-store.md#values`) the
/// values are Core Data's instead: a date is seconds since 2001-01-01T00:00:00Z (`.integer`
/// when whole, as SQLite keeps them in Core Data's TIMESTAMP columns, else `.real`), a
/// uuid its 16 bytes (`.blob`), a decimal a number (`.integer` when whole and within 64 bits,
/// else the nearest `.real`; one beyond the double range is an error), and a json value (a
/// Transformable attribute's) the keyed archive Core Data's default value transformers read
/// (`KeyedArchive`, a `.blob`), or, for a transformer of the app's own (`customTransformer`),
/// an error: only the app can write its archive. The other types are stored alike.
///
/// Decided details: a string given to a number is read as text writers write numbers
/// (`NumberText.written`: `"007"`, `"+5"`, `".5"`, `" 42 "` too; no hex, `inf`, `nan`,
/// `1,000`), and one given to a boolean or date without its spaces and tabs at either end;
/// a number given to a `uuid` or `binary` attribute is an error; `dateFormat` is accepted for
/// `date` attributes only.
///
/// A converter is built once per attribute (the `dateFormat` is compiled then) and called per
/// value on the hot path: conversions to integer, double, boolean and decimal validation
/// allocate nothing (a double parses through a small, inline `String`); nothing here uses
/// Foundation. `convert(_: JSONValue)` (in `ValueConverter+JSONValue.swift`) converts values
/// held in memory, such as a model's `default`, the same way.
struct ValueConverter: Sendable {
    let type: AttributeType
    /// The signed width an integer attribute's values must fit: 16, 32 or 64. One byte beside
    /// `type`, so that the converter keeps its size: a larger one is copied, with a retain of
    /// `dateInput`, each time the hot path converts a value.
    let bits: UInt8
    /// A decimal's or json value's text is its value's one spelling (see above); in the
    /// padding beside `bits`.
    let canonical: Bool
    /// How the store keeps dates, uuids, decimals and json values; in the padding too.
    let encoding: ValueEncoding
    /// A json value goes through a value transformer of the app's own in Core Data's store
    /// (`Model.Attribute.customTransformer`): a value is an error. In the padding too.
    let customTransformer: Bool
    let dateInput: DateInput

    /// The longest canonical decimal, in bytes.
    static let canonicalDecimalLimit = 1_000

    init(type: AttributeType, dateFormat: String? = nil, bits: Int? = nil, canonical: Bool = false,
         encoding: ValueEncoding = .sluice, customTransformer: Bool = false) throws(ConversionError) {
        if dateFormat != nil && type != .date {
            throw ConversionError("dateFormat applies only to date attributes, not \(type.rawValue)")
        }
        if let bits {
            guard type == .integer else { throw ConversionError("bits applies only to integer attributes, not \(type.rawValue)") }
            guard Model.Attribute.integerWidths.contains(bits) else {
                throw ConversionError("bits must be 16, 32 or 64, not \(bits)")
            }
        }
        self.type = type
        self.bits = UInt8(bits ?? 64)
        self.canonical = canonical && (type == .decimal || type == .json)
        self.encoding = encoding
        self.customTransformer = customTransformer && type == .json
        self.dateInput = try DateInput(dateFormat: dateFormat)
    }

    func convert(_ scalar: Scalar) throws(ConversionError) -> ColumnValue {
        if case .null = scalar { return .null }
        switch type {
        case .string: return toString(scalar)
        case .integer: return try toInteger(scalar)
        case .double: return try toDouble(scalar)
        case .decimal: return try toDecimal(scalar)
        case .boolean: return try toBoolean(scalar)
        case .date: return try toDate(scalar)
        case .uuid: return try toUUID(scalar)
        case .binary: return try toBinary(scalar)
        case .json:
            // In Core Data's store only a transformable attribute is `json` (`CoreDataConversion`).
            guard encoding == .coreData else { return toJSON(scalar) }
            return try archived(JSONValue(scalar))
        }
    }

    /// Converts into a `Cell` for the converter `converter` points to, text and blob bytes
    /// appended to `arena`. Strings, integers and doubles (most values) take a path that makes
    /// no `String` nor `ColumnValue` and reads only the converter's type and width: a method
    /// called on a converter in a buffer copied it, with a retain of its `dateInput`, for every
    /// value. The other types convert through `convert(_:)`.
    static func convert(_ converter: UnsafePointer<ValueConverter>, _ scalar: Scalar,
                        into arena: inout ByteArena) throws(ConversionError) -> Cell {
        switch (converter.pointee.type, scalar) {
        case (_, .null):
            return .null
        case (.string, .string(let bytes)), (.string, .number(let bytes)):
            return Cell.bytes(.text, bytes, in: &arena)
        case (.integer, .number(let bytes)), (.integer, .string(let bytes)):
            return .integer(try integer(scalar, bytes, bits: converter.pointee.bits))
        case (.double, .number(let bytes)), (.double, .string(let bytes)):
            return .real(try double(scalar, bytes))
        default:
            return try converter.pointee.convertThroughValue(scalar, into: &arena)
        }
    }

    /// The other types, out of line so that the common ones above stay small enough to inline;
    /// every type through `convert(_:)`, the general path (`FastPaths`).
    @inline(never)
    func convertThroughValue(_ scalar: Scalar, into arena: inout ByteArena) throws(ConversionError) -> Cell {
        switch try convert(scalar) {
        case .integer(let number): return .integer(number)
        case .real(let number): return .real(number)
        case let value: return Cell(value, in: &arena)
        }
    }

    private func fail(_ scalar: Scalar, _ reason: String? = nil) -> ConversionError {
        ConversionError.cannotConvert(scalar, to: type, reason)
    }

    // MARK: - Per type

    private func toString(_ scalar: Scalar) -> ColumnValue {
        switch scalar {
        case .null: return .null
        case .bool(let value): return .text(value ? "true" : "false")
        case .number(let bytes), .string(let bytes): return .text(String(decoding: bytes, as: UTF8.self))
        }
    }

    private func toInteger(_ scalar: Scalar) throws(ConversionError) -> ColumnValue {
        switch scalar {
        case .null: return .null
        case .bool(let value): return .integer(value ? 1 : 0)
        case .number(let bytes), .string(let bytes): return .integer(try Self.integer(scalar, bytes, bits: bits))
        }
    }

    /// A number's or numeric string's bytes as an integer of the attribute's width.
    @inline(__always)  // forced: docs/performance.md#forced-inlining
    private static func integer(_ scalar: Scalar, _ bytes: UnsafeRawBufferPointer, bits: UInt8) throws(ConversionError)
        -> Int64
    {
        let value = try integer64(scalar, bytes)
        if bits < 64 { try ValueConverter.checkWidth(value, bits: bits, scalar) }
        return value
    }

    /// Out of line, and static so that the hot path above passes plain values (a method would
    /// take the whole converter, copying it): only Integer 16 and 32 attributes get here.
    @inline(never)
    private static func checkWidth(_ value: Int64, bits: UInt8, _ scalar: Scalar) throws(ConversionError) {
        let limit = Int64(1) << (bits - 1)
        guard value >= -limit && value < limit else {
            throw ConversionError.cannotConvert(scalar, to: .integer, "out of the \(bits)-bit range (\(-limit)…\(limit - 1))")
        }
    }

    /// A short plain number inline (most are), anything else out of line.
    @inline(__always)  // forced: docs/performance.md#forced-inlining
    static func integer64(_ scalar: Scalar, _ bytes: UnsafeRawBufferPointer) throws(ConversionError) -> Int64 {
        if let short = NumberText.short(bytes), short.fractionCount == 0 {
            return short.negative ? -Int64(short.digits) : Int64(short.digits)
        }
        return try integer64InGeneral(scalar, bytes)
    }

    @inline(never)
    static func integer64InGeneral(_ scalar: Scalar, _ bytes: UnsafeRawBufferPointer) throws(ConversionError)
        -> Int64
    {
        guard let (number, text) = number(scalar, bytes) else { throw .cannotConvert(scalar, to: .integer) }
        switch number.integer(in: text) {
        case .value(let value): return value
        case .notIntegral: throw .cannotConvert(scalar, to: .integer, "not a whole number")
        case .outOfRange: throw .cannotConvert(scalar, to: .integer, "out of the 64-bit range")
        }
    }

    private func toDouble(_ scalar: Scalar) throws(ConversionError) -> ColumnValue {
        switch scalar {
        case .null: return .null
        case .bool(let value): return .real(value ? 1 : 0)
        case .number(let bytes), .string(let bytes): return .real(try Self.double(scalar, bytes))
        }
    }

    /// A number's or numeric string's bytes as a finite double: a short plain number inline
    /// (most are), anything else out of line.
    @inline(__always)  // forced: docs/performance.md#forced-inlining
    static func double(_ scalar: Scalar, _ bytes: UnsafeRawBufferPointer) throws(ConversionError) -> Double {
        if let short = NumberText.short(bytes) {
            return NumberText.double(digits: short.digits, fractionCount: short.fractionCount, negative: short.negative)
        }
        return try doubleInGeneral(scalar, bytes)
    }

    @inline(never)
    static func doubleInGeneral(_ scalar: Scalar, _ bytes: UnsafeRawBufferPointer) throws(ConversionError)
        -> Double
    {
        guard let (number, text) = number(scalar, bytes) else { throw .cannotConvert(scalar, to: .double) }
        if let value = number.exactDouble(in: text) { return value }
        guard let value = parsedDouble(number, text), value.isFinite else {
            throw .cannotConvert(scalar, to: .double, "out of the double range")
        }
        // Checked only here, where the value came out 0: an underflow would merge with a real 0.
        if value == 0, !number.isZero(in: text) {
            throw .cannotConvert(scalar, to: .double, "too close to zero for a double (it would be stored as 0)")
        }
        return value
    }

    /// A scalar's number and the bytes its ranges index: a JSON number's by the JSON grammar, a
    /// string's as text writers write numbers (`NumberText.written`), without blanks at its ends.
    static func number(_ scalar: Scalar, _ bytes: UnsafeRawBufferPointer)
        -> (number: NumberText, text: UnsafeRawBufferPointer)? {
        if case .string = scalar { return NumberText.written(bytes) }
        return NumberText(bytes).map { ($0, bytes) }
    }

    /// The text's double, through the standard library's correctly rounded parser (locale-
    /// independent; strings of at most 15 bytes are stored inline, unallocated), in the JSON
    /// grammar when the text is not (`+5`, `.5`).
    private static func parsedDouble(_ number: NumberText, _ text: UnsafeRawBufferPointer) -> Double? {
        Double(String(decoding: text, as: UTF8.self)) ?? Double(number.jsonText(in: text))
    }

    private func toDecimal(_ scalar: Scalar) throws(ConversionError) -> ColumnValue {
        switch scalar {
        case .null: return .null
        case .bool: throw fail(scalar)
        case .number(let bytes), .string(let bytes):
            guard let (number, written) = Self.number(scalar, bytes) else { throw fail(scalar) }
            if encoding == .coreData { return try coreDataDecimal(scalar, number, written) }
            // Digits as written, in the JSON grammar's spelling: `007.50` is `7.50`, `+.5` `0.5`.
            guard canonical else {
                return .text(NumberText(written) != nil ? String(decoding: written, as: UTF8.self) : number.jsonText(in: written))
            }
            guard let text = number.canonicalDecimal(in: written, maxLength: Self.canonicalDecimalLimit) else {
                throw fail(scalar, "over \(Self.canonicalDecimalLimit) digits written out, too long to match as an identity")
            }
            return .text(text)
        }
    }

    private func toBoolean(_ scalar: Scalar) throws(ConversionError) -> ColumnValue {
        switch scalar {
        case .null: return .null
        case .bool(let value): return .integer(value ? 1 : 0)
        case .number(let bytes):
            guard let number = NumberText(bytes) else { throw fail(scalar) }
            return .integer(number.isZero(in: bytes) ? 0 : 1)
        case .string(let bytes):
            guard let value = ValueConverter.booleanWord(bytes.trimmingBlanks()) else { throw fail(scalar) }
            return .integer(value ? 1 : 0)
        }
    }

    /// `true yes y t 1` → true, `false no n f 0` → false, in any letter case; else nil.
    private static func booleanWord(_ bytes: UnsafeRawBufferPointer) -> Bool? {
        // Longest word is 5 bytes: pack the lowercased bytes into an integer and compare.
        guard (1...5).contains(bytes.count) else { return nil }
        var packed: UInt64 = 0
        for byte in bytes {
            let lower = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
            packed = packed << 8 | UInt64(lower)
        }
        switch packed {
        case pack("true"), pack("yes"), pack("y"), pack("t"), pack("1"): return true
        case pack("false"), pack("no"), pack("n"), pack("f"), pack("0"): return false
        default: return nil
        }
    }

    private static func pack(_ word: StaticString) -> UInt64 {
        var packed: UInt64 = 0
        for index in 0..<word.utf8CodeUnitCount { packed = packed << 8 | UInt64(word.utf8Start[index]) }
        return packed
    }

    private func toDate(_ scalar: Scalar) throws(ConversionError) -> ColumnValue {
        let instant: Instant
        switch scalar {
        case .null: return .null
        case .bool: throw fail(scalar)
        case .number(let bytes):
            instant = try unixInstant(scalar, bytes, milliseconds: dateInput.isMilliseconds)
        case .string(let padded):
            let bytes = padded.trimmingBlanks()
            switch dateInput {
            case .unixSeconds: instant = try unixInstant(scalar, bytes, milliseconds: false)
            case .unixMilliseconds: instant = try unixInstant(scalar, bytes, milliseconds: true)
            case .iso8601, .pattern:
                do throws(DateFailure) {
                    if case .pattern(let pattern) = dateInput {
                        instant = try pattern.instant(bytes)
                    } else {
                        instant = try ISO8601.instant(bytes)
                    }
                } catch {
                    throw fail(scalar, error.reason)
                }
            }
        }
        let rounded: (seconds: Int64, nanoseconds: Int)
        switch encoding {
        case .coreData: return instant.coreDataValue()
        case .sluice: rounded = instant.roundedToNanoseconds()
        case .postgreSQL: rounded = instant.roundedToMicrosecondsAsPostgreSQL()
        }
        // Rounding up may carry past 9999-12-31T23:59:59.
        guard rounded.seconds <= CivilTime.latest else { throw fail(scalar, "outside the years 0000…9999") }
        return .text(CivilTime.iso8601(seconds: rounded.seconds, nanoseconds: rounded.nanoseconds))
    }

    /// A decimal as Core Data keeps an `NSDecimalNumber` in SQLite: whole and within 64 bits,
    /// an integer; else the nearest double, which must be finite.
    private func coreDataDecimal(_ scalar: Scalar, _ number: NumberText, _ bytes: UnsafeRawBufferPointer)
        throws(ConversionError) -> ColumnValue {
        if case .value(let whole) = number.integer(in: bytes) { return .integer(whole) }
        if let value = number.exactDouble(in: bytes) { return .real(value) }
        guard let value = Self.parsedDouble(number, bytes), value.isFinite else {
            throw fail(scalar, "out of the range Core Data's store keeps a decimal in (a double)")
        }
        return .real(value)
    }

    private func unixInstant(_ scalar: Scalar, _ bytes: UnsafeRawBufferPointer, milliseconds: Bool)
        throws(ConversionError) -> Instant {
        guard let (number, text) = Self.number(scalar, bytes) else {
            throw fail(scalar, milliseconds ? "not Unix milliseconds" : "not Unix seconds")
        }
        guard let instant = Instant(unix: number, in: text, milliseconds: milliseconds), instant.isWithinCivilRange else {
            throw fail(scalar, "outside the years 0000…9999")
        }
        return instant
    }

    private func toUUID(_ scalar: Scalar) throws(ConversionError) -> ColumnValue {
        guard case .string(let bytes) = scalar, let text = UUIDText.lowercased(bytes) else {
            if case .null = scalar { return .null }
            throw fail(scalar)
        }
        guard encoding == .coreData else { return .text(text) }
        return .blob(UUIDText.bytes(ofLowercased: text))
    }

    private func toBinary(_ scalar: Scalar) throws(ConversionError) -> ColumnValue {
        guard case .string(let bytes) = scalar else {
            if case .null = scalar { return .null }
            throw fail(scalar)
        }
        guard let data = Base64Decoding.decode(bytes) else { throw fail(scalar, "not base64") }
        return .blob(data)
    }

    /// A Transformable attribute's value in Core Data's store: the keyed archive of Core Data's
    /// default value transformers, or an error for a transformer of the app's own.
    func archived(_ value: JSONValue) throws(ConversionError) -> ColumnValue {
        guard !customTransformer else { throw .transformable }
        return .blob(try KeyedArchive.archive(value))
    }

    private func toJSON(_ scalar: Scalar) -> ColumnValue {
        switch scalar {
        case .null: return .null
        case .bool(let value): return .text(value ? "true" : "false")
        case .number(let bytes): return .text((canonical ? CanonicalJSON.number(bytes) : nil) ?? String(decoding: bytes, as: UTF8.self))
        case .string(let bytes): return .text(JSONEscaping.quotedString(bytes))
        }
    }
}

extension DateInput {
    /// Whether numbers mean Unix milliseconds rather than seconds.
    var isMilliseconds: Bool {
        if case .unixMilliseconds = self { return true }
        return false
    }
}
