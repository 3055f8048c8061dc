import Foundation
import SluiceTestSupport
import Testing
@testable import Sluice

/// `Importer.Database`: the database named by a value (an SQLite file, a PostgreSQL server,
/// Core Data's store), and the `URL` forms of files, through the library into real databases.
@Suite struct DatabaseValueTests {
    static let model = #"{"root": "V", "entities": {"V": {"table": "v", "identity": "id", "attributes": {"id": "integer", "name": "string"}}}}"#
    static let input = #"[{"id": 1, "name": "a"}, {"id": 2, "name": "b"}]"#

    /// Requires `body` to throw a usage error reading `message`.
    private static func usage(_ message: String, _ body: () throws -> Void) throws {
        do {
            try body()
            Issue.record("no error; expected: \(message)")
        } catch let error as SluiceError {
            #expect(error.kind == .usage)
            #expect("\(error)" == message)
        }
    }

    private func model() throws -> Model {
        try Model.parse(Array(Self.model.utf8), sourceName: "model.json")
    }

    /// The library's rejects file may not be the model's file either (`OutputPathCheck`): a
    /// usage error before the database is opened, the model as it was.
    @Test func theRejectsFileIsNotTheModelsFile() throws {
        let directory = TemporaryDirectory()
        try directory.writeFile(Array(Self.model.utf8), named: "model.json")
        var options = ImportOptions()
        options.rejectsPath = directory.file("model.json")
        let file = try ModelFile.load(path: directory.file("model.json"))

        try Self.usage("the rejects file '\(directory.file("model.json"))' is the model '\(directory.file("model.json"))'; "
            + "choose another path") {
            _ = try Importer(database: .sqlite(path: directory.file("v.sqlite")), modelFile: file, options: options)
        }
        #expect(directory.bytes(of: "model.json") == Array(Self.model.utf8))
        #expect(directory.contents == ["model.json"])
    }

