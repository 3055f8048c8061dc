/// When a batch is full: at `batchSize` records, or earlier once they hold `batchSize ×
/// cellsPerRecord` values, so that a batch's memory is bounded by the values it holds, not by
/// its records. A GTFS stop time has 25 columns, most of them empty: 5,000 of them in each of
/// the three batches in flight (`BatchPipeline`) raised the import's peak by 9 MiB, and a
/// re-import's (which also holds the rows it found) by 11 MiB, over the 48 MiB it must stay
/// under; 2,000 a batch keep both under 45 MiB. Records of up to 10 columns (W1's 8, W2's 10)
/// fill their batches by count alone.
struct BatchLimit: Sendable, Equatable {
    static let cellsPerRecord = 10
    let records: Int
    let cells: Int

    /// `batchSize` below 1 counts as 1.
    init(batchSize: Int) {
        records = max(batchSize, 1)
        let (product, overflow) = records.multipliedReportingOverflow(by: Self.cellsPerRecord)
        cells = overflow ? .max : product
    }

    /// Whether a batch holding `records` records of `cells` values in all is full.
    func isReached(records: Int, cells: Int) -> Bool {
        records >= self.records || cells >= self.cells
    }
}
