extension Cell {
    /// The most bytes a text or blob cell holds: a cell keeps its byte count in 32 bits
    /// (`count`), so a value of 2 GiB or more cannot be one, and `--max-value-bytes` allows no
    /// more.
    static let maxByteCount = Int(Int32.max)
}
