import Foundation
import SluiceTestSupport
import Testing
@testable import Sluice

/// The Swift examples users copy from the docs compile: each block is in `DocExamples.swift`,
/// which the test target compiles, and the examples with state run.
@Suite struct DocExamplesTests {
    /// Every ```swift block of the pages, but Package.swift manifests (not Swift of a target)
    /// and `import` lines (the examples file has its own).
    @Test(arguments: ["docs/library.md", "README.md"])
    func everySwiftBlockIsCompiled(_ page: String) throws {
        let compiled = try String(contentsOfFile: PackageFiles.path("Tests/SluiceTests/Library/DocExamples.swift"), encoding: .utf8)
            .split(separator: "\n", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        let text = try String(contentsOfFile: PackageFiles.path(page), encoding: .utf8)
        var blocks: [[String]] = []
        var current: [String]?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if current == nil, trimmed == "```swift" { current = []; continue }
            if current != nil, trimmed == "```" { blocks.append(current!); current = nil; continue }
            current?.append(trimmed)
        }
        #expect(!blocks.isEmpty)
        for block in blocks where !block.contains(where: { $0.hasPrefix("// Package.swift") }) {
            let lines = block.filter { !$0.hasPrefix("import ") && !$0.isEmpty }
            let found = compiled.indices.contains { start in
                start + lines.count <= compiled.count && Array(compiled[start..<start + lines.count]) == lines
            }
            #expect(found, "\(page): not in DocExamples.swift as written:\n\(lines.joined(separator: "\n"))")
        }
    }

    @Test func theProgressExampleKeepsTheLatest() throws {
        let directory = TemporaryDirectory()
        let latest = try DocExamples.progress(importing: "{\"a\": 1}\n{\"a\": 2}\n", into: directory.file("p.sqlite"))
        #expect(latest?.records == 2)
    }

    @Test func thePKsExampleCollectsEveryRow() throws {
        let directory = TemporaryDirectory()
        let pks = try DocExamples.collectingPKs(importing: #"[{"stop_id": "a"}, {"stop_id": "b"}]"#,
                                                model: DocExamples.modelInCode(), into: directory.file("s.sqlite"))
        #expect(pks == [1, 2])
    }
}
