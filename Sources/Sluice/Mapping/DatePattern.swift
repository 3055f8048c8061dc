/// How a `date` attribute reads its input: the attribute's `dateFormat` compiled once.
enum DateInput: Sendable {
    /// No `dateFormat`: ISO 8601 strings; numbers are Unix seconds.
    case iso8601
    /// `unix`: Unix seconds, from numbers and numeric strings.
    case unixSeconds
    /// `unix-ms` or `UnixTime`: Unix milliseconds, from numbers and numeric strings.
    case unixMilliseconds
    /// Any other `dateFormat`: a Unicode (NSDateFormatter) pattern; numbers are Unix seconds.
    case pattern(DatePattern)

    /// Compiles a `dateFormat`; the names `unix`, `unix-ms` and `UnixTime` are matched in
    /// any letter case.
    init(dateFormat: String?) throws(ConversionError) {
        guard let dateFormat else {
            self = .iso8601
            return
        }
        switch dateFormat.lowercased() {
        case "unix": self = .unixSeconds
        case "unix-ms", "unixtime": self = .unixMilliseconds
        default: self = .pattern(try DatePattern(dateFormat))
        }
    }
}

/// ISO 8601 as `docs/import-semantics.md` accepts it: `YYYY-MM-DD`, optionally followed by `T` (or `t` or a
/// space), `HH:MM`, optionally `:SS`, optionally a fraction after `.` or `,` (any number of
/// digits, kept to the 18th, `Instant`), then optionally a zone `Z` (or `z`), `±hh:mm`, `±hhmm`
/// or `±hh`; no zone means UTC. A date alone has no zone. Also a date alone in the basic
/// format, `YYYYMMDD` (GTFS's dates): eight digits, which a string never means as Unix seconds
/// (only a number does, or a `dateFormat` of `unix`). Nothing else (no week dates, no
/// ordinal dates, no basic date and time, no whitespace: the converter drops it at the ends).
enum ISO8601 {
    static func instant(_ bytes: UnsafeRawBufferPointer) throws(DateFailure) -> Instant {
        var cursor = DateCursor(bytes)
        var fields = DateFields()
        if bytes.count == 8, let basic = cursor.digits(minimum: 8, maximum: 8) {
            fields.year = basic.value / 10_000
            fields.month = basic.value / 100 % 100
            fields.day = basic.value % 100
            return try fields.instant()
        }
        guard let year = cursor.digits(minimum: 4, maximum: 4), cursor.take(UInt8(ascii: "-")),
              let month = cursor.digits(minimum: 2, maximum: 2), cursor.take(UInt8(ascii: "-")),
              let day = cursor.digits(minimum: 2, maximum: 2)
        else { throw notISO8601 }
        fields.year = year.value
        fields.month = month.value
        fields.day = day.value
        if !cursor.isAtEnd {
            guard cursor.take(UInt8(ascii: "T")) || cursor.take(UInt8(ascii: " ")) || cursor.take(UInt8(ascii: "t")),
                  let hour = cursor.digits(minimum: 2, maximum: 2), cursor.take(UInt8(ascii: ":")),
                  let minute = cursor.digits(minimum: 2, maximum: 2)
            else { throw notISO8601 }
            fields.hour = hour.value
            fields.minute = minute.value
            if cursor.take(UInt8(ascii: ":")) {
                guard let second = cursor.digits(minimum: 2, maximum: 2) else { throw notISO8601 }
                fields.second = second.value
                if cursor.take(UInt8(ascii: ".")) || cursor.take(UInt8(ascii: ",")) {
                    guard let fraction = cursor.fraction(minimum: 1, maximum: .max) else { throw notISO8601 }
                    fields.attoseconds = fraction
                }
            }
            if !cursor.isAtEnd {
                guard let offset = cursor.zone(names: false), cursor.isAtEnd else { throw notISO8601 }
                fields.offsetSeconds = offset
            }
        }
        return try fields.instant()
    }

    private static var notISO8601: DateFailure { DateFailure("not an ISO 8601 date") }
}

