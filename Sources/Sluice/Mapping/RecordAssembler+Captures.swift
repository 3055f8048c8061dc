/// `json` attributes: the subtree at such an attribute's key is re-serialised while its events
/// stream past (`JSONTextWriter`), at most `maxValueBytes` of it, and becomes the value when its
/// container closes.
extension RecordAssembler {
    /// An object or array at a mapped key path: `json` attributes capture it, the others
    /// cannot take it.
    mutating func enterContainer(node: Int, kind: String) {
        let keyNode = events.keyNodes[node]
        if keyNode.hasJSONTarget {
            var writer = spareWriters.popLast() ?? JSONTextWriter()
            writer.reset()
            if kind == "an object" { writer.startObject() } else { writer.startArray() }
            captures.append(Capture(node: node, depth: depth, writer: writer))
        }
        if keyNode.hasScalarTarget {
            for target in events.targets(of: keyNode) {
                let type = attribute(Int(target.index)).type
                guard type != .json else { continue }
                set(Int(target.index), priority: Int(target.priority)) { _ throws(ConversionError) in
                    throw ConversionError(message: "expected \(type.withArticle), got \(kind)")
                }
            }
        }
    }

    mutating func feedCaptures(_ body: (inout JSONTextWriter) -> Void) {
        guard !captures.isEmpty else { return }
        for index in captures.indices where !captures[index].overflowed {
            body(&captures[index].writer)
            if captures[index].writer.bytes.count > maxValueBytes {
                captures[index].overflowed = true
                captures[index].writer.reset()
            }
        }
    }

    /// Ends the captures whose container closes now (the closing bracket is already written).
    /// The check inline, the work out of line: most containers close with no capture open.
    mutating func finishCaptures() {
        if !captures.isEmpty { finishOpenCaptures() }
    }

    @inline(never)
    private mutating func finishOpenCaptures() {
        while let capture = captures.last, capture.depth == depth {
            captures.removeLast()
            let limit = maxValueBytes
            for target in events.targets(of: events.keyNodes[capture.node]) where attribute(Int(target.index)).type == .json {
                let first = Int(events.entities[records.last.entity].firstAttribute)
                let converter = events.converters[first + Int(target.index)]
                set(Int(target.index), priority: Int(target.priority)) { arena throws(ConversionError) in
                    guard !converter.customTransformer else { throw ConversionError.transformable }
                    guard !capture.overflowed else {
                        throw ConversionError(message: "a json value larger than \(limit) bytes (--max-value-bytes)")
                    }
                    // Core Data's store: a transformable attribute's value as its keyed archive.
                    if converter.encoding == .coreData {
                        // The writer's own compact text of a subtree the input's parse took: it parses.
                        guard let value = try? JSONValue.parse(capture.writer.bytes, sourceName: "") else {
                            throw ConversionError("the value's JSON text did not parse again")
                        }
                        return Cell(try converter.archived(value), in: &arena)
                    }
                    // An identity's value is matched by its canonical text (`CanonicalJSON`).
                    if converter.canonical {
                        return CanonicalJSON.text(of: capture.writer.bytes).withUnsafeBytes { Cell.bytes(.text, $0, in: &arena) }
                    }
                    return capture.writer.bytes.withUnsafeBytes { Cell.bytes(.text, $0, in: &arena) }
                }
            }
            spareWriters.append(capture.writer)
        }
    }
}
