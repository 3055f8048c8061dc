/// What the values seen at one place were, counted by JSON kind: the type lattice of
/// `sluice infer`, one per key (and one for the elements of the arrays at that key).
///
/// Counting, not remembering: the memory of a key does not grow with the sample. Strings are
/// also tested against the stricter types a model offers (`date`, `uuid`), through the same
/// converter an import uses, so a type proposed here is one the import accepts.
struct ValueKinds: Equatable {
    var nulls = 0
    var booleans = 0
    /// Plain digits (no fraction, no exponent) within 64 bits.
    var integers = 0
    /// Plain digits beyond 64 bits: exact only as `decimal`.
    var bigIntegers = 0
    /// A fraction or an exponent (`1.5`, `2.0`, `1e3`): the writer meant a real number.
    var reals = 0
    var strings = 0
    /// Strings that are ISO 8601 dates a `date` attribute stores without losing precision.
    var dateStrings = 0
    /// Strings that are canonical UUIDs.
    var uuidStrings = 0
    var objects = 0
    var arrays = 0

    var scalars: Int { booleans + integers + bigIntegers + reals + strings }
    var total: Int { nulls + scalars + objects + arrays }

    mutating func merge(_ other: ValueKinds) {
        nulls += other.nulls
        booleans += other.booleans
        integers += other.integers
        bigIntegers += other.bigIntegers
        reals += other.reals
        strings += other.strings
        dateStrings += other.dateStrings
        uuidStrings += other.uuidStrings
        objects += other.objects
        arrays += other.arrays
    }

    // MARK: Counting

    mutating func addNull() { nulls += 1 }
    mutating func addBool() { booleans += 1 }
    mutating func addObject() { objects += 1 }
    mutating func addArray() { arrays += 1 }

    /// A number, by its text exactly as written.
    mutating func addNumber(_ text: UnsafeRawBufferPointer) {
        switch Self.numberKind(text) {
        case .integer: integers += 1
        case .bigInteger: bigIntegers += 1
        case .real: reals += 1
        }
    }

    /// A string (decoded UTF-8). The date and UUID tests run only while every string so far
    /// passed them: one miss settles the key as text.
    mutating func addString(_ bytes: UnsafeRawBufferPointer) {
        if dateStrings == strings, Self.isLosslessDate(bytes) { dateStrings += 1 }
        if uuidStrings == strings, Self.isUUID(bytes) { uuidStrings += 1 }
        strings += 1
    }

    enum NumberKind { case integer, bigInteger, real }

    static func numberKind(_ text: UnsafeRawBufferPointer) -> NumberKind {
        var index = 0
        if index < text.count, text[index] == UInt8(ascii: "-") { index += 1 }
        let digitsStart = index
        while index < text.count, text[index] &- UInt8(ascii: "0") < 10 { index += 1 }
        guard index == text.count, index > digitsStart else { return .real }
        // Plain digits: within 64 bits? (Int64's parser needs no Foundation and no locale.)
        return Int64(String(decoding: text, as: UTF8.self)) != nil ? .integer : .bigInteger
    }

    private static let dateConverter = try! ValueConverter(type: .date)  // no dateFormat: cannot fail
    private static let uuidConverter = try! ValueConverter(type: .uuid)

    /// An ISO 8601 date or date-time (`docs/import-semantics.md` default format, so the model needs no
    /// `dateFormat`) whose fraction has at most six digits: every store keeps microseconds
    /// (PostgreSQL no more), and a starter model must not silently drop the rest.
    static func isLosslessDate(_ bytes: UnsafeRawBufferPointer) -> Bool {
        // Cheap refusal first: every ISO 8601 date starts with four digits and a dash.
        guard bytes.count >= 10, bytes[4] == UInt8(ascii: "-"),
              bytes[0..<4].allSatisfy({ $0 &- UInt8(ascii: "0") < 10 }) else { return false }
        guard (try? dateConverter.convert(.string(bytes))) != nil else { return false }
        return fractionDigits(bytes) <= 6
    }

    /// The digits after the seconds' `.` or `,` (0 when there is no fraction).
    private static func fractionDigits(_ bytes: UnsafeRawBufferPointer) -> Int {
        // The fraction follows `HH:MM:SS`, past the date's 10 bytes and the separator.
        guard bytes.count > 19, bytes[19] == UInt8(ascii: ".") || bytes[19] == UInt8(ascii: ",") else { return 0 }
        var count = 0
        var index = 20
        while index < bytes.count, bytes[index] &- UInt8(ascii: "0") < 10 {
            count += 1
            index += 1
        }
        return count
    }

    static func isUUID(_ bytes: UnsafeRawBufferPointer) -> Bool {
        bytes.count == 36 && (try? uuidConverter.convert(.string(bytes))) != nil
    }
}

extension ValueKinds {
    /// The attribute type these values import as without loss, and why, when the choice is
    /// a fallback (mixed kinds, or nothing but nulls). The lattice:
    ///
    /// * objects or arrays anywhere → `json` (it accepts every value);
    /// * only nulls → `string` (nothing to go by; the commonest optional field);
    /// * only strings → `date` if all are lossless ISO 8601 dates, `uuid` if all are UUIDs,
    ///   else `string`;
    /// * only booleans → `boolean`;
    /// * numbers (booleans allowed, as 1/0): all plain 64-bit integers → `integer`; any
    ///   integer beyond 64 bits → `decimal` (every digit kept; booleans would not convert, so
    ///   with booleans → `string`); any fraction or exponent → `double`;
    /// * strings mixed with numbers or booleans → `string` (a string attribute takes numbers
    ///   exactly as written and booleans as `true`/`false`).
    func attributeType() -> (type: AttributeType, reason: String?) {
        if objects > 0 || arrays > 0 {
            return (.json, scalars > 0 ? "objects or arrays mixed with scalars" : nil)
        }
        if scalars == 0 { return (.string, "only null in the sample") }
        if strings > 0 {
            if strings == scalars {
                if dateStrings == strings { return (.date, nil) }
                if uuidStrings == strings { return (.uuid, nil) }
                return (.string, nil)
            }
            return (.string, "strings mixed with \(nonStringKinds)")
        }
        let numbers = integers + bigIntegers + reals
        if numbers == 0 { return (.boolean, nil) }
        if bigIntegers > 0 {
            if booleans > 0 { return (.string, "integers beyond 64 bits mixed with booleans") }
            return (.decimal, nil)
        }
        if reals > 0 { return (.double, booleans > 0 ? "numbers mixed with booleans (read as 1/0)" : nil) }
        return (.integer, booleans > 0 ? "integers mixed with booleans (read as 1/0)" : nil)
    }

    private var nonStringKinds: String {
        var kinds: [String] = []
        if integers + bigIntegers + reals > 0 { kinds.append("numbers") }
        if booleans > 0 { kinds.append("booleans") }
        return kinds.joined(separator: " and ")
    }
}
