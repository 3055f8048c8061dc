extension JSONValue {
    /// Parses a small document (a model file) into a tree. `allowComments` accepts `//` and
    /// `/* */` comments, as the model file format does.
    static func parse(_ bytes: some Collection<UInt8>, sourceName: String, allowComments: Bool = false)
        throws(SluiceError) -> JSONValue
    {
        let builder = TreeBuilder()
        let parser = JSONParser(sourceName: sourceName, handler: builder, options: .init(allowComments: allowComments))
        let array = Array(bytes)
        do {
            try array.withUnsafeBytes { try parser.parse($0) }
        } catch let error as SluiceError {
            throw error
        } catch {
            preconditionFailure("JSONParser.parse throws only SluiceError")
        }
        try parser.finish()
        guard let value = builder.values.first else {
            throw SluiceError(.data, "empty document", in: sourceName, at: InputPosition(line: 1, column: 1, offset: 0))
        }
        guard builder.values.count == 1 else {
            throw SluiceError(.data, "\(sourceName): more than one JSON value in the document")
        }
        return value
    }
}

/// Builds `JSONValue` trees from events; one tree per top-level value.
private final class TreeBuilder: EventHandler {
    private enum Container {
        case array([JSONValue])
        case object([JSONValue.Member], pendingKey: String?)
    }

    private var stack: [Container] = []
    private(set) var values: [JSONValue] = []

    private func add(_ value: JSONValue) {
        switch stack.popLast() {
        case nil:
            values.append(value)
        case .array(var elements)?:
            elements.append(value)
            stack.append(.array(elements))
        case .object(var members, let key)?:
            members.append(JSONValue.Member(key ?? "", value))
            stack.append(.object(members, pendingKey: nil))
        }
    }

    func startObject() { stack.append(.object([], pendingKey: nil)) }

    func key(_ bytes: UnsafeRawBufferPointer) {
        if case .object(let members, _)? = stack.popLast() {
            stack.append(.object(members, pendingKey: String(decoding: bytes, as: UTF8.self)))
        }
    }

    func endObject() {
        if case .object(let members, _)? = stack.popLast() { add(.object(members)) }
    }

    func startArray() { stack.append(.array([])) }

    func endArray() {
        if case .array(let elements)? = stack.popLast() { add(.array(elements)) }
    }

    func null() { add(.null) }
    func bool(_ value: Bool) { add(.bool(value)) }
    func number(_ text: UnsafeRawBufferPointer) { add(.number(String(decoding: text, as: UTF8.self))) }
    func string(_ bytes: UnsafeRawBufferPointer) { add(.string(String(decoding: bytes, as: UTF8.self))) }
}
