import Foundation
import SluiceTestSupport
import Testing
@testable import Sluice

/// `Importer.withImport`: committed when the closure returns, rolled back when it throws.
@Suite struct ScopedImportTests {
    static let model = #"{"root": "V", "entities": {"V": {"table": "v", "identity": "id", "attributes": {"id": "integer"}}}}"#

    @Test func returningCommits() throws {
        let directory = TemporaryDirectory()
        let model = try Model.parse(Array(Self.model.utf8), sourceName: "model.json")
        let report = try Importer.withImport(.file(directory.file("v.sqlite"), model: model)) { importer in
            try importer.importBytes(Array(#"[{"id": 1}, {"id": 2}]"#.utf8), name: "a.json")
            try importer.importBytes(Array(#"{"id": 3}"#.utf8), name: "b.json")
        }
        #expect(report.inserted == 3)
        #expect(try query(directory.file("v.sqlite"), "SELECT count(*) FROM v") == [[.integer(3)]])
    }

    /// The closure's own error, after an input was imported: rolled back, the new database not
    /// created, the error as thrown.
    @Test func throwingRollsBack() throws {
        let directory = TemporaryDirectory()
        let model = try Model.parse(Array(Self.model.utf8), sourceName: "model.json")
        #expect {
            _ = try Importer.withImport(.file(directory.file("v.sqlite"), model: model)) { importer in
                try importer.importBytes(Array(#"{"id": 1}"#.utf8))
                throw SluiceError(.usage, "changed my mind")
            }
        } throws: { error in
            "\(error)" == "changed my mind"
        }
        #expect(!directory.exists("v.sqlite"))
    }

    @Test func zeroConfigToo() throws {
        let directory = TemporaryDirectory()
        let report = try Importer.withImport(.file(directory.file("z.sqlite"), table: "t")) { importer in
            try importer.importBytes(Array(#"{"a": "x"}"#.utf8))
        }
        #expect(report.inserted == 1)
    }
}
