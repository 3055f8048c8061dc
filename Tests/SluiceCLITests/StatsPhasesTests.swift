import Foundation
import SluiceTestSupport
import Testing

/// `--stats`'s `phases` (`docs/cli.md`): the seconds of each phase of the import.
@Suite struct StatsPhasesTests {
    static let keys: Set = ["reading", "linking", "linkingByRelationship", "indexing", "deleting", "analyzing",
                            "committing", "vacuuming"]

    /// The import's `--stats` JSON: its `seconds` and its `phases`.
    static func phases(_ arguments: [String], in workspace: Workspace) throws -> (seconds: Double, phases: [String: Any]) {
        let result = try workspace.sluice(["import", "--db", "t.sqlite", "--model", "model.json", "--batch-size", "50",
                                           "--stats", "s.json", "in.json"] + arguments)
        #expect(result.status == 0, "\(result)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(workspace.bytes(of: "s.json") ?? [])) as? [String: Any])
        let seconds = try #require((json["seconds"] as? NSNumber)?.doubleValue)
        return (seconds, try #require(json["phases"] as? [String: Any]))
    }

    @Test func everyPhaseIsThereNonNegativeAndTheyAddUpToAtMostTheTotal() throws {
        let workspace = Workspace()
        try workspace.write(Array(ProgressFinishingTests.model.utf8), to: "model.json")
        try workspace.write(ProgressFinishingTests.input(items: 2_000, boxes: 10), to: "in.json")

        for arguments in [["--delete-missing", "--analyze", "--vacuum"], []] {
            let (seconds, phases) = try Self.phases(arguments, in: workspace)
            #expect(Set(phases.keys) == Self.keys, "\(phases)")
            let byRelationship = try #require(phases["linkingByRelationship"] as? [String: NSNumber])
            var sum = 0.0
            for key in Self.keys.subtracting(["linkingByRelationship"]) {
                let value = try #require((phases[key] as? NSNumber)?.doubleValue, "\(key)")
                #expect(value >= 0, "\(key): \(value)")
                sum += value
            }
            #expect(sum <= seconds, "\(phases) in \(seconds) s")
            #expect(byRelationship.values.allSatisfy { $0.doubleValue >= 0 })
            if arguments.isEmpty {
                // The re-import: every link is known, nothing waits for a second pass.
                #expect(byRelationship.isEmpty, "\(phases)")
                #expect((phases["vacuuming"] as? NSNumber)?.doubleValue == 0)
            } else {
                #expect(Set(byRelationship.keys) == ["Item.box"], "\(phases)")
                let linking = try #require((phases["linking"] as? NSNumber)?.doubleValue)
                #expect(abs(byRelationship.values.reduce(0) { $0 + $1.doubleValue } - linking) < 1e-9)
                #expect((phases["reading"] as? NSNumber)?.doubleValue ?? 0 > 0)
            }
        }
    }
}