/// A `dateFormat` pattern compiled into tokens, then matched against each value.
///
/// Pattern letters (as NSDateFormatter reads them, in English, in UTC unless the text has a
/// zone):
/// * `y`, `yyy`, `yyyy`…: the year, 1–4 digits taken literally; `yy`: when exactly two
///   digits are read, 00–68 mean 2000–2068 and 69–99 mean 1969–1999 (the POSIX `%y` rule;
///   NSDateFormatter's sliding window depends on the current date, which an import must not).
/// * `M`, `MM` (and `L`, `LL`): month number, 1 or 2 digits. `MMM`, `MMMM` (`LLL`, `LLLL`):
///   English month name, abbreviated (`Jan`) or full (`January`), either accepted, any case.
/// * `d`, `dd`: day; `H`, `HH`: hour 0–23; `h`, `hh`: hour 1–12 with `a` (`AM`/`PM`, any
///   case; without `a` the hour is AM); `m`, `mm`: minute; `s`, `ss`: second. 1 or 2 digits.
/// * `S`…: fraction of a second, any number of digits, kept to the 18th (`Instant`).
/// * `Z`…, `X`…, `x`…: zone `Z`, `±hh`, `±hhmm` or `±hh:mm` (every count accepts every form);
///   `z`…: the same, or `GMT`/`UTC`/`UT` optionally followed by an offset.
/// * `E`…`EEEE`: English weekday name, abbreviated or full, read and ignored.
/// * `'text'`: literal text; `''` is a quote, inside or outside quotes.
/// * Every other ASCII letter is reserved, so the pattern is rejected; any other character
///   is a literal that must match exactly.
///
/// A numeric field directly followed by another numeric field (`yyyyMMdd`, `HHmmss`) reads
/// exactly as many digits as its letter count. Fields the pattern lacks default to
/// 1970-01-01T00:00:00 UTC. The whole text must match.
struct DatePattern: Sendable {
    /// The pattern as written, for messages.
    let text: String
    let tokens: [Token]

    enum Field: Sendable { case year, twoDigitYear, month, day, hour, hour12, minute, second }

    enum Token: Sendable, Equatable {
        case literal([UInt8])
        /// A number of `minimum...maximum` digits.
        case number(Field, minimum: Int, maximum: Int)
        case fraction(minimum: Int, maximum: Int)
        case monthName
        case weekdayName
        case amPM
        case zone(names: Bool)
    }

