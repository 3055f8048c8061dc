/// Writes a compact JSON serialisation of a value from parser events into a reused buffer:
/// this is how `json` attributes holding objects or arrays get their text (`docs/database-layout.md`).
///
/// The writer places commas and colons itself; numbers are written exactly as their raw text,
/// strings and keys are escaped as `JSONEscaping` says. It does not check that the events
/// nest properly: the parser has already done that. Several top-level values in a row are
/// separated by commas; call `reset()` between values.
///
///     var writer = JSONTextWriter()
///     writer.startObject(); writer.key(k); writer.scalar(.number(n)); writer.endObject()
///     writer.text  // {"a":1}
struct JSONTextWriter {
    /// The serialisation so far.
    private(set) var bytes: [UInt8] = []
    /// Whether the next value or key follows a sibling and needs a comma.
    private var needsComma = false
    /// Whether a key and its colon were just written, so the next value needs no comma.
    private var afterKey = false

    init(reservingCapacity capacity: Int = 256) {
        bytes.reserveCapacity(capacity)
    }

    /// Empties the buffer, keeping its capacity, to start the next value.
    mutating func reset() {
        bytes.removeAll(keepingCapacity: true)
        needsComma = false
        afterKey = false
    }

    /// The serialisation as a string (one allocation).
    var text: String { String(decoding: bytes, as: UTF8.self) }

    mutating func startObject() { open(UInt8(ascii: "{")) }
    mutating func endObject() { close(UInt8(ascii: "}")) }
    mutating func startArray() { open(UInt8(ascii: "[")) }
    mutating func endArray() { close(UInt8(ascii: "]")) }

    private mutating func open(_ bracket: UInt8) {
        beforeValue()
        bytes.append(bracket)
        needsComma = false
    }

    private mutating func close(_ bracket: UInt8) {
        bytes.append(bracket)
        needsComma = true
    }

    /// A member's key (decoded UTF-8 bytes, valid only during the call).
    mutating func key(_ key: UnsafeRawBufferPointer) {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
        JSONEscaping.appendQuoted(key, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
        afterKey = true
    }

    mutating func scalar(_ scalar: Scalar) {
        beforeValue()
        switch scalar {
        case .null: bytes.append(contentsOf: "null".utf8)
        case .bool(let value): bytes.append(contentsOf: value ? "true".utf8 : "false".utf8)
        case .number(let text): bytes.append(contentsOf: text)
        case .string(let text): JSONEscaping.appendQuoted(text, to: &bytes)
        }
        needsComma = true
    }

    private mutating func beforeValue() {
        if afterKey {
            afterKey = false
        } else if needsComma {
            bytes.append(UInt8(ascii: ","))
        }
    }
}

/// String escaping per RFC 8259 §7: `"` and `\` are escaped, control characters below 0x20 as
/// `\n \t \r \b \f` or `\u00XX`; every other byte, including non-ASCII UTF-8 and DEL, is
/// copied as is.
enum JSONEscaping {
    /// Whether a byte must be escaped inside a JSON string.
    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
    }

    /// The number of bytes `bytes` takes once quoted and escaped.
    static func quotedCount(_ bytes: UnsafeRawBufferPointer) -> Int {
        var count = bytes.count + 2
        for byte in bytes where needsEscape(byte) {
            count += shortForm(byte) != 0 ? 1 : 5
        }
        return count
    }

    /// Appends `"bytes"` with escapes to `output`.
    static func appendQuoted(_ bytes: UnsafeRawBufferPointer, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        var runStart = 0
        for index in 0..<bytes.count {
            let byte = bytes[index]
            guard needsEscape(byte) else { continue }
            if runStart < index {
                output.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[runStart..<index]))
            }
            appendEscape(byte, to: &output)
            runStart = index + 1
        }
        if runStart < bytes.count {
            output.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[runStart...]))
        }
        output.append(UInt8(ascii: "\""))
    }

    /// `bytes` quoted and escaped, as a string (one allocation, none for short results).
    static func quotedString(_ bytes: UnsafeRawBufferPointer) -> String {
        let count = quotedCount(bytes)
        return String(unsafeUninitializedCapacity: count) { buffer in
            var at = 0
            func put(_ byte: UInt8) {
                buffer[at] = byte
                at += 1
            }
            put(UInt8(ascii: "\""))
            for byte in bytes {
                if needsEscape(byte) {
                    let short = shortForm(byte)
                    put(UInt8(ascii: "\\"))
                    if short != 0 {
                        put(short)
                    } else {
                        put(UInt8(ascii: "u")); put(UInt8(ascii: "0")); put(UInt8(ascii: "0"))
                        put(hexDigit(byte >> 4)); put(hexDigit(byte & 0xF))
                    }
                } else {
                    put(byte)
                }
            }
            put(UInt8(ascii: "\""))
            return at
        }
    }

    /// `text` quoted and escaped (for messages; not on the hot path).
    static func quotedString(_ text: String) -> String {
        Array(text.utf8).withUnsafeBytes { quotedString($0) }
    }

    private static func appendEscape(_ byte: UInt8, to output: inout [UInt8]) {
        let short = shortForm(byte)
        if short != 0 {
            output.append(UInt8(ascii: "\\"))
            output.append(short)
        } else {
            output.append(UInt8(ascii: "\\"))
            output.append(UInt8(ascii: "u"))
            output.append(UInt8(ascii: "0"))
            output.append(UInt8(ascii: "0"))
            output.append(hexDigit(byte >> 4))
            output.append(hexDigit(byte & 0xF))
        }
    }

    /// The letter after the backslash for bytes with a short escape, else 0.
    private static func shortForm(_ byte: UInt8) -> UInt8 {
        switch byte {
        case UInt8(ascii: "\""): return UInt8(ascii: "\"")
        case UInt8(ascii: "\\"): return UInt8(ascii: "\\")
        case 0x0A: return UInt8(ascii: "n")
        case 0x09: return UInt8(ascii: "t")
        case 0x0D: return UInt8(ascii: "r")
        case 0x08: return UInt8(ascii: "b")
        case 0x0C: return UInt8(ascii: "f")
        default: return 0
        }
    }

    private static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
    }
}
