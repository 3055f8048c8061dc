import Sluice
import Testing
@testable import SluiceCLI

/// The progress bar's text: a pure function of the progress and the terminal's width.
@Suite struct ProgressLineTests {
    static let mib: Int64 = 1 << 20

    /// A quarter of 40 MiB in 2 s at 50,000 records/s: 6 s to go.
    static let quarter = ImportProgress(bytesRead: 10 * mib, totalBytes: 40 * mib, records: 100_000, seconds: 2)

    @Test func knownTotalShowsBarPercentBytesRateAndETA() {
        #expect(ProgressLine.render(Self.quarter, width: 100)
            == "[=======>                      ]   25%  10.0 MiB of 40.0 MiB  50,000 records/s  ETA 0:06")
    }

    @Test func unknownTotalShowsBytesRecordsRateAndTime() {
        let piped = ImportProgress(bytesRead: 5 * Self.mib, totalBytes: nil, records: 1_234_567, seconds: 42)
        #expect(ProgressLine.render(piped, width: 100) == "5.0 MiB  1,234,567 records  29,394 records/s  0:42")
        // Narrow: the time goes, then the rate; bytes and records stay.
        #expect(ProgressLine.render(piped, width: 45) == "5.0 MiB  1,234,567 records  29,394 records/s")
        #expect(ProgressLine.render(piped, width: 30) == "5.0 MiB  1,234,567 records")
    }

    @Test func narrowTerminalDropsTheRateThenTheBytesThenTheBar() {
        #expect(ProgressLine.render(Self.quarter, width: 80)
            == "[=====>               ]   25%  10.0 MiB of 40.0 MiB  50,000 records/s  ETA 0:06")
        #expect(ProgressLine.render(Self.quarter, width: 60)
            == "[====>              ]   25%  10.0 MiB of 40.0 MiB  ETA 0:06")
        #expect(ProgressLine.render(Self.quarter, width: 40) == "[=====>               ]   25%  ETA 0:06")
        #expect(ProgressLine.render(Self.quarter, width: 20) == " 25%  ETA 0:06")
        #expect(ProgressLine.render(Self.quarter, width: 10) == " 25%")
        #expect(ProgressLine.render(Self.quarter, width: 3) == " 2")
    }

    @Test func neverReachesTheLastColumn() {
        let piped = ImportProgress(bytesRead: 5 * Self.mib, totalBytes: nil, records: 1_234_567, seconds: 42)
        for width in 1...200 {
            for progress in [Self.quarter, piped] {
                let line = ProgressLine.render(progress, width: width)
                #expect(line.count < max(2, width), "width \(width): \(line)")
                #expect(!line.contains("\n") && !line.contains("\r"))
            }
        }
    }

    @Test func finishingShowsWhatIsLeftWithRecordsAndTime() {
        let finishing = ImportProgress(bytesRead: 40 * Self.mib, totalBytes: 40 * Self.mib, records: 1_234_567, seconds: 42,
                                       stage: .finishing)
        #expect(ProgressLine.render(finishing, width: 80) == "finishing: writing the last records  1,234,567 records  0:42")
        // Narrow: the records go first; the time, which moves while a statement runs, stays.
        #expect(ProgressLine.render(finishing, width: 50) == "finishing: writing the last records  0:42")
        #expect(ProgressLine.render(finishing, width: 20) == "finishing: writing ")
    }

    @Test func eachStageOfTheFinishSaysWhatRuns() {
        func line(_ stage: ImportProgress.Stage, width: Int = 100) -> String {
            ProgressLine.render(ImportProgress(bytesRead: 1, totalBytes: 1, records: 3_114_000, seconds: 75, stage: stage),
                                width: width)
        }
        #expect(line(.linking(relationship: "StopTime.trip", done: 1_245_184, total: 3_000_000))
            == "finishing: linking StopTime.trip  1,245,184 of 3,000,000  3,114,000 records  1:15")
        #expect(line(.linking(relationship: "StopTime.trip", done: 1_245_184, total: 3_000_000), width: 70)
            == "finishing: linking StopTime.trip  1,245,184 of 3,000,000  1:15")
        #expect(line(.linking(relationship: "StopTime.trip", done: 1_245_184, total: 3_000_000), width: 45)
            == "finishing: linking StopTime.trip  1:15")
        #expect(line(.indexing(name: "stop_times_trip_pk")) == "finishing: building index stop_times_trip_pk  3,114,000 records  1:15")
        #expect(line(.deleting(entity: "Stop")) == "finishing: deleting Stop rows not in the input  3,114,000 records  1:15")
        #expect(line(.analyzing) == "finishing: ANALYZE  3,114,000 records  1:15")
        #expect(line(.committing) == "finishing: committing  3,114,000 records  1:15")
        #expect(line(.vacuuming) == "finishing: VACUUM  3,114,000 records  1:15")
    }

    @Test func noETABeforeThereIsARate() {
        let start = ImportProgress(bytesRead: 0, totalBytes: 40 * Self.mib, records: 0, seconds: 0)
        #expect(ProgressLine.render(start, width: 80) == "[>                             ]    0%  0 bytes of 40.0 MiB  0 records/s")
    }

    @Test func doneAndBeyondShowAFullBar() {
        let done = ImportProgress(bytesRead: 40 * Self.mib, totalBytes: 40 * Self.mib, records: 9, seconds: 3)
        #expect(ProgressLine.render(done, width: 60) == "[===================]  100%  40.0 MiB of 40.0 MiB  ETA 0:00")
        // A file that grew while it was read.
        let grown = ImportProgress(bytesRead: 41 * Self.mib, totalBytes: 40 * Self.mib, records: 9, seconds: 3)
        #expect(ProgressLine.render(grown, width: 60).hasPrefix("[===================]  100%  41.0 MiB of 40.0 MiB"))
    }

    @Test func numbersAsTheyArePrinted() {
        #expect([0, 7, 999, 1_000, 65_536, 1_234_567, -1_234].map(Format.grouped)
            == ["0", "7", "999", "1,000", "65,536", "1,234,567", "-1,234"])
        #expect([0, 6.4, 65, 3_723, -.infinity].map(Format.duration) == ["0:00", "0:06", "1:05", "1:02:03", "0:00"])
        #expect(Format.rate(10, seconds: 0) == "0")
        #expect([1_023, 1_024, 20_787, 3 << 30].map { Format.bytes(Int64($0)) }
            == ["1023 bytes", "1.0 KiB", "20.3 KiB", "3.0 GiB"])
    }
}
