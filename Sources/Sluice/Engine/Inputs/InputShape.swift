/// What the first bytes of an input show of its shape, for the notes of an import that found
/// no record in it or records with none of their keys (`ImportNotes`): a top-level array, or
/// an object and the keys of its members that hold arrays. A rough scan of at most the first
/// chunk, run only for those notes; a value cut off by the end of the bytes ends it.
enum InputShape: Equatable {
    /// Only whitespace, or nothing.
    case empty
    /// `[]`.
    case emptyArray
    /// An array of values (or NDJSON's first value is one).
    case array
    /// An object; `arrays` the keys of its members whose values are arrays, in input order,
    /// `keys` every key of its members.
    case object(keys: [String], arrays: [String])
    /// A scalar at the top level.
    case scalar

    /// The most bytes of an input kept for `sniff`.
    static let headLimit = 1 << 16

    static func sniff(_ bytes: [UInt8]) -> InputShape {
        var scanner = Scanner(bytes: bytes)
        scanner.skipWhitespace()
        guard let first = scanner.peek() else { return .empty }
        switch first {
        case UInt8(ascii: "["):
            scanner.index += 1
            scanner.skipWhitespace()
            return scanner.peek() == UInt8(ascii: "]") ? .emptyArray : .array
        case UInt8(ascii: "{"):
            scanner.index += 1
            var keys: [String] = [], arrays: [String] = []
            while true {
                scanner.skipWhitespace()
                guard scanner.peek() == UInt8(ascii: "\""), let key = scanner.string() else { break }
                scanner.skipWhitespace()
                guard scanner.peek() == UInt8(ascii: ":") else { break }
                scanner.index += 1
                scanner.skipWhitespace()
                keys.append(key)
                if scanner.peek() == UInt8(ascii: "[") { arrays.append(key) }
                guard scanner.skipValue() else { break }
                scanner.skipWhitespace()
                guard scanner.peek() == UInt8(ascii: ",") else { break }
                scanner.index += 1
            }
            return .object(keys: keys, arrays: arrays)
        default:
            return .scalar
        }
    }

    /// Where `path`, a key path from the top-level object, breaks off in the first bytes: the
    /// depth of its first key that the object there does not hold, and the keys that object
    /// holds. Nil when the path is there, or the bytes cannot say: they end first, something
    /// on the way is not an object, or a key is written with escapes.
    static func missingKey(of path: [String], in bytes: [UInt8]) -> (depth: Int, keys: [String])? {
        var scanner = Scanner(bytes: bytes)
        for (depth, key) in path.enumerated() {
            scanner.skipWhitespace()
            guard scanner.peek() == UInt8(ascii: "{") else { return nil }
            scanner.index += 1
            var keys: [String] = []
            while true {
                scanner.skipWhitespace()
                if scanner.peek() == UInt8(ascii: "}") { return (depth, keys) }
                guard scanner.peek() == UInt8(ascii: "\""), let name = scanner.string(), !name.contains("\\") else { return nil }
                scanner.skipWhitespace()
                guard scanner.peek() == UInt8(ascii: ":") else { return nil }
                scanner.index += 1
                if name == key { break }
                keys.append(name)
                scanner.skipWhitespace()
                guard scanner.skipValue() else { return nil }
                scanner.skipWhitespace()
                if scanner.peek() == UInt8(ascii: ",") {
                    scanner.index += 1
                } else if scanner.peek() != UInt8(ascii: "}") {
                    return nil
                }
            }
        }
        return nil
    }

    private struct Scanner {
        let bytes: [UInt8]
        var index = 0

        func peek() -> UInt8? { index < bytes.count ? bytes[index] : nil }

        mutating func skipWhitespace() {
            while let byte = peek(), byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { index += 1 }
        }

        /// A string from its opening quote; nil when the bytes end inside it. Escapes are kept
        /// as written but for `\"` and `\\`: the names are only shown.
        mutating func string() -> String? {
            index += 1
            var text: [UInt8] = []
            while let byte = peek() {
                index += 1
                if byte == UInt8(ascii: "\"") { return String(decoding: text, as: UTF8.self) }
                if byte == UInt8(ascii: "\\") {
                    guard let escaped = peek() else { return nil }
                    index += 1
                    if escaped != UInt8(ascii: "\"") && escaped != UInt8(ascii: "\\") { text.append(byte) }
                    text.append(escaped)
                } else {
                    text.append(byte)
                }
            }
            return nil
        }

        /// Skips one value; false when the bytes end inside it.
        mutating func skipValue() -> Bool {
            var depth = 0
            while let byte = peek() {
                switch byte {
                case UInt8(ascii: "\""):
                    guard string() != nil else { return false }
                    if depth == 0 { return true }
                    continue
                case UInt8(ascii: "["), UInt8(ascii: "{"):
                    depth += 1
                case UInt8(ascii: "]"), UInt8(ascii: "}"):
                    if depth == 0 { return true }  // the end of the enclosing object
                    depth -= 1
                    if depth == 0 {
                        index += 1
                        return true
                    }
                case UInt8(ascii: ","):
                    if depth == 0 { return true }
                default:
                    break
                }
                index += 1
            }
            return false
        }
    }
}
