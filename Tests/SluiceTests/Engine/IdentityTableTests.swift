import Testing
@testable import Sluice

struct IdentityTableTests {
    /// Each record's first record of the same identity (itself when it is the first), with
    /// identities of `parts` cells each.
    private func firsts(_ records: [[ColumnValue?]]) -> [Int] {
        var arena: [UInt8] = []
        let cells = records.map { $0.map { Cell($0, in: &arena) } }
        var table = IdentityTable()
        table.reset(count: records.count)
        return arena.withUnsafeBytes { bytes in
            cells.indices.map { record in
                guard let hash = IdentityTable.hash(cells[record], in: bytes) else { return -1 }
                return table.firstOrInsert(record, hash: hash) { other in
                    zip(cells[record], cells[other]).allSatisfy { $0.equals($1, in: bytes, otherArena: bytes) }
                } ?? record
            }
        }
    }

    @Test func recordsWithTheSameConvertedIdentityAreOne() {
        #expect(firsts([
            [.integer(42)], [.text("42")], [.integer(42)], [.text("42")], [.real(0)], [.real(-0.0)],
            [.text("")], [.blob([])], [.text("")], [nil], [.null], [.integer(42)],
        ]) == [0, 1, 0, 1, 4, 4, 6, 7, 6, -1, -1, 0])
    }

    @Test func compositeIdentitiesMatchOnEveryPart() {
        #expect(firsts([
            [.text("T1"), .integer(1)], [.text("T1"), .integer(2)], [.text("T1"), .integer(1)],
            [.text("T11"), .integer(1)], [.text("T1"), nil], [.text("T1"), .integer(2)],
        ]) == [0, 1, 0, 3, -1, 1])
    }

    @Test func manyRecordsSharingFewSlotsAreAllFound() {
        // 5,000 identities in a table of 16,384 slots, probing past each other on collisions.
        let records = (0..<5_000).map { [ColumnValue?.some(.integer(Int64($0 % 2_500)))] }
        let result = firsts(records)
        #expect(result == (0..<5_000).map { $0 % 2_500 })
    }
}
