extension ValueConverter {
    /// Converts a value held in memory, such as an attribute's `default` from the model file,
    /// exactly as the same value in the input would be converted. Objects and arrays suit only
    /// `json` attributes, which get their compact text (numbers as written).
    func convert(_ value: JSONValue) throws(ConversionError) -> ColumnValue {
        switch value {
        case .null: return .null
        case .bool(let flag): return try convert(Scalar.bool(flag))
        case .number(let text): return try convert(number: text)
        case .string(let text): return try convert(string: text)
        case .array, .object:
            guard type == .json else {
                let kind = if case .array = value { "an array" } else { "an object" }
                throw ConversionError("cannot convert \(kind) to \(type.rawValue)")
            }
            if encoding == .coreData { return try archived(value) }
            var writer = JSONTextWriter()
            writer.write(value)
            guard canonical else { return .text(writer.text) }
            return .text(String(decoding: CanonicalJSON.text(of: Array(writer.text.utf8)), as: UTF8.self))
        }
    }

    private func convert(number text: String) throws(ConversionError) -> ColumnValue {
        let result = Array(text.utf8).withUnsafeBytes { bytes in
            Result { () throws(ConversionError) -> ColumnValue in try convert(.number(bytes)) }
        }
        return try result.get()
    }

    private func convert(string text: String) throws(ConversionError) -> ColumnValue {
        let result = Array(text.utf8).withUnsafeBytes { bytes in
            Result { () throws(ConversionError) -> ColumnValue in try convert(.string(bytes)) }
        }
        return try result.get()
    }
}

extension JSONTextWriter {
    /// Writes a whole in-memory value (members in document order, repeated keys kept).
    mutating func write(_ value: JSONValue) {
        switch value {
        case .null: scalar(.null)
        case .bool(let flag): scalar(.bool(flag))
        case .number(let text): Array(text.utf8).withUnsafeBytes { scalar(.number($0)) }
        case .string(let text): Array(text.utf8).withUnsafeBytes { scalar(.string($0)) }
        case .array(let elements):
            startArray()
            for element in elements { write(element) }
            endArray()
        case .object(let members):
            startObject()
            for member in members {
                Array(member.key.utf8).withUnsafeBytes { key($0) }
                write(member.value)
            }
            endObject()
        }
    }
}

extension JSONValue {
    /// A scalar held in memory, its bytes copied.
    init(_ scalar: Scalar) {
        switch scalar {
        case .null: self = .null
        case .bool(let flag): self = .bool(flag)
        case .number(let bytes): self = .number(String(decoding: bytes, as: UTF8.self))
        case .string(let bytes): self = .string(String(decoding: bytes, as: UTF8.self))
        }
    }
}
