import Foundation
import SluiceTestSupport
import Testing
@testable import Sluice

/// `--model gtfs` keeps the files and fields the reference does not know (SPEC section 12,
/// `docs/gtfs.md`): a field of a known file as a text column of its table, a file as a table of
/// text columns identified by all its fields; both reported, and a re-import writes nothing.
@Suite struct GTFSUnknownCSVTests {
    /// A feed with an extra field in stops.txt (one row leaves it empty) and an extra file.
    static func feed() throws -> [UInt8] {
        try ZipBuilder([
            .init("feed/stops.txt", Array("stop_id,stop_name,platform_name\r\ns1,One,A\r\ns2,\"Two, Main\",\r\n".utf8)),
            .init("feed/vehicles.txt", Array("vehicle_id,kind,seats\nv1,bus,40\nv2,,\n".utf8)),
            .init("feed/stop_times.txt", Array("trip_id,stop_sequence,stop_id\nt1,1,s2\n".utf8)),
        ]).bytes()
    }

    static let keptNotes = [
        "sluice: note: kept 1 field the model does not know, as text columns: stops.platform_name",
        "sluice: note: kept 1 file the model does not know, as tables of text columns identified by all their fields: "
            + "feed.zip:feed/vehicles.txt → vehicles",
    ]

    @Test(arguments: StoreKind.allCases.filter(\.isAvailable))
    func anExtraFieldAndFileAreKeptAndAReimportWritesNothing(_ kind: StoreKind) throws {
        let workspace = Workspace()
        try workspace.write(try Self.feed(), to: "feed.zip")
        let db = try kind.makeDatabase(in: workspace)
        let arguments = ["import", "--db", db.target, "--model", "gtfs", "feed.zip"]
        let first = try workspace.sluice(arguments)
        try #require(first.status == 0, "\(first)")
        // Named as kept; nothing is named as dropped or skipped.
        #expect(first.stderrLines.filter { $0.hasPrefix("sluice: note:") } == Self.keptNotes, "\(first)")
        #expect(first.entityLines.contains { $0.hasPrefix("vehicles: inserted 2, updated 0, unchanged 0,") }, "\(first)")
        #expect(try db.rows(#"SELECT "stop_id", "stop_name", "platform_name" FROM "stops" ORDER BY "pk""#)
            == ["s1|One|A", "s2|Two, Main|"])
        #expect(try db.rows(#"SELECT "platform_name" IS NULL FROM "stops" WHERE "stop_id" = 's2'"#).map { $0 == "1" || $0 == "t" }
            == [true])
        // Every field of the unknown file is text and its identity: an empty one is '' (whole identity).
        #expect(try db.rows(#"SELECT "vehicle_id", "kind", "seats" FROM "vehicles" ORDER BY "pk""#) == ["v1|bus|40", "v2||"])
        #expect(try db.rows(#"SELECT count(*) FROM "vehicles" WHERE "kind" = '' AND "seats" = ''"#) == ["1"])
        let linked = try db.rows(#"SELECT s."stop_id" FROM "stop_times" st JOIN "stops" s ON s."pk" = st."stop_pk""#)
        #expect(linked == ["s2"])

        let second = try workspace.sluice(arguments)
        try #require(second.status == 0, "\(second)")
        #expect(second.stderrLines.filter { $0.hasPrefix("sluice: note:") } == Self.keptNotes, "\(second)")
        #expect(second.entityLines.last?.hasPrefix("total: inserted 0, updated 0, unchanged 5,") == true, "\(second)")
        #expect(try db.count("vehicles") == 2)
        #expect(try db.count("stops") == 2)
    }

    /// A later feed with a new field: its column is added to the table the first import made
    /// (`ALTER TABLE … ADD COLUMN`), and the rows it changes are updated; the earlier feed again
    /// leaves the column as it is (an empty or absent CSV field is missing, never a NULL written).
    @Test func aFieldNewInALaterFeedAddsItsColumn() throws {
        let workspace = Workspace()
        try workspace.write(try ZipBuilder([.init("stops.txt", Array("stop_id,stop_name\ns1,One\ns2,Two\n".utf8))]).bytes(),
                            to: "old.zip")
        try workspace.write(try ZipBuilder([.init("stops.txt", Array("stop_id,stop_name,platform_name\ns1,One,A\ns2,Two,\n".utf8))])
            .bytes(), to: "new.zip")
        for (feed, line) in [("old.zip", "stops: inserted 2, updated 0, unchanged 0,"), ("new.zip", "stops: inserted 0, updated 1, unchanged 1,"),
                             ("old.zip", "stops: inserted 0, updated 0, unchanged 2,")] {
            let result = try workspace.sluice("import", "--db", "out.sqlite", "--model", "gtfs", feed)
            try #require(result.status == 0, "\(result)")
            #expect(result.entityLines.contains { $0.hasPrefix(line) }, "\(feed): \(result)")
        }
        #expect(try workspace.database("out.sqlite").rows(#"SELECT "stop_id", "platform_name" FROM "stops" ORDER BY "pk""#)
            == [[.text("s1"), .text("A")], [.text("s2"), .null]])
    }

    /// A header after a byte order mark is read as the import reads it, without the mark: a
    /// known file keeps nothing, an unknown one's first field is named as written.
    @Test func aByteOrderMarkIsNotPartOfTheFirstField() throws {
        let workspace = Workspace()
        let mark = ChunkReader.byteOrderMark
        try workspace.write(try ZipBuilder([
            .init("stops.txt", mark + Array("stop_id,stop_name\r\ns1,One\r\n".utf8)),
            .init("vehicles.txt", mark + Array("vehicle_id,kind\nv1,bus\n".utf8)),
        ]).bytes(), to: "feed.zip")
        let result = try workspace.sluice("import", "--db", "out.sqlite", "--model", "gtfs", "feed.zip")
        #expect(result.status == 0, "\(result)")
        #expect(result.stderrLines.filter { $0.hasPrefix("sluice: note:") } == [
            "sluice: note: kept 1 file the model does not know, as tables of text columns identified by all their fields: "
                + "feed.zip:vehicles.txt → vehicles",
        ], "\(result)")
        let database = try workspace.database("out.sqlite")
        #expect(try database.rows(#"SELECT "stop_id", "stop_name" FROM "stops""#) == [[.text("s1"), .text("One")]])
        #expect(try database.rows(#"SELECT "vehicle_id", "kind" FROM "vehicles""#) == [[.text("v1"), .text("bus")]])
    }

    /// The unzipped files on the command line (`--format csv`): the same.
    @Test func extractedFilesAreKeptToo() throws {
        let workspace = Workspace()
        try workspace.write("stop_id,x_ref\ns1,9\n", to: "stops.txt")
        try workspace.write("vehicle_id\nv1\n", to: "vehicles.txt")
        let result = try workspace.sluice("import", "--db", "out.sqlite", "--model", "gtfs", "--format", "csv", "stops.txt", "vehicles.txt")
        #expect(result.status == 0, "\(result)")
        #expect(result.stderrLines.filter { $0.hasPrefix("sluice: note:") } == [
            "sluice: note: kept 1 field the model does not know, as text columns: stops.x_ref",
            "sluice: note: kept 1 file the model does not know, as tables of text columns identified by all their fields: "
                + "vehicles.txt → vehicles",
        ], "\(result)")
        let database = try workspace.database("out.sqlite")
        #expect(try database.rows(#"SELECT "stop_id", "x_ref" FROM "stops""#) == [[.text("s1"), .text("9")]])
        #expect(try database.rows(#"SELECT "vehicle_id" FROM "vehicles""#) == [[.text("v1")]])
    }

    /// Standard input is read once, by the import: what the model does not know is named in
    /// notes, not kept (`docs/gtfs.md`).
    @Test func fromStandardInputTheyAreNamedNotKept() throws {
        let workspace = Workspace()
        let result = try workspace.sluice(["import", "--db", "out.sqlite", "--model", "gtfs"], stdin: try Self.feed())
        #expect(result.status == 0, "\(result)")
        let notes = result.stderrLines.filter { $0.hasPrefix("sluice: note:") }
        #expect(notes.contains { $0.contains("vehicles.txt") && $0.contains("skipped") }, "\(result)")
        #expect(notes.contains(#"sluice: note: stops: the 2 stops records held a key the model does not know, not imported: "platform_name"; to keep it, add attributes to a copy of the model"#),
                "\(result)")
        #expect(try workspace.database("out.sqlite").rows(#"SELECT count(*) FROM "stops""#) == [[.integer(2)]])
    }

    /// A field or file that cannot be kept under its own name is named in a note, and the
    /// rest of the feed imports.
    @Test func whatCannotBeKeptAsNamedIsNamedInANote() throws {
        let workspace = Workspace()
        let zip = try ZipBuilder([
            // STOP_ID would be the column of stop_id (SQLite ignores case); pk is the row's key.
            .init("stops.txt", Array("stop_id,STOP_ID,pk,extra\ns1,x,y,z\n".utf8)),
            // Its table would be the model's stops.
            .init("Stops.csv", Array("a\n1\n".utf8)),
            .init("notes.txt", Array(",\n".utf8)),
            // 33 fields: more than an identity may have on PostgreSQL.
            .init("wide.txt", Array(((1...33).map { "f\($0)" }.joined(separator: ",") + "\n").utf8)),
        ]).bytes()
        try workspace.write(zip, to: "feed.zip")
        let result = try workspace.sluice("import", "--db", "out.sqlite", "--model", "gtfs", "feed.zip")
        #expect(result.status == 0, "\(result)")
        #expect(result.stderrLines.filter { $0.hasPrefix("sluice: note:") && !$0.contains("skipped") } == [
            "sluice: note: kept 1 field the model does not know, as text columns: stops.extra",
            #"sluice: note: feed.zip:stops.txt: field "STOP_ID" not kept: its column would clash with one of the model's (names ignore case)"#,
            #"sluice: note: feed.zip:stops.txt: field "pk" not kept: "pk" is the row's own key"#,
            #"sluice: note: feed.zip:Stops.csv: not kept: a table "Stops" is the model's (names ignore case): map the file with --root"#,
            "sluice: note: feed.zip:notes.txt: not kept: its header names no field",
            "sluice: note: feed.zip:wide.txt: not kept: its 33 fields would all be its identity, and PostgreSQL indexes "
                + "at most 32 columns; map it with --root to an entity of your own",
            #"sluice: note: stops: the 1 stops record held keys the model does not know, not imported: "STOP_ID", "pk"; to keep them, add attributes to a copy of the model"#,
        ], "\(result)")
        #expect(try workspace.database("out.sqlite").rows(#"SELECT "stop_id", "extra" FROM "stops""#) == [[.text("s1"), .text("z")]])
    }
}
