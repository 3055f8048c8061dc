/// How far an import has come, handed to `ImportOptions.progress` once per input chunk, and
/// once more when the import finishes (`stage`).
///
/// Bytes are counted as stored: for gzip input, the compressed bytes taken from the file, so
/// they compare with the file's size. Records are the records assembled so far (of every
/// entity, nested ones included), before they are written.
public struct ImportProgress: Sendable, Equatable {
    /// Bytes read so far from all the inputs of this import.
    public var bytesRead: Int64
    /// The inputs finished so far plus the size of the one being read, when that size is known
    /// (a regular file, or standard input redirected from one); nil for a pipe or a terminal.
    /// An importer learns of an input only when it is given it: a caller that imports several
    /// files and wants one total adds the sizes of the files still to come.
    public var totalBytes: Int64?
    public var records: Int
    /// Since the importer was opened.
    public var seconds: Double
    public var stage: Stage

    /// What the import is doing.
    public enum Stage: Sendable, Equatable {
        /// Reading its inputs: reported once per chunk.
        case reading
        /// Every input is read; the last batch, the second pass over references that came
        /// before their targets, the indexes built after the load and the commit run now, which
        /// can take a while on a big linked import. Reported once, when `finish()` begins.
        case finishing
    }

    public init(bytesRead: Int64, totalBytes: Int64?, records: Int, seconds: Double, stage: Stage = .reading) {
        self.bytesRead = bytesRead
        self.totalBytes = totalBytes
        self.records = records
        self.seconds = seconds
        self.stage = stage
    }
}