    init(_ pattern: String) throws(ConversionError) {
        text = pattern
        let bytes = Array(pattern.utf8)
        func invalid(_ reason: String) -> ConversionError {
            ConversionError("invalid dateFormat \(JSONEscaping.quotedString(pattern)): \(reason)")
        }
        guard !bytes.isEmpty else { throw invalid("empty pattern") }

        var tokens: [Token] = []
        /// Letter counts of the tokens, for the widths of abutting numeric fields.
        var counts: [Int] = []
        func appendLiteral(_ byte: UInt8) {
            if case .literal(var literal) = tokens.last {
                literal.append(byte)
                tokens[tokens.count - 1] = .literal(literal)
            } else {
                tokens.append(.literal([byte]))
                counts.append(0)
            }
        }

        var at = 0
        while at < bytes.count {
            let byte = bytes[at]
            if byte == UInt8(ascii: "'") {
                at += 1
                if at < bytes.count && bytes[at] == UInt8(ascii: "'") {
                    appendLiteral(byte)  // '' outside quotes
                    at += 1
                    continue
                }
                var closed = false
                while at < bytes.count {
                    if bytes[at] == UInt8(ascii: "'") {
                        if at + 1 < bytes.count && bytes[at + 1] == UInt8(ascii: "'") {
                            appendLiteral(UInt8(ascii: "'"))
                            at += 2
                            continue
                        }
                        closed = true
                        at += 1
                        break
                    }
                    appendLiteral(bytes[at])
                    at += 1
                }
                guard closed else { throw invalid("unterminated quote") }
                continue
            }
            let isLetter = (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
            guard isLetter else {
                appendLiteral(byte)
                at += 1
                continue
            }
            var count = 1
            while at + count < bytes.count && bytes[at + count] == byte { count += 1 }
            let letter = Character(Unicode.Scalar(byte))
            func tooLong() -> ConversionError {
                invalid("pattern \(String(repeating: letter, count: count)) is not supported")
            }
            let token: Token
            switch letter {
            case "y":
                token = .number(count == 2 ? .twoDigitYear : .year, minimum: 1, maximum: max(4, count))
            case "M", "L":
                switch count {
                case 1, 2: token = .number(.month, minimum: 1, maximum: 2)
                case 3, 4: token = .monthName
                default: throw tooLong()
                }
            case "d", "H", "h", "m", "s":
                guard count <= 2 else { throw tooLong() }
                let field: Field = switch letter {
                case "d": .day
                case "H": .hour
                case "h": .hour12
                case "m": .minute
                default: .second
                }
                token = .number(field, minimum: 1, maximum: 2)
            case "S":
                token = .fraction(minimum: 1, maximum: .max)
            case "a":
                guard count <= 3 else { throw tooLong() }
                token = .amPM
            case "Z", "X", "x":
                guard count <= 5 else { throw tooLong() }
                token = .zone(names: false)
            case "z":
                guard count <= 4 else { throw tooLong() }
                token = .zone(names: true)
            case "E":
                guard count <= 4 else { throw tooLong() }
                token = .weekdayName
            default:
                throw invalid("unsupported pattern letter '\(letter)'")
            }
            tokens.append(token)
            counts.append(count)
            at += count
        }

        // Abutting numeric fields read exactly their letter count of digits (a year written
        // with other than two letters, four).
        for index in tokens.indices.dropLast() {
            switch (tokens[index], tokens[index + 1]) {
            case (.number(let field, _, _), .number), (.number(let field, _, _), .fraction):
                let width = field == .year ? 4 : counts[index]
                tokens[index] = .number(field, minimum: width, maximum: width)
            case (.fraction, .number), (.fraction, .fraction):
                tokens[index] = .fraction(minimum: counts[index], maximum: counts[index])
            default:
                break
            }
        }
        self.tokens = tokens
    }

    static let monthNames: [StaticString] = [
        "January", "February", "March", "April", "May", "June", "July",
        "August", "September", "October", "November", "December",
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ]
    static let weekdayNames: [StaticString] = [
        "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday",
        "Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun",
    ]
    static let amPMNames: [StaticString] = ["AM", "PM"]

    /// The instant `bytes` denotes.
    func instant(_ bytes: UnsafeRawBufferPointer) throws(DateFailure) -> Instant {
        var cursor = DateCursor(bytes)
        var fields = DateFields()
        for token in tokens {
            switch token {
            case .literal(let literal):
                for byte in literal {
                    guard cursor.take(byte) else { throw mismatch }
                }
            case .number(let field, let minimum, let maximum):
                guard let number = cursor.digits(minimum: minimum, maximum: maximum) else { throw mismatch }
                switch field {
                case .year: fields.year = number.value
                case .twoDigitYear:
                    fields.year = number.count != 2 ? number.value
                        : number.value < 69 ? 2000 + number.value : 1900 + number.value
                case .month: fields.month = number.value
                case .day: fields.day = number.value
                case .hour:
                    fields.hour = number.value
                    fields.hour12 = nil
                case .hour12: fields.hour12 = number.value
                case .minute: fields.minute = number.value
                case .second: fields.second = number.value
                }
            case .fraction(let minimum, let maximum):
                guard let fraction = cursor.fraction(minimum: minimum, maximum: maximum) else { throw mismatch }
                fields.attoseconds = fraction
            case .monthName:
                guard let index = cursor.name(among: DatePattern.monthNames) else { throw mismatch }
                fields.month = index % 12 + 1
            case .weekdayName:
                guard cursor.name(among: DatePattern.weekdayNames) != nil else { throw mismatch }
            case .amPM:
                guard let index = cursor.name(among: DatePattern.amPMNames) else { throw mismatch }
                fields.isPM = index == 1
            case .zone(let names):
                guard let offset = cursor.zone(names: names) else { throw mismatch }
                fields.offsetSeconds = offset
            }
        }
        guard cursor.isAtEnd else { throw mismatch }
        return try fields.instant()
    }

    private var mismatch: DateFailure {
        DateFailure("does not match dateFormat \(JSONEscaping.quotedString(text))")
    }
}
