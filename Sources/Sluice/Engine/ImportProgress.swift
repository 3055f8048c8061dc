/// How far an import has come, handed to `ImportOptions.progress` once per input chunk.
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

    public init(bytesRead: Int64, totalBytes: Int64?, records: Int, seconds: Double) {
        self.bytesRead = bytesRead
        self.totalBytes = totalBytes
        self.records = records
        self.seconds = seconds
    }
}
