// TEMPORARY: replaced by the conversions branch.
enum Scalar {
    case null
    case bool(Bool)
    case number(UnsafeRawBufferPointer)
    case string(UnsafeRawBufferPointer)
}
struct ConversionError: Error, Equatable { var message: String }
struct ValueConverter {
    let type: AttributeType
    init(type: AttributeType, dateFormat: String?) throws(ConversionError) { self.type = type }
    func convert(_ scalar: Scalar) throws(ConversionError) -> DatabaseValue {
        switch scalar {
        case .null: return .null
        case .bool(let b): return .integer(b ? 1 : 0)
        case .number(let t):
            if type == .integer, let v = Int64(String(decoding: t, as: UTF8.self)) { return .integer(v) }
            if type == .double, let v = Double(String(decoding: t, as: UTF8.self)) { return .real(v) }
            return .text(String(decoding: t, as: UTF8.self))
        case .string(let t):
            if type == .integer {
                guard let v = Int64(String(decoding: t, as: UTF8.self)) else { throw ConversionError(message: "cannot convert \"\(String(decoding: t, as: UTF8.self))\" to integer") }
                return .integer(v)
            }
            return .text(String(decoding: t, as: UTF8.self))
        }
    }
}
struct JSONTextWriter {
    var bytes: [UInt8] = []
    mutating func reset() { bytes.removeAll(keepingCapacity: true) }
    mutating func startObject() { bytes.append(UInt8(ascii: "{")) }
    mutating func endObject() { bytes.append(UInt8(ascii: "}")) }
    mutating func startArray() { bytes.append(UInt8(ascii: "[")) }
    mutating func endArray() { bytes.append(UInt8(ascii: "]")) }
    mutating func key(_ k: UnsafeRawBufferPointer) { bytes.append(contentsOf: k) }
    mutating func scalar(_ s: Scalar) { if case .number(let t) = s { bytes.append(contentsOf: t) } }
}
