/// A JSON scalar as the parser hands it over.
///
/// The buffers point into the parser's input or its decoding buffer and are valid only during
/// the call that receives the scalar: convert or copy before keeping anything.
enum Scalar {
    case null
    case bool(Bool)
    /// The raw number text exactly as written, e.g. `-9223372036854775808`, `1e3`, `12.0`.
    case number(UnsafeRawBufferPointer)
    /// The decoded UTF-8 bytes of a string (escapes already resolved, no quotes).
    case string(UnsafeRawBufferPointer)
}

/// Why a value could not be converted to an attribute's type, or why a `dateFormat` is invalid.
///
/// The message names the value (an excerpt, at most about 40 bytes) and the type, e.g.
/// `cannot convert "abc" to integer`, and sometimes the reason after a colon. It carries no
/// position: the caller knows the record, the attribute and the place in the input.
struct ConversionError: Error, Equatable, Sendable, CustomStringConvertible {
    var message: String

    var description: String { message }

    /// `cannot convert <excerpt> to <type>[: <reason>]`. Only built on the failure path.
    static func cannotConvert(_ scalar: Scalar, to type: AttributeType, _ reason: String? = nil) -> ConversionError {
        var message = "cannot convert \(scalar.excerpt) to \(type.rawValue)"
        if let reason { message += ": \(reason)" }
        return ConversionError(message)
    }

    /// A value for a transformable attribute in Core Data's store (`ValueEncoding.coreData`).
    static let transformable = ConversionError(
        "a transformable attribute: Core Data's store keeps its value as the value transformer's archive, which Sluice does not write")
}

extension ConversionError {
    init(_ message: String) { self.init(message: message) }
}

extension Scalar {
    /// The longest excerpt of a value an error message shows, in bytes of its content.
    static let excerptLimit = 40

    /// The value as it would appear in JSON, cut after `excerptLimit` bytes (at a character
    /// boundary) with `…`. Strings are quoted and escaped, so the excerpt is always one line.
    var excerpt: String {
        switch self {
        case .null: return "null"
        case .bool(let value): return value ? "true" : "false"
        case .number(let bytes):
            let cut = Scalar.utf8Prefix(bytes, limit: Scalar.excerptLimit)
            return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[..<cut]), as: UTF8.self)
                + (cut < bytes.count ? "…" : "")
        case .string(let bytes):
            let cut = Scalar.utf8Prefix(bytes, limit: Scalar.excerptLimit)
            var text: [UInt8] = []
            JSONEscaping.appendQuoted(UnsafeRawBufferPointer(rebasing: bytes[..<cut]), to: &text)
            if cut < bytes.count {
                text.removeLast()  // the closing quote goes after the ellipsis
                text.append(contentsOf: "…\"".utf8)
            }
            return String(decoding: text, as: UTF8.self)
        }
    }

    /// The length of the longest prefix of at most `limit` bytes that does not split a UTF-8
    /// sequence.
    private static func utf8Prefix(_ bytes: UnsafeRawBufferPointer, limit: Int) -> Int {
        guard bytes.count > limit else { return bytes.count }
        var cut = limit
        // Step back over continuation bytes (10xxxxxx) so the cut lands on a lead byte.
        while cut > 0 && bytes[cut] & 0xC0 == 0x80 { cut -= 1 }
        return cut
    }
}

extension Scalar {
    var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// "a string", "a number", ... for messages.
    var kindDescription: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        }
    }
}

extension Scalar {
    /// A string's or number's bytes: what a bare id whose `relatedBy` is a string keeps as its
    /// text (`ValueConverter`'s `string`); nil for `null` and booleans.
    var textOfID: UnsafeRawBufferPointer? {
        get {
            switch self {
            case .string(let bytes), .number(let bytes): return bytes
            case .null, .bool: return nil
            }
        }
    }
}
