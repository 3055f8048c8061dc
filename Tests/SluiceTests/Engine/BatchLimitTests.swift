import Testing
@testable import Sluice

/// A batch is full at `--batch-size` records, or earlier when they are wide: at 10 values a
/// record on average.
@Suite struct BatchLimitTests {
    @Test func narrowRecordsFillABatchByCount() {
        let limit = BatchLimit(batchSize: 5_000)
        // W2's stop times: 10 columns.
        #expect(!limit.isReached(records: 4_999, cells: 49_990))
        #expect(limit.isReached(records: 5_000, cells: 50_000))
    }

    @Test func wideRecordsFillItByTheirValues() {
        let limit = BatchLimit(batchSize: 5_000)
        // GTFS stop times: 25 columns, 2,000 of them a batch.
        #expect(!limit.isReached(records: 1_999, cells: 1_999 * 25))
        #expect(limit.isReached(records: 2_000, cells: 2_000 * 25))
    }

    @Test func theSmallestAndLargestSizes() {
        #expect(BatchLimit(batchSize: 0) == BatchLimit(batchSize: 1))
        #expect(BatchLimit(batchSize: 1).isReached(records: 1, cells: 1))
        let largest = BatchLimit(batchSize: .max)
        #expect(largest.cells == .max)
        #expect(!largest.isReached(records: 1_000_000, cells: 100_000_000))
    }
}