    @Test func anSQLiteFileByPath() throws {
        let directory = TemporaryDirectory()
        let importer = try Importer(database: .sqlite(path: directory.file("v.sqlite")), model: try model())
        try importer.importBytes(Array(Self.input.utf8), name: "in.json")
        #expect(try importer.finish().inserted == 2)
        #expect(try query(directory.file("v.sqlite"), "SELECT id, name FROM v ORDER BY id")
            == [[.integer(1), .text("a")], [.integer(2), .text("b")]])
    }

    /// A file URL names the database, and a file URL each input.
    @Test func fileURLsForTheDatabaseAndTheInputs() throws {
        let directory = TemporaryDirectory()
        try Self.input.write(toFile: directory.file("in.json"), atomically: true, encoding: .utf8)
        let database = try Importer.Database.sqlite(URL(fileURLWithPath: directory.file("v.sqlite")))
        #expect(database == .sqlite(path: directory.file("v.sqlite")))
        let report = try Importer.withImport(.database(database, model: try model())) { importer in
            try importer.importFile(URL(fileURLWithPath: directory.file("in.json")))
        }
        #expect(report.sources == [directory.file("in.json")])
        #expect(try query(directory.file("v.sqlite"), "SELECT count(*) FROM v") == [[.integer(2)]])
    }

    @Test func aURLThatIsNotAFileIsAUsageError() throws {
        let directory = TemporaryDirectory()
        let web = try #require(URL(string: "https://example.com/stops.json"))
        #expect {
            _ = try Importer.Database.sqlite(web)
        } throws: { error in
            (error as? SluiceError)?.kind == .usage && "\(error)"
                == "Importer.Database.sqlite 'https://example.com/stops.json' is not a file URL: an SQLite database is a file"
        }
        let importer = try Importer(database: .sqlite(path: directory.file("v.sqlite")), model: try model())
        #expect {
            try importer.importFile(web)
        } throws: { error in
            (error as? SluiceError)?.kind == .usage && "\(error)"
                == "input 'https://example.com/stops.json' is not a file URL: download it first, or import its bytes as "
                + "they arrive: Importer.run(…, chunks:)"
        }
    }

    /// A path that looks like a URI is an SQLite file's path when the value says so, and a
    /// PostgreSQL URI must be one.
    @Test func theKindComesFromTheValueNotThePath() throws {
        let directory = TemporaryDirectory()
        let odd = directory.file("postgres1:")
        try FileManager.default.createDirectory(atPath: odd, withIntermediateDirectories: true)
        let importer = try Importer(database: .sqlite(path: odd + "/x.sqlite"), table: "t")
        try importer.importBytes(Array(#"{"a": 1}"#.utf8))
        _ = try importer.finish()
        #expect(try query(odd + "/x.sqlite", "SELECT a FROM t") == [[.integer(1)]])
        #expect {
            _ = try Importer(database: .postgreSQL(uri: directory.file("v.sqlite")), model: try model())
        } throws: { error in
            (error as? SluiceError)?.kind == .usage && "\(error)" == "Importer.Database.postgreSQL: '\(directory.file("v.sqlite"))' "
                + "is not a PostgreSQL URI (postgresql://… or postgres://…)"
        }
    }

    /// The command line's options that the value says instead are refused with it, and Core
    /// Data's store needs the model's file.
    @Test func whatTheValueSaysIsNotAlsoAnOption() throws {
        let directory = TemporaryDirectory()
        let database = Importer.Database.sqlite(path: directory.file("v.sqlite"))
        var layout = ImportOptions()
        layout.layout = .coreData
        try Self.usage("ImportOptions.layout is for Importer(databasePath:…); with an Importer.Database, "
                       + "Core Data's store is .coreDataStore(path:)") {
            _ = try Importer(database: database, model: try model(), options: layout)
        }
        var schema = ImportOptions()
        schema.schema = "other"
        try Self.usage("ImportOptions.schema is for Importer(databasePath:…); with an Importer.Database, "
                       + "the schema is .postgreSQL(uri:schema:)'s") {
            _ = try Importer(database: database, table: "t", options: schema)
        }
        try Self.usage("Importer.Database.coreDataStore is written from the Core Data model's file: "
                       + "use Importer(database:modelFile:options:)") {
            _ = try Importer(database: .coreDataStore(path: directory.file("c.sqlite")), model: try model())
        }
        try Self.usage("Importer.Database.coreDataStore needs a Core Data model: "
                       + "a zero-config import writes Sluice's layout") {
            _ = try Importer(database: .coreDataStore(path: directory.file("c.sqlite")), table: "t")
        }
        #expect(!directory.exists("v.sqlite") && !directory.exists("c.sqlite"))
    }

    /// Either form of naming the database becomes one address before the store is opened: an
    /// empty path is refused, and so is Core Data's layout, an SQLite file, into a PostgreSQL
    /// URI, before any connection is tried (no server listens on port 1).
    @Test func anEmptyPathAndCoreDatasLayoutIntoPostgreSQLAreRefused() throws {
        try Self.usage("Importer.Database: the database's path is empty") {
            _ = try Importer(database: .sqlite(path: ""), model: try model())
        }
        let file = try ModelFile.load(path: PackageFiles.path("LargeFixtures/models/Document.xcdatamodel"))
        var options = ImportOptions()
        options.layout = .coreData
        options.entity = "StopTime"
        try Self.usage("database 'postgresql://u@localhost:1/db': a Core Data store is an SQLite file; give its path with --db") {
            _ = try Importer(databasePath: "postgresql://u@localhost:1/db", modelFile: file, options: options)
        }
    }

    @Test(.enabled(if: PostgresServer.isAvailable, "needs PostgreSQL's server binaries"))
    func aPostgreSQLServerWithItsSchema() async throws {
        let server = try PostgresServer.started()
        let name = try server.makeDatabase()
        let directory = TemporaryDirectory()
        try Self.input.write(toFile: directory.file("in.json"), atomically: true, encoding: .utf8)
        let report = try await Importer.run(.database(.postgreSQL(uri: server.uri(name), schema: "transit"), model: try model()),
                                            inputs: [URL(fileURLWithPath: directory.file("in.json"))])
        #expect(report.inserted == 2)
        #expect(try server.rows(name, "SELECT id, name FROM transit.v ORDER BY id") == ["1|a", "2|b"])
    }

    /// Core Data's store, named as one, written through a Core Data model's file.
    @Test func aCoreDataStore() throws {
        let directory = TemporaryDirectory()
        let modelFolder = directory.file("Transit.xcdatamodel")
        try FileManager.default.createDirectory(atPath: modelFolder, withIntermediateDirectories: true)
        try """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
                <entity name="Stop" representedClassName="Stop">
                    <attribute name="stopID" attributeType="String"/>
                    <attribute name="name" optional="YES" attributeType="String"/>
                </entity>
            </model>
            """.write(toFile: modelFolder + "/contents", atomically: true, encoding: .utf8)
        let file = try ModelFile.load(path: modelFolder)
        var options = ImportOptions()
        options.entity = "Stop"
        let store = directory.file("Seed.sqlite")
        let report = try Importer.withImport(.database(.coreDataStore(path: store), modelFile: file), options: options) { importer in
            try importer.importBytes(Array(#"[{"stopID": "s1", "name": "Alex"}, {"stopID": "s2", "name": "Zoo"}]"#.utf8))
        }
        #expect(report.inserted == 2)
        #expect(try query(store, "SELECT ZSTOPID, ZNAME FROM ZSTOP ORDER BY Z_PK") == [[.text("s1"), .text("Alex")], [.text("s2"), .text("Zoo")]])
        #expect(try query(store, "SELECT count(*) FROM sqlite_master WHERE name = 'sluice_imports'") == [[.integer(0)]])
    }

    /// The async forms: a run started with a value, followed, awaited.
    @Test func startedAndAwaited() async throws {
        let directory = TemporaryDirectory()
        try "{\"a\": \"x\"}\n{\"a\": \"y\"}\n".write(toFile: directory.file("in.ndjson"), atomically: true, encoding: .utf8)
        let run = Importer.start(.database(.sqlite(path: directory.file("z.sqlite")), table: "t"),
                                 inputs: [URL(fileURLWithPath: directory.file("in.ndjson"))])
        var last: ImportProgress?
        for await progress in run.progress { last = progress }
        #expect(try await run.report.inserted == 2)
        #expect(last?.records == 2)
        let (chunks, feed) = AsyncStream<[UInt8]>.makeStream()
        feed.yield(Array(#"{"id": 7, "na"#.utf8))
        feed.yield(Array(#"me": "q"}"#.utf8))
        feed.finish()
        let report = try await Importer.run(.database(.sqlite(path: directory.file("v.sqlite")), model: try model()), chunks: chunks)
        #expect(report.inserted == 1)
        #expect(try query(directory.file("v.sqlite"), "SELECT id, name FROM v") == [[.integer(7), .text("q")]])
    }
}
