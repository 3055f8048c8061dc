/// Core Data's value encodings in its SQLite store, from the values Sluice's conversions
/// produce (`ValueConverter`): what a writer of Core Data's layout binds.
enum CoreDataValues {
    /// Seconds from 1970-01-01 to 2001-01-01, Core Data's reference date.
    static let referenceDateOffset: Int64 = 978_307_200

    /// A value as Sluice converts it for an attribute of Core Data type `attributeType`, as
    /// Core Data stores it: dates as seconds since 2001-01-01 (REAL), UUIDs as their 16 bytes,
    /// decimals as numbers, booleans 0/1; other values as they are. Nil when the value is not
    /// one Sluice's conversion makes for that type.
    static func encode(_ value: ColumnValue, attributeType: String) -> ColumnValue? {
        guard value != .null else { return .null }
        switch (attributeType, value) {
        case ("Date", .text(let text)):
            return date(fromSluiceText: text).map { .real($0) }
        case ("UUID", .text(let text)):
            return uuidBytes(fromText: text).map { .blob($0) }
        case ("Decimal", .text(let text)):
            return decimal(fromText: text)
        case ("Boolean", .integer(let number)):
            return .integer(number == 0 ? 0 : 1)
        case ("Date", _), ("UUID", _), ("Decimal", _), ("Boolean", _):
            return nil
        default:
            return value
        }
    }

    /// `YYYY-MM-DDTHH:MM:SSZ` or `YYYY-MM-DDTHH:MM:SS.sssZ` (Sluice's dates, UTC) as seconds
    /// since 2001-01-01T00:00:00Z; nil for any other text.
    static func date(fromSluiceText text: String) -> Double? {
        let bytes = Array(text.utf8)
        guard bytes.count == 20 || bytes.count == 24, bytes.last == UInt8(ascii: "Z") else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for index in range {
                guard bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int(bytes[index] - UInt8(ascii: "0"))
            }
            return value
        }
        let separators: [(Int, Character)] = [(4, "-"), (7, "-"), (10, "T"), (13, ":"), (16, ":")] + (bytes.count == 24 ? [(19, ".")] : [])
        guard separators.allSatisfy({ bytes[$0.0] == $0.1.asciiValue }),
              let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
              let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
              (1...12).contains(month), (1...CivilTime.daysInMonth(year: year, month: month)).contains(day),
              hour < 24, minute < 60, second < 60
        else { return nil }
        let milliseconds = bytes.count == 24 ? number(20..<23) : 0
        guard let milliseconds else { return nil }
        let seconds = CivilTime.daysFromCivil(year: year, month: month, day: day) * 86_400
            + Int64(hour * 3600 + minute * 60 + second) - referenceDateOffset
        // The double nearest to the exact instant (one rounding, not two).
        return Double(seconds * 1000 + Int64(milliseconds)) / 1000
    }

    /// The 16 bytes of a canonical UUID (8-4-4-4-12 hexadecimal digits, any case).
    static func uuidBytes(fromText text: String) -> [UInt8]? {
        let characters = Array(text.utf8)
        guard characters.count == 36, [8, 13, 18, 23].allSatisfy({ characters[$0] == UInt8(ascii: "-") }) else { return nil }
        var bytes: [UInt8] = []
        var pending: UInt8?
        for (index, character) in characters.enumerated() where ![8, 13, 18, 23].contains(index) {
            guard let digit = hexDigit(character) else { return nil }
            if let high = pending {
                bytes.append(high << 4 | digit)
                pending = nil
            } else {
                pending = digit
            }
        }
        return bytes
    }

    private static func hexDigit(_ character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return character - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return character - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return character - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    /// A decimal's text (`-12.50`, `3e2`) as Core Data stores an `NSDecimalNumber`: an integer
    /// when the value is whole and fits 64 bits, else the nearest double.
    static func decimal(fromText text: String) -> ColumnValue? {
        guard let double = Double(text), double.isFinite else { return nil }
        if let whole = wholeNumber(text) { return .integer(whole) }
        return .real(double)
    }

    /// The value of plain decimal text (`-12`, `5.000`) when it is whole and fits 64 bits.
    private static func wholeNumber(_ text: String) -> Int64? {
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let integer = parts.first, !integer.isEmpty, integer != "-", integer != "+",
              integer.dropFirst(integer.first == "-" || integer.first == "+" ? 1 : 0).allSatisfy({ $0.isASCII && $0.isNumber }),
              parts.count == 1 || parts[1].allSatisfy({ $0 == "0" })
        else { return nil }
        return Int64(integer.first == "+" ? integer.dropFirst() : integer)
    }
}
