/// A place in a model file: the path printed with a problem, and the place's order in the
/// document, so problems found in different passes still come out in document order.
struct ModelLocation: Sendable {
    /// Dotted path from the document root, e.g. `entities.Stop.attributes.lat`; empty for the
    /// document itself.
    var path: String
    /// Member (or element) indices from the document root.
    var order: [Int]

    static let document = ModelLocation(path: "", order: [])

    /// The location of member `key`, the `index`-th member of the object here. An empty key
    /// (a problem of its own) leaves the path as it is rather than end it with a dot.
    func member(_ key: String, at index: Int) -> ModelLocation {
        // Control characters escaped: a path is printed inside a one-line message.
        let key = key.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }
            ? key.unicodeScalars.map(ModelProblem.escapingControls).joined() : key
        let path = key.isEmpty ? path : self.path.isEmpty ? key : "\(self.path).\(key)"
        return ModelLocation(path: path, order: order + [index])
    }

    /// The same path, at a later place inside it (a repeated key, an array element).
    func inside(at index: Int) -> ModelLocation {
        ModelLocation(path: path, order: order + [index])
    }
}

/// Collects problems from decoding and validation, and hands them back in document order.
struct ModelProblemCollector: Sendable {
    private var entries: [(order: [Int], sequence: Int, problem: ModelProblem)] = []

    var isEmpty: Bool { entries.isEmpty }

    mutating func report(_ message: String, at location: ModelLocation) {
        entries.append((location.order, entries.count, ModelProblem(path: location.path, message: message)))
    }

    /// Sorted by place in the document (an enclosing place before what it contains); problems
    /// at the same place keep the order they were found in.
    var problems: [ModelProblem] {
        entries.sorted { a, b in
            if a.order == b.order { return a.sequence < b.sequence }
            return a.order.lexicographicallyPrecedes(b.order)
        }.map(\.problem)
    }
}
