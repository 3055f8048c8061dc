import Foundation
import Testing
@testable import Sluice

/// An app shows `error.localizedDescription`: it reads as the command's error line does.
@Suite struct LocalizedErrorTests {
    @Test func aSluiceErrorReadsAsItsLine() {
        let error: any Error = SluiceError(.data, "expected a string, got a number", in: "stops.json",
                                           at: InputPosition(line: 3, column: 7, offset: 40))
        #expect(error.localizedDescription == "stops.json:3:7: expected a string, got a number")
    }

    @Test func aModelErrorListsItsProblems() {
        let error: any Error = ModelError(source: "model.json", problems: [
            ModelProblem(path: "entities.Stop.identity", message: "missing"),
            ModelProblem(path: "root", message: "unknown entity \"Stp\""),
        ])
        #expect(error.localizedDescription == "model.json: entities.Stop.identity: missing\nmodel.json: root: unknown entity \"Stp\"")
    }

    /// A real failure of the library, as an app meets it.
    @Test func anImportFailureReadsWell() throws {
        let model = try Model.parse(Array(#"{"root": "V", "entities": {"V": {"attributes": {"n": "integer"}}}}"#.utf8),
                                    sourceName: "model.json")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sluice-localized-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        do {
            try importJSON(#"[{"n": "x"}]"#, model: model, into: directory.appendingPathComponent("v.sqlite").path)
            Issue.record("expected the import to fail")
        } catch {
            #expect((error as any Error).localizedDescription.hasPrefix("in.json:1:2: "), "\(error.localizedDescription)")
            #expect(!(error as any Error).localizedDescription.contains("could not be completed"))
        }
    }
}
