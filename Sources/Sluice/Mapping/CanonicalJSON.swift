/// The one text of a JSON value that a record is matched by (a `json` identity, or a
/// `relatedBy`): `docs/import-semantics.md`, json identities. Two values PostgreSQL's `jsonb`
/// holds equal get the same text, so that SQLite (which compares text) and PostgreSQL (which
/// compares documents) find the same rows at every batch size:
///
/// * compact, no whitespace; strings escaped as `JSONTextWriter` escapes them;
/// * an object's members sorted by their keys' UTF-8 bytes, and of a key given twice only the
///   last (as `jsonb` keeps it);
/// * numbers in their value's one spelling (`NumberText.canonicalDecimal`: `1.0` → `1`,
///   `1.5e3` → `1500`); one whose spelling would pass `ValueConverter.canonicalDecimalLimit`
///   bytes stays as written.
///
/// Identities are small: the value is parsed into a tree (`JSONValue`), which an ordinary json
/// attribute never is.
enum CanonicalJSON {
    /// The canonical text of `bytes`, valid compact JSON as `JSONTextWriter` writes it.
    static func text(of bytes: [UInt8]) -> [UInt8] {
        // The writer's output parses; were it not to, the text as it is is the best there is.
        guard let value = try? JSONValue.parse(bytes, sourceName: "json identity") else { return bytes }
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        write(value, to: &output)
        return output
    }

    /// A scalar's canonical text: a number's one spelling, else nil (a string or boolean is
    /// written one way already).
    static func number(_ bytes: UnsafeRawBufferPointer) -> String? {
        NumberText(bytes)?.canonicalDecimal(in: bytes, maxLength: ValueConverter.canonicalDecimalLimit)
    }

    private static func write(_ value: JSONValue, to output: inout [UInt8]) {
        switch value {
        case .null: output += "null".utf8
        case .bool(let flag): output += (flag ? "true" : "false").utf8
        case .number(let text):
            let canonical = Array(text.utf8).withUnsafeBytes { number($0) }
            output += (canonical ?? text).utf8
        case .string(let text): quote(text, to: &output)
        case .array(let elements):
            output.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                write(element, to: &output)
            }
            output.append(UInt8(ascii: "]"))
        case .object(let members):
            var last: [String: JSONValue] = [:]
            for member in members { last[member.key] = member.value }
            output.append(UInt8(ascii: "{"))
            for (index, key) in last.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }).enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                quote(key, to: &output)
                output.append(UInt8(ascii: ":"))
                write(last[key]!, to: &output)
            }
            output.append(UInt8(ascii: "}"))
        }
    }

    private static func quote(_ text: String, to output: inout [UInt8]) {
        Array(text.utf8).withUnsafeBytes { JSONEscaping.appendQuoted($0, to: &output) }
    }
}
