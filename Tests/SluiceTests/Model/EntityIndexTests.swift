import Synchronization
import SluiceTestSupport
import Testing
@testable import Sluice

/// A model's entities by name and parent (`Model.EntityIndex`): made once, never stale, and
/// not made again for each file of a feed of many unknown files.
@Suite struct EntityIndexTests {
    private static func entity(_ name: String, parent: String? = nil) -> Model.Entity {
        Model.Entity(name: name, attributes: [], parent: parent)
    }

    /// Every change of `entities` is seen by the next lookup: an appended entity, a renamed
    /// one, a new parent; a copy made before the change keeps its own answers.
    @Test func lookupsFollowEveryChangeOfTheEntities() {
        var model = Model(entities: [Self.entity("A"), Self.entity("B")])
        #expect(model.entity(named: "B")?.name == "B")
        #expect(model.entity(named: "C") == nil)
        #expect(!model.hasDescendants("A"))
        let before = model

        model.entities.append(Self.entity("C", parent: "A"))
        #expect(model.position(ofEntity: "C") == 2)
        #expect(model.hasDescendants("A"))
        #expect(model.familyRoot(of: "C") == "A")

        model.entities[1].name = "D"
        #expect(model.entity(named: "B") == nil)
        #expect(model.position(ofEntity: "D") == 1)

        model.entities[2].parent = nil
        #expect(!model.hasDescendants("A"))
        model.entities.removeFirst()
        #expect(model.position(ofEntity: "D") == 0)
        #expect(model.entity(named: "A") == nil)

        #expect(before.position(ofEntity: "B") == 1)
        #expect(before.entity(named: "C") == nil)
        #expect(!before.hasDescendants("A"))
    }

    /// The first of two entities of one name is found, as a scan finds it (a model file
    /// cannot repeat a name; one built in code can, and validation reports it).
    @Test func aRepeatedNameFindsTheFirst() {
        let model = Model(entities: [Model.Entity(name: "A", table: "first", attributes: []),
                                     Model.Entity(name: "A", table: "second", attributes: [])])
        #expect(model.entity(named: "A")?.table == "first")
    }

    /// How many times an import of `--model gtfs` (the command's steps: unknown files kept,
    /// then the import) indexes a model, for a feed with `extraFiles` files the model does
    /// not know, each a table of its own.
    private static func indexesMade(extraFiles: Int) throws -> (count: Int, tables: Int) {
        let directory = TemporaryDirectory()
        var entries: [ZipBuilder.Entry] = [
            .init("agency.txt", Array("agency_id,agency_name,agency_url,agency_timezone\nA,Agency,http://a.example,Europe/Berlin\n".utf8)),
            .init("stops.txt", Array("stop_id,stop_name,stop_lat,stop_lon\nS1,One,52.5,13.4\n".utf8)),
            .init("routes.txt", Array("route_id,agency_id,route_short_name,route_type\nR1,A,1,3\n".utf8)),
            .init("trips.txt", Array("route_id,service_id,trip_id\nR1,C1,T1\n".utf8)),
            .init("stop_times.txt", Array("trip_id,arrival_time,departure_time,stop_id,stop_sequence\nT1,08:00:00,08:00:00,S1,1\n".utf8)),
        ]
        entries += (0..<extraFiles).map { .init("x\($0).txt", Array("a,b\n\($0),2\n".utf8), method: .stored) }
        let feed = directory.file("feed.zip")
        try directory.writeFile(try ZipBuilder(entries).bytes(), named: "feed.zip")
        let database = directory.file("out.sqlite")
        var options = ImportOptions()
        options.keyNotes = .unmappedKeys
        let counter = Mutex(0)
        try Model.$indexMade.withValue({ counter.withLock { $0 += 1 } }) {
            let kept = UnknownCSV.keep(in: try ModelFile(builtIn: .gtfs).model, inputs: [feed], options: options, database: database)
            #expect(kept.files.count == extraFiles)
            let importer = try Importer(databasePath: database, model: kept.model, options: options)
            try importer.importFile(feed)
            _ = try importer.finish()
        }
        let connection = try Connection(path: database, mode: .readOnly)
        let tables = try connection.rows(#"SELECT count(*) FROM "sqlite_master" WHERE "type" = 'table' AND "name" LIKE 'x%'"#)
        guard case .integer(let count)? = tables.first?.first else { return (counter.withLock { $0 }, -1) }
        return (counter.withLock { $0 }, Int(count))
    }

    /// A feed of 2,000 unknown files indexes its model as many times as one of 100: each file
    /// adds an entity, and the compile and validation look entities up by name for each
    /// entity, so a model indexed again per file (or scanned per lookup) made the import
    /// quadratic in the files (5,000 files took 381 s).
    @Test func aFeedOfManyFilesIndexesItsModelAsOftenAsAFeedOfFew() throws {
        let few = try Self.indexesMade(extraFiles: 100)
        let many = try Self.indexesMade(extraFiles: 2_000)
        #expect(few.tables == 100)
        #expect(many.tables == 2_000)
        #expect(few.count > 0)
        #expect(many.count == few.count, "\(few.count) indexes for 100 files, \(many.count) for 2,000")
    }
}
