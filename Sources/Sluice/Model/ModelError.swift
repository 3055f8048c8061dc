/// One thing wrong with a model file, with the path of the place it is about
/// (`entities.Stop.attributes.lat.type`). An empty path is the document itself.
public struct ModelProblem: Equatable, Sendable, CustomStringConvertible {
    /// Where in the model: the path of keys, `entities.Stop.attributes.lat.type`; empty for the document.
    public var path: String
    /// What is wrong there.
    public var message: String

    /// The problem `message` at `path`.
    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    /// `entities.Stop.attributes.lat.type: unknown type "flaot"`.
    public var description: String { path.isEmpty ? message : "\(path): \(message)" }

    /// A name as it appears in a message: in double quotes, escaped as in JSON.
    static func quote(_ text: String) -> String {
        var result = "\""
        for character in text.unicodeScalars {
            if character == "\"" || character == "\\" { result.append("\\") }
            result += escapingControls(character)
        }
        return result + "\""
    }

    /// A control character as JSON writes it (`\u0000`), so that a message is one line of
    /// text that ends where it should; any other character as it is.
    static func escapingControls(_ scalar: UnicodeScalar) -> String {
        guard scalar.value < 0x20 || scalar.value == 0x7F else { return String(scalar) }
        let hex = String(scalar.value, radix: 16, uppercase: false)
        return "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
    }
}

/// Every problem of a model file at once, in document order (`docs/model.md`: `sluice check` lists
/// them all). The CLI prints each problem as its own line, prefixed with `source`.
public struct ModelError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The model file's name, as given to `Model.parse(_:sourceName:)`.
    public var source: String
    /// The problems, in document order; never empty when thrown.
    public var problems: [ModelProblem]

    /// The problems of the model named `source`.
    public init(source: String, problems: [ModelProblem]) {
        self.source = source
        self.problems = problems
    }

    /// One line per problem: `model.json: entities.Stop.identity: missing`.
    public var description: String {
        problems.map { "\(source): \($0)" }.joined(separator: "\n")
    }

    /// The same failure as one `SluiceError` of kind `.usage` (exit 64).
    public var sluiceError: SluiceError { SluiceError(self) }
}

extension SluiceError {
    /// A model error as one usage error: the problems joined by `; `, without the source name
    /// (callers that print it name the file themselves).
    public init(_ error: ModelError) {
        self.init(.usage, error.problems.map(\.description).joined(separator: "; "))
    }
}
