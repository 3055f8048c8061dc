/// The JSON values the property tests generate, kept as a tree so the oracle reads them without
/// a parser, with numbers as their text (the engine keeps a number's text as written).
indirect enum PropertyJSON: Equatable {
    case null
    case bool(Bool)
    case number(String)
    case string(String)
    case array([PropertyJSON])
    case object([(String, PropertyJSON)])

    static func == (lhs: PropertyJSON, rhs: PropertyJSON) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.number(let a), .number(let b)): return a == b
        case (.string(let a), .string(let b)): return a == b
        case (.array(let a), .array(let b)): return a == b
        case (.object(let a), .object(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: return false
        }
    }

    /// The value of the first member named `key` (JSON allows repeats; the generator makes none).
    func member(_ key: String) -> PropertyJSON? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.0 == key }?.1
    }

    /// The value at a dotted key path, or nil when the path is not present (it runs into a
    /// non-object, or a key is missing): SPEC section 4's lookup.
    func value(atPath path: String) -> PropertyJSON? {
        var current = self
        for key in path.split(separator: ".", omittingEmptySubsequences: false) {
            guard let next = current.member(String(key)) else { return nil }
            current = next
        }
        return current
    }

    /// Compact text as the engine re-serialises a `json` attribute: no spaces, numbers as
    /// written, strings escaped only where JSON requires it.
    var compactText: String {
        var out = ""
        write(to: &out, escapeNonASCII: false, spaced: false)
        return out
    }

    /// Text for the input; `escapeNonASCII` writes every non-ASCII character as `\u` escapes
    /// (astral ones as surrogate pairs), `spaced` puts blanks between tokens.
    func write(to out: inout String, escapeNonASCII: Bool, spaced: Bool) {
        switch self {
        case .null: out += "null"
        case .bool(let value): out += value ? "true" : "false"
        case .number(let text): out += text
        case .string(let text): PropertyJSON.writeString(text, to: &out, escapeNonASCII: escapeNonASCII)
        case .array(let items):
            out += "["
            for (index, item) in items.enumerated() {
                if index > 0 { out += spaced ? ", " : "," }
                item.write(to: &out, escapeNonASCII: escapeNonASCII, spaced: spaced)
            }
            out += "]"
        case .object(let members):
            out += "{"
            for (index, (key, value)) in members.enumerated() {
                if index > 0 { out += spaced ? ", " : "," }
                PropertyJSON.writeString(key, to: &out, escapeNonASCII: escapeNonASCII)
                out += spaced ? ": " : ":"
                value.write(to: &out, escapeNonASCII: escapeNonASCII, spaced: spaced)
            }
            out += "}"
        }
    }

    static func writeString(_ text: String, to out: inout String, escapeNonASCII: Bool) {
        out += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            default:
                if scalar.value < 0x20 {
                    out += "\\u00" + hex(scalar.value, width: 2)
                } else if escapeNonASCII && scalar.value > 0x7F {
                    for unit in String(scalar).utf16 { out += "\\u" + hex(UInt32(unit), width: 4) }
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        out += "\""
    }

    private static func hex(_ value: UInt32, width: Int) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
