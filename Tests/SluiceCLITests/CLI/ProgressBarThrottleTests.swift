import Foundation
import Sluice
import Testing
@testable import SluiceCLI

/// `ProgressBar`: redraws throttled by the import's clock, totals that include the inputs
/// still to come, and a clear that is only written when something is drawn.
@Suite struct ProgressBarThrottleTests {
    /// Draws on a pipe and returns what was written.
    static func drawn(_ body: (ProgressBar) -> Void) throws -> String {
        let pipe = Pipe()
        let bar = ProgressBar(descriptor: pipe.fileHandleForWriting.fileDescriptor, width: 60)
        body(bar)
        try pipe.fileHandleForWriting.close()
        return String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    }

    static func progress(_ seconds: Double, bytes: Int64 = 100, total: Int64? = 1_000) -> ImportProgress {
        ImportProgress(bytesRead: bytes, totalBytes: total, records: 10, seconds: seconds)
    }

    @Test func atMostFourRedrawsASecond() throws {
        let text = try Self.drawn { bar in
            for tenth in 0...10 { bar.update(Self.progress(Double(tenth) / 10, bytes: Int64(tenth) * 100)) }
        }
        let frames = text.split(separator: "\r").map { $0.split(separator: "%")[0].suffix(3) }
        // Calls every 0.1 s: drawn at 0, 0.3, 0.6 and 0.9 s (0.25 s apart at least).
        #expect(frames == ["  0", " 30", " 60", " 90"], "\(text.debugDescription)")
    }

    @Test func theFinishingStageIsDrawnAtOnce() throws {
        let text = try Self.drawn { bar in
            bar.update(Self.progress(1))
            var finishing = Self.progress(1.1, bytes: 1_000)
            finishing.stage = .finishing
            bar.update(finishing)  // within the interval
        }
        #expect(text.split(separator: "\r").last?.hasPrefix("finishing: writing the last records  10 records  0:01") == true,
                "\(text.debugDescription)")
    }

    @Test func eachStageOfTheFinishIsDrawnAtOnceAndItsCountsEveryInterval() throws {
        let text = try Self.drawn { bar in
            var progress = Self.progress(1)
            for (seconds, stage) in [(1.0, ImportProgress.Stage.finishing),
                                     (1.05, .linking(relationship: "A.b", done: 0, total: 9)),
                                     (1.1, .linking(relationship: "A.b", done: 3, total: 9)),  // within the interval
                                     (1.3, .linking(relationship: "A.b", done: 6, total: 9)),
                                     (1.35, .committing), (1.4, .committing), (1.6, .committing)] {
                progress.seconds = seconds
                progress.stage = stage
                bar.update(progress)
            }
        }
        let frames = text.split(separator: "\r").map { $0.split(separator: "  ").prefix(2).joined(separator: "  ") }
        #expect(frames == ["finishing: writing the last records  10 records", "finishing: linking A.b  0 of 9",
                           "finishing: linking A.b  6 of 9", "finishing: committing  10 records",
                           "finishing: committing  10 records"], "\(text.debugDescription)")
    }

    @Test func theTotalIncludesTheInputsStillToCome() throws {
        let known = try Self.drawn { bar in
            bar.bytesToCome = 3_000
            bar.update(Self.progress(1))
        }
        #expect(known.contains("   2%  100 bytes of 3.9 KiB"), "\(known.debugDescription)")
        let unknown = try Self.drawn { bar in
            bar.bytesToCome = nil  // a later input is a pipe
            bar.update(Self.progress(1))
        }
        #expect(unknown == "\r100 bytes  10 records  10 records/s  0:01\u{1B}[K", "\(unknown.debugDescription)")
    }

    @Test func clearOnlyWhatWasDrawn() throws {
        #expect(try Self.drawn { $0.clear() } == "")
        let text = try Self.drawn { bar in
            bar.update(Self.progress(0))
            bar.clear()
            bar.clear()
        }
        #expect(text.hasSuffix("\u{1B}[K\r\u{1B}[K") && !text.hasSuffix("\r\u{1B}[K\r\u{1B}[K"), "\(text.debugDescription)")
    }
}
