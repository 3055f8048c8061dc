/// What `sluice infer` sees of a CSV row: every field is text, and a field written as a JSON
/// number (`42`, `-1.5`, `1e3`; not `007`, `+1` or `1.`) is taken as that number, so that the
/// model proposes `integer` and `double` where a JSON input would have had numbers. An import
/// converts such text to the attribute's type as it converts a JSON string
/// (`docs/import-semantics.md#csv`).
final class CSVSampleValues: EventForwarding {
    let inner: any EventHandler

    init(_ inner: any EventHandler) {
        self.inner = inner
    }

    func string(_ bytes: UnsafeRawBufferPointer) throws(SluiceError) {
        if Self.isJSONNumber(bytes) { try inner.number(bytes) } else { try inner.string(bytes) }
    }

    /// RFC 8259's number grammar: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    static func isJSONNumber(_ text: UnsafeRawBufferPointer) -> Bool {
        var index = 0
        let count = text.count
        func digits() -> Int {
            let start = index
            while index < count, text[index] &- UInt8(ascii: "0") < 10 { index += 1 }
            return index - start
        }
        if index < count, text[index] == UInt8(ascii: "-") { index += 1 }
        guard index < count else { return false }
        if text[index] == UInt8(ascii: "0") {
            index += 1
        } else if digits() == 0 {
            return false
        }
        if index < count, text[index] == UInt8(ascii: ".") {
            index += 1
            guard digits() > 0 else { return false }
        }
        if index < count, text[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            if index < count, text[index] == UInt8(ascii: "+") || text[index] == UInt8(ascii: "-") { index += 1 }
            guard digits() > 0 else { return false }
        }
        return index == count
    }
}
