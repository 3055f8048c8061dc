/// A place in the input: which source, and where in it. Lines and columns count from 1;
/// columns count bytes, as compilers do.
public struct SourcePosition: Hashable, Sendable, CustomStringConvertible {
    public var source: String
    public var line: Int
    public var column: Int
    /// Absolute byte offset from the start of the source (of the decompressed bytes for gzip).
    public var offset: Int64

    public init(source: String, line: Int, column: Int, offset: Int64) {
        self.source = source
        self.line = line
        self.column = column
        self.offset = offset
    }

    public var description: String { "\(source):\(line):\(column)" }
}

/// Every failure the library reports. The library never prints and never exits; the CLI turns
/// `kind` into an exit status and `description` into its one line on stderr.
public struct SluiceError: Error, Sendable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// A bad command line or model (exit 64).
        case usage
        /// Input data that cannot be imported (exit 65).
        case data
        /// An input that cannot be opened (exit 66).
        case cannotOpenInput
        /// The database cannot be created or written (exit 73).
        case cannotCreate
        /// A read or write failed (exit 74).
        case io
        /// SIGINT or SIGTERM (exit 130).
        case interrupted
    }

    public var kind: Kind
    public var position: SourcePosition?
    public var message: String

    public init(_ kind: Kind, _ message: String, at position: SourcePosition? = nil) {
        self.kind = kind
        self.message = message
        self.position = position
    }

    public var description: String {
        if let position { return "\(position): \(message)" }
        return message
    }
}

extension SluiceError {
    /// The import was cancelled (`ImportCancellation`, SIGINT/SIGTERM in the CLI) and rolled back.
    static func interrupted(database: String) -> SluiceError {
        SluiceError(.interrupted, "import into database '\(database)' interrupted: nothing was written")
    }
}
