@testable import Sluice

/// A JSON scalar written in a test, turned into a `Scalar` (whose buffers live only during a
/// call) by `withScalar`.
enum TestScalar: Sendable, CustomStringConvertible {
    case null
    case bool(Bool)
    case number(String)
    case string(String)

    func withScalar<R>(_ body: (Scalar) -> R) -> R {
        switch self {
        case .null: return body(.null)
        case .bool(let value): return body(.bool(value))
        case .number(let text): return Array(text.utf8).withUnsafeBytes { body(.number($0)) }
        case .string(let text): return Array(text.utf8).withUnsafeBytes { body(.string($0)) }
        }
    }

    var description: String {
        switch self {
        case .null: return "null"
        case .bool(let value): return "\(value)"
        case .number(let text): return text
        case .string(let text): return "\"\(text)\""
        }
    }
}

/// Converts `input` with a fresh converter; a converter that cannot be built is a test bug.
func convert(_ input: TestScalar, to type: AttributeType, dateFormat: String? = nil) -> Result<ColumnValue, ConversionError> {
    let converter: ValueConverter
    do {
        converter = try ValueConverter(type: type, dateFormat: dateFormat)
    } catch {
        return .failure(error)
    }
    return input.withScalar { scalar in
        Result { () throws(ConversionError) -> ColumnValue in try converter.convert(scalar) }
    }
}

/// The converted value, or nil when the conversion fails.
func converted(_ input: TestScalar, to type: AttributeType, dateFormat: String? = nil) -> ColumnValue? {
    try? convert(input, to: type, dateFormat: dateFormat).get()
}

/// The message of the conversion's error, or nil when it succeeds.
func conversionMessage(_ input: TestScalar, to type: AttributeType, dateFormat: String? = nil) -> String? {
    if case .failure(let error) = convert(input, to: type, dateFormat: dateFormat) { return error.message }
    return nil
}
