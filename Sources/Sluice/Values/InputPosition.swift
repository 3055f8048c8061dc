/// A place in the input: line and column from 1 (columns count bytes, as compilers do), and
/// the absolute byte offset from the start of the input (of the decompressed bytes for gzip).
///
/// Which input is not part of it: records carry a position each, by the million, and the
/// input's name is attached once, where a position leaves the library in an error
/// (`SluiceError.source`).
public struct InputPosition: Hashable, Sendable, CustomStringConvertible {
    /// The line, from 1.
    public var line: Int
    /// The column, from 1, in bytes.
    public var column: Int
    /// The byte offset from the start of the input (of the decompressed bytes for gzip), from 0.
    public var offset: Int64

    /// The position at `line`, `column` (both from 1) and byte `offset` (from 0).
    public init(line: Int, column: Int, offset: Int64) {
        self.line = line
        self.column = column
        self.offset = offset
    }

    /// `line:column`.
    public var description: String { "\(line):\(column)" }
}
