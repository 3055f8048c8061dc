import Foundation
import SluiceTestSupport
import Testing
@testable import Sluice

/// `importFile(_:entity:path:)` and `importBytes(_:name:entity:path:)`: the records of one
/// input are one entity's, as `--root` says of a file on the command line.
@Suite struct InputEntityTests {
    /// Stops are the model's root; trips are said per input.
    static let model = """
        {"root": "Stop", "entities": {
          "Stop": {"table": "stops", "identity": "id", "attributes": {"id": "string", "name": "string"}},
          "Trip": {"table": "trips", "identity": "id", "attributes": {"id": "string"},
                   "relationships": {"stop": {"entity": "Stop", "key": "stop_id"}}}}}
        """

    private func model() throws -> Model {
        try Model.parse(Array(Self.model.utf8), sourceName: "model.json")
    }

    /// Two inputs into two entities in one import: the file's records are trips (inside an
    /// envelope), the bytes' stops by the model's root; the trips link to the stops.
    @Test func twoInputsIntoTwoEntities() throws {
        let directory = TemporaryDirectory()
        try #"{"data": {"trips": [{"id": "t1", "stop_id": "s2"}, {"id": "t2", "stop_id": "s1"}]}}"#
            .write(toFile: directory.file("trips.json"), atomically: true, encoding: .utf8)
        let database = directory.file("transit.sqlite")
        let report = try Importer.withImport(.file(database, model: try model())) { importer in
            try importer.importFile(directory.file("trips.json"), entity: "Trip", path: "data.trips")
            try importer.importBytes(Array(#"[{"id": "s1", "name": "Alex"}, {"id": "s2", "name": "Zoo"}]"#.utf8), name: "stops.json")
        }
        #expect(report.entities.map { "\($0.entity) \($0.inserted)" } == ["Stop 2", "Trip 2"])
        #expect(try query(database, "SELECT id, name FROM stops ORDER BY id") == [[.text("s1"), .text("Alex")], [.text("s2"), .text("Zoo")]])
        #expect(try query(database, "SELECT trips.id, stops.id FROM trips JOIN stops ON stops.pk = trips.stop_pk ORDER BY trips.id")
            == [[.text("t1"), .text("s2")], [.text("t2"), .text("s1")]])
    }

    /// A CSV input's rows as one entity's, and a URL input too.
    @Test func aCSVInputAndAURL() throws {
        let directory = TemporaryDirectory()
        try "id,stop_id\nt1,s1\n".write(toFile: directory.file("t.csv"), atomically: true, encoding: .utf8)
        try #"{"id": "s1"}"#.write(toFile: directory.file("s.json"), atomically: true, encoding: .utf8)
        let database = directory.file("transit.sqlite")
        _ = try Importer.withImport(.file(database, model: try model())) { importer in
            try importer.importFile(directory.file("t.csv"), entity: "Trip")
            try importer.importFile(URL(fileURLWithPath: directory.file("s.json")), entity: "Stop")
        }
        #expect(try query(database, "SELECT trips.id, stops.id FROM trips JOIN stops ON stops.pk = trips.stop_pk")
            == [[.text("t1"), .text("s1")]])
    }

    /// An entity the model lacks is `ImportOptions.entity`'s error; the import is rolled back.
    @Test func anUnknownEntityIsTheEntityOptionsError() throws {
        let directory = TemporaryDirectory()
        let database = directory.file("transit.sqlite")
        let importer = try Importer(databasePath: database, model: try model())
        try importer.importBytes(Array(#"{"id": "s1"}"#.utf8))
        var options = ImportOptions()
        options.entity = "Trp"
        let expected = "\(try #require(throwsError { _ = try Importer(databasePath: directory.file("other.sqlite"), model: try model(), options: options) }))"
        #expect(expected.contains(#"ImportOptions.entity: unknown entity "Trp""#), "\(expected)")
        let error = try #require(throwsError { try importer.importBytes(Array(#"{"id": "t1"}"#.utf8), entity: "Trp") })
        #expect(error.kind == .usage)
        #expect("\(error)" == expected)
        #expect(!directory.exists("transit.sqlite"))
        #expect(throwsError { _ = try importer.finish() }.map { "\($0)" } == "the import is over: finish() or cancel() was called before")
    }

    @Test func aZeroConfigImportHasNoEntities() throws {
        let directory = TemporaryDirectory()
        let importer = try Importer(databasePath: directory.file("z.sqlite"), table: "t")
        let error = try #require(throwsError { try importer.importBytes(Array(#"{"a": 1}"#.utf8), entity: "T") })
        #expect(error.kind == .usage)
        #expect("\(error)" == "importFile(_:entity:path:) needs a model: a zero-config import writes one table")
    }

    /// The SluiceError `body` throws, or nil.
    private func throwsError(_ body: () throws -> Void) -> SluiceError? {
        do {
            try body()
            return nil
        } catch {
            return error as? SluiceError
        }
    }
}
