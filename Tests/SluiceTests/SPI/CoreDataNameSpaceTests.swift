import Foundation
import SluiceTestSupport
import Testing

/// `check --layout coredata` accepts exactly what an import into a new Core Data store can
/// write, over generated models of names of every kind (`CoreDataNameCase`; the fuzz target's
/// `coredata` mode runs the same property on models chosen by its bytes).
@Suite struct CoreDataNameSpaceTests {
    static let cases = 600

    @Test func checkAcceptsExactlyWhatTheImportWrites() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sluice-names-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var random = PropertyRandom(seed: 5_203)
        var accepted = 0
        for index in 0..<Self.cases {
            let model = CoreDataNameCase { random.below($0) }
            var wasAccepted = false
            let problem = model.check(in: directory, accepted: &wasAccepted)
            #expect(problem == nil, "case \(index): \(model)\n\(model.contents)")
            if wasAccepted { accepted += 1 }
        }
        // The generator must reach both sides.
        #expect(accepted > Self.cases / 8 && accepted < Self.cases * 7 / 8, "accepted \(accepted) of \(Self.cases)")
    }
}
