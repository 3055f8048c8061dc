import SluiceTestSupport
import Synchronization
import Testing
@testable import Sluice

/// The stages of `finish()` as `ImportOptions.progress` hears of them, and the seconds of each
/// phase in the report (`docs/library.md`, `ImportProgress` and `ImportReport`).
@Suite struct FinishingStagesTests {
    static let model: Model = try! Model.parse(Array("""
        { "root": { "items": "Item", "boxes": "Box" },
          "entities": {
            "Item": { "table": "items", "identity": "id", "attributes": { "id": "integer" },
                      "relationships": { "box": { "entity": "Box", "key": "box" } } },
            "Box": { "table": "boxes", "identity": "id", "attributes": { "id": "integer" } } } }
        """.utf8), sourceName: "model")

    /// Items naming boxes that come after them, in batches of 10: their links wait for the
    /// second pass.
    static let input = Array(("{\"items\": [" + (0..<100).map { "{\"id\": \($0), \"box\": \($0 % 7)}" }.joined(separator: ",")
        + "], \"boxes\": [" + (0..<7).map { "{\"id\": \($0)}" }.joined(separator: ",") + "]}").utf8)

    static func importing(options: ImportOptions, into path: String) throws -> ImportReport {
        var options = options
        options.batchSize = 10
        let importer = try Importer(databasePath: path, model: model, options: options)
        try importer.importBytes(input)
        return try importer.finish()
    }

    @Test func eachStageIsReportedInOrder() throws {
        let directory = TemporaryDirectory()
        let calls = ImportProgressTests.Calls()
        var options = ImportOptions()
        options.progress = { calls.append($0) }
        options.deleteMissing = true
        options.analyze = true
        options.vacuum = true
        _ = try Self.importing(options: options, into: directory.file("t.sqlite"))

        var stages: [ImportProgress.Stage] = []
        for call in calls.all where call.stage.isFinishing && stages.last != call.stage { stages.append(call.stage) }
        // Every item came in a batch before the boxes: all 100 links wait.
        let total = 100
        #expect(stages == [
            .finishing,
            .linking(relationship: "Item.box", done: 0, total: total), .linking(relationship: "Item.box", done: total, total: total),
            .indexing(name: "items_box_pk"),
            .deleting(entity: "Item"), .deleting(entity: "Box"),
            .analyzing, .committing, .vacuuming,
        ])
        #expect(calls.all.prefix { !$0.stage.isFinishing }.allSatisfy { $0.stage == .reading })
        #expect(zip(calls.all, calls.all.dropFirst()).allSatisfy { $0.seconds <= $1.seconds }, "the time never goes back")
    }

    @Test func thePhasesAddUpToAtMostTheImportsTime() throws {
        let directory = TemporaryDirectory()
        var options = ImportOptions()
        options.deleteMissing = true
        options.analyze = true
        options.vacuum = true
        let report = try Self.importing(options: options, into: directory.file("t.sqlite"))

        let phases = report.phases
        #expect(phases.linking.map(\.relationship) == ["Item.box"])
        let all = [phases.reading, phases.linkingTotal, phases.indexing, phases.deleting, phases.analyzing,
                   phases.committing, phases.vacuuming]
        #expect(all.allSatisfy { $0 >= 0 }, "\(phases)")
        #expect(phases.reading > 0 && phases.committing > 0 && phases.vacuuming > 0, "\(phases)")
        #expect(phases.total <= report.seconds, "\(phases) in \(report.seconds) s")
        #expect(report.links == 100)

        // Without the options those phases are 0, and a re-import links nothing.
        let again = try Self.importing(options: ImportOptions(), into: directory.file("t.sqlite"))
        #expect(again.phases.linking.isEmpty && again.phases.deleting == 0 && again.phases.analyzing == 0
                && again.phases.vacuuming == 0 && again.phases.indexing == 0, "\(again.phases)")
        #expect(again.phases.total <= again.seconds)
    }

    /// The report's peak memory is the whole run's, the commit and the vacuum included
    /// (`docs/cli.md`, `peakMemoryBytes`): the report is made before the commit, and a vacuum
    /// can be a run's peak. Here the vacuum is made the peak: when it begins, the progress
    /// callback touches more memory than the process ever held.
    @Test func thePeakMemoryCoversTheVacuum() throws {
        let directory = TemporaryDirectory()
        let raised = Mutex<(before: Int64, after: Int64)?>(nil)
        var options = ImportOptions()
        options.vacuum = true
        options.progress = { progress in
            guard progress.stage == .vacuuming else { return }
            raised.withLock { $0 = $0 ?? Self.raisePeak(by: 32 << 20) }
        }
        let report = try Self.importing(options: options, into: directory.file("t.sqlite"))

        let peak = try #require(raised.withLock { $0 })
        #expect(peak.after >= peak.before + 32 << 20, "the peak was raised")
        #expect(report.peakMemoryBytes >= peak.after, "\(report.peakMemoryBytes) against \(peak)")
    }

    /// Raises the process's peak resident memory by at least `extra` bytes: touches a page
    /// at a time more memory than the peak so far, then gives it back. Returns the peak before
    /// and after.
    static func raisePeak(by extra: Int) -> (before: Int64, after: Int64) {
        let before = PeakMemory.residentBytes()
        let count = Int(before) + extra
        let page = 4096
        let memory = UnsafeMutableRawPointer.allocate(byteCount: count, alignment: page)
        defer { memory.deallocate() }
        for offset in stride(from: 0, to: count, by: page) { memory.storeBytes(of: 1, toByteOffset: offset, as: UInt8.self) }
        // Read back, so that the stores cannot be left out.
        var touched = 0
        for offset in stride(from: 0, to: count, by: page) { touched += Int(memory.load(fromByteOffset: offset, as: UInt8.self)) }
        precondition(touched == (count + page - 1) / page)
        return (before, PeakMemory.residentBytes())
    }
}
