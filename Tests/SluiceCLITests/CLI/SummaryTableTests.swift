@testable import Sluice
import Testing
@testable import SluiceCLI

/// The end-of-import summary: an aligned table per entity, totals, then one closing line.
@Suite struct SummaryTableTests {
    static func counts(_ entity: String, _ inserted: Int, _ updated: Int, _ unchanged: Int, _ rejected: Int,
                       deleted: Int = 0, links: Int? = nil, unresolved: Int = 0) -> ImportReport.EntityCounts {
        var counts = ImportReport.EntityCounts(entity: entity, hasRelationships: links != nil)
        (counts.inserted, counts.updated, counts.unchanged, counts.rejected) = (inserted, updated, unchanged, rejected)
        (counts.deleted, counts.links, counts.unresolved) = (deleted, links ?? 0, unresolved)
        return counts
    }

    static func report(_ entities: [ImportReport.EntityCounts]) -> ImportReport {
        ImportReport(entities: entities, sources: ["in.json"], bytes: 3 << 20, records: 1_234_567, seconds: 12.5,
                     peakMemoryBytes: 40 << 20)
    }

    @Test func oneEntityHasNoTotalsAndNoRelationshipColumns() {
        #expect(Summary.table(of: Self.report([Self.counts("T", 3, 1, 0, 12_345)])) == [
            "     inserted  updated  unchanged  rejected",
            "  T         3        1          0    12,345",
        ])
    }

    @Test func numbersAreRightAlignedNamesLeftAlignedWithTotals() {
        let report = Self.report([
            Self.counts("Stop", 76, 0, 0, 0, links: 38),
            Self.counts("Route", 1, 0, 0, 0),
            Self.counts("StopTime", 1_234_490, 0, 0, 0, links: 152, unresolved: 3),
        ])
        #expect(Summary.table(of: report) == [
            "             inserted  updated  unchanged  rejected  links  unresolved",
            "  Stop             76        0          0         0     38           0",
            "  Route             1        0          0         0      -           -",
            "  StopTime  1,234,490        0          0         0    152           3",
            "  total     1,234,567        0          0         0    190           3",
        ])
    }

    @Test func deletedColumnOnlyWhenRowsWereDeleted() {
        let none = Self.report([Self.counts("A", 1, 0, 2, 0, links: 0), Self.counts("B", 0, 0, 1, 0)])
        #expect(Summary.table(of: none).first?.contains("deleted") == false)

        let some = Self.report([Self.counts("A", 1, 0, 2, 0, deleted: 4, links: 0), Self.counts("B", 0, 0, 1, 0)])
        #expect(Summary.table(of: some) == [
            "         inserted  updated  unchanged  rejected  deleted  links  unresolved",
            "  A             1        0          2         0        4      0           0",
            "  B             0        0          1         0        0      -           -",
            "  total         1        0          3         0        4      0           0",
        ])
    }

    @Test func closingLineAfterTheTableThenUnresolvedReferences() {
        var report = Self.report([Self.counts("T", 1_234_567, 0, 0, 0, links: 0, unresolved: 2)])
        report.unresolvedExamples = [#"T.parent "X" at in.json:1:2"#, #"T.parent "Y" at in.json:3:2"#]
        let lines = Summary.text(of: report).split(separator: "\n").map(String.init)
        #expect(lines.count == 4)
        #expect(lines[2] == "sluice: imported 1,234,567 records (3.0 MiB) in 12.5 s, 98,765 records/s, peak memory 40.0 MiB")
        #expect(lines[3] == #"sluice: 2 references left unresolved (links left empty), first: T.parent "X" at in.json:1:2; T.parent "Y" at in.json:3:2"#)
    }

    @Test func anImportOfNothingIsOneLine() {
        let report = ImportReport(entities: [], sources: ["-"], bytes: 0, records: 0, seconds: 0, peakMemoryBytes: 1 << 20)
        #expect(Summary.text(of: report) == "sluice: imported 0 records (0 bytes) in 0.00 s, 0 records/s, peak memory 1.0 MiB")
    }
}
