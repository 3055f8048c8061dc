/// Every failure the library reports. The library never prints and never exits; the CLI turns
/// `kind` into an exit status and `description` into its one line on stderr.
public struct SluiceError: Error, Sendable, CustomStringConvertible {
    /// What failed, in the categories of the command's exit statuses (`docs/cli.md`).
    public enum Kind: Sendable, Equatable {
        /// A bad command line or model (exit 64).
        case usage
        /// Input data that cannot be imported (exit 65).
        case data
        /// An input that cannot be opened (exit 66).
        case cannotOpenInput
        /// The database cannot be created or written (exit 73).
        case cannotCreate
        /// The database server cannot be reached, or refuses the connection, or its client
        /// library cannot be loaded: PostgreSQL (exit 73, as the command has always said).
        case cannotConnect
        /// A read or write failed (exit 74).
        case io
        /// SIGINT or SIGTERM (exit 130).
        case interrupted
    }

    /// What failed.
    public var kind: Kind
    /// The name of the input the error is in (a file name, or `<stdin>`), given
    /// with `position`.
    public var source: String?
    /// Where in `source` the error is.
    public var position: InputPosition?
    /// What is wrong, without the place: `Stop.lat: cannot convert "north" to double`.
    public var message: String
    /// The model's problems, one each, when the error is a model file's that does not load
    /// (`ModelFile.load`; kind `.usage`): `description` is then one line per problem, each
    /// after the file's name, as `sluice check` prints them.
    public var modelError: ModelError?
    /// The index of the input (in the order the import read them) whose name `source` is to
    /// be: a store names a refused row's record by its place in the batch, the import by name.
    var input: Int?

    /// An error of `kind` saying `message`, at `position` of the input `source` when it is in one.
    public init(_ kind: Kind, _ message: String, in source: String? = nil, at position: InputPosition? = nil) {
        self.kind = kind
        self.message = message
        self.source = source
        self.position = position
    }

    /// `message`, after `source:line:column: ` when the error has a position.
    public var description: String {
        if let modelError { return modelError.description }
        if let position { return "\(source ?? ""):\(position): \(message)" }
        return message
    }
}

extension SluiceError.Kind {
    /// The exit status a command reports this kind of failure with (`sysexits.h`), the table of
    /// `docs/cli.md#exit-status` that the `sluice` command exits by: 64 usage (a bad model
    /// too), 65 data, 66 an input that cannot be opened, 73 a database that cannot be
    /// created, written or connected to, 74 I/O, 130 interrupted.
    public var exitStatus: Int32 {
        switch self {
        case .usage: 64
        case .data: 65
        case .cannotOpenInput: 66
        case .cannotCreate, .cannotConnect: 73
        case .io: 74
        case .interrupted: 130
        }
    }
}

extension SluiceError {
    /// `kind.exitStatus`: what a command exits with after printing `description`.
    public var exitStatus: Int32 { kind.exitStatus }

    /// A model file's problems as one error (`modelError`), described as `ModelError` is.
    init(loading error: ModelError) {
        self.init(.usage, error.problems.map(\.description).joined(separator: "; "))
        modelError = error
    }

    /// The import was cancelled (`ImportCancellation`, SIGINT/SIGTERM in the CLI) and rolled back.
    static func interrupted(database: String) -> SluiceError {
        SluiceError(.interrupted, "import into database '\(database)' interrupted: nothing was written")
    }
}
