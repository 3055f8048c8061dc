import Testing
@testable import Sluice

/// `FreeformRow`: a zero-config record's values by table column, each column bound once per
/// record in the order its keys came, keys without a column left out, reused from record to
/// record.
@Suite struct FreeformRowTests {
    static let place = InputPosition(line: 1, column: 1, offset: 0)

    @Test func aRecordBindsItsColumnsOnceInKeyOrder() {
        var row = FreeformRow(tableColumns: 3)
        // Record columns 0, 1, 2 go to table columns 2, 0 and (a key met twice) 2 again.
        for column in [2, 0, 2] { row.addRecordColumn(column) }
        row.set(FreeformRecord(values: [.integer(1), .text("a"), .integer(3)], position: Self.place))
        #expect(row.bound == [2, 0])
        #expect(row.values[2] == .integer(3))  // the later value of the column wins
        #expect(row.values[0] == .text("a"))
    }

    @Test func missingValuesAndKeysWithoutAColumnAreLeftOut() {
        var row = FreeformRow(tableColumns: 2)
        for column in [0, -1, 1] { row.addRecordColumn(column) }
        row.set(FreeformRecord(values: [nil, .null, .integer(7)], position: Self.place))
        #expect(row.bound == [1])
        #expect(row.values[1] == .integer(7))
    }

    @Test func theNextRecordStartsWithNothingBound() {
        var row = FreeformRow(tableColumns: 1)
        row.addRecordColumn(0)
        row.set(FreeformRecord(values: [.integer(1)], position: Self.place))
        row.set(FreeformRecord(values: [nil], position: Self.place))
        #expect(row.bound == [])
        row.addTableColumn()
        row.addRecordColumn(1)
        row.set(FreeformRecord(values: [.integer(2), .text("b")], position: Self.place))
        #expect(row.bound == [0, 1])
        #expect(row.values == [.integer(2), .text("b")])
    }
}
