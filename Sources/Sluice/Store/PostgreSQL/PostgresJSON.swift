/// Whether two JSON texts are the same document as jsonb sees it: jsonb prints its own normal
/// form (a space after `:` and `,`, keys sorted, the last of repeated keys kept, numbers as
/// numeric), so a stored value is compared with a record's compact text as documents, and a
/// re-import of the same JSON writes nothing.
enum PostgresJSON {
    static func same(_ a: String, _ b: String) -> Bool {
        guard let left = try? JSONValue.parse(Array(a.utf8), sourceName: "jsonb"),
              let right = try? JSONValue.parse(Array(b.utf8), sourceName: "jsonb") else { return false }
        return equal(left, right)
    }

    private static func equal(_ a: JSONValue, _ b: JSONValue) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case (.bool(let x), .bool(let y)): return x == y
        case (.string(let x), .string(let y)): return x == y
        case (.number(let x), .number(let y)): return x == y || (Double(x) != nil && Double(x) == Double(y))
        case (.array(let x), .array(let y)): return x.count == y.count && zip(x, y).allSatisfy(equal)
        case (.object(let x), .object(let y)):
            let left = Dictionary(x.map { ($0.key, $0.value) }, uniquingKeysWith: { _, last in last })
            let right = Dictionary(y.map { ($0.key, $0.value) }, uniquingKeysWith: { _, last in last })
            return left.count == right.count && left.allSatisfy { key, value in right[key].map { equal(value, $0) } ?? false }
        default: return false
        }
    }
}
