import Testing
@testable import Sluice

@Suite struct ColumnKeysTests {
    @Test func aColumnIsUnknownUntilRemembered() {
        var columns = ColumnKeys()
        #expect(columns.match(0, in: 3) == ColumnKeys.unknown)
        columns.remember(0, in: 3, child: 7)
        columns.remember(1, in: 3, child: nil)
        #expect(columns.match(0, in: 3) == 7)
        #expect(columns.match(1, in: 3) == ColumnKeys.unmapped)
        #expect(columns.match(2, in: 3) == ColumnKeys.unknown)
    }

    @Test func anotherNodeOrHeaderForgetsTheColumns() {
        var columns = ColumnKeys()
        columns.remember(0, in: 3, child: 7)
        #expect(columns.match(0, in: 4) == ColumnKeys.unknown)
        columns.remember(1, in: 4, child: 8)
        #expect(columns.match(0, in: 3) == ColumnKeys.unknown)
        #expect(columns.match(0, in: 4) == ColumnKeys.unknown)
        #expect(columns.match(1, in: 4) == 8)
        columns.reset()
        #expect(columns.match(1, in: 4) == ColumnKeys.unknown)
    }

    @Test func wideHeadersGrowUpToTheLimit() {
        var columns = ColumnKeys()
        columns.remember(100, in: 0, child: 1)
        columns.remember(5, in: 0, child: 2)
        #expect(columns.match(100, in: 0) == 1)
        #expect(columns.match(5, in: 0) == 2)
        columns.remember(ColumnKeys.columnLimit, in: 0, child: 3)
        #expect(columns.match(ColumnKeys.columnLimit, in: 0) == ColumnKeys.unknown)
    }
}
