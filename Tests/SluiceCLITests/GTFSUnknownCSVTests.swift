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

    @Test(arguments: StoreKind.allCases)
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

    /// Extra files of odd names: each is kept as a table named as the file without its
    /// extension, or, where no key of the model's root can name the file (`my..notes.txt`,
    /// `.hidden.txt`: a root key is split at its dots), skipped with a note; never the whole
    /// feed refused (a name with two dots together was a usage error, exit 64).
    @Test(arguments: StoreKind.allCases)
    func extraFilesOfOddNamesAreKeptOrSkippedWithANote(_ kind: StoreKind) throws {
        let workspace = Workspace()
        let long = String(repeating: "l", count: 40)
        let names = ["my..notes.txt", ".hidden.txt", "..txt", "my notes.txt", "Straße.txt", "x.y.txt", "-.txt", long + ".txt"]
        try workspace.write(try ZipBuilder([.init("stops.txt", Array("stop_id,stop_name\ns1,One\n".utf8))]
            + names.map { .init($0, Array("a,b\n1,2\n".utf8)) }).bytes(), to: "feed.zip")
        let db = try kind.makeDatabase(in: workspace)
        let result = try db.sluiceImport("--model", "gtfs", "feed.zip")
        try #require(result.status == 0, "\(result)")
        let why = "no key of the model's root can name the file (a root key is split at its dots, and a dot at either end or "
            + "two together leave an empty key)"
        let kept = ["my notes", "Straße", "x.y", "-", long]
        #expect(result.noteLines == [
            "sluice: note: kept 5 files the model does not know, as tables of text columns identified by all their fields: "
                + "feed.zip:my notes.txt → my notes, feed.zip:Straße.txt → Straße, feed.zip:x.y.txt → x.y, feed.zip:-.txt → -, "
                + "feed.zip:\(long).txt → \(long)",
            "sluice: note: feed.zip:my..notes.txt: not kept: \(why)",
            "sluice: note: feed.zip:.hidden.txt: not kept: \(why)",
            "sluice: note: feed.zip:..txt: not kept: \(why)",
            "sluice: note: feed.zip:my..notes.txt: skipped: the model's root names no entity for 'my..notes.txt' (\(why))",
            "sluice: note: feed.zip:.hidden.txt: skipped: the model's root names no entity for '.hidden.txt' (\(why))",
            "sluice: note: feed.zip:..txt: skipped: the model's root names no entity for '..txt' (\(why))",
        ], "\(result)")
        for table in kept {
            #expect(try db.rows("SELECT \"a\", \"b\" FROM \"\(table)\"") == ["1|2"], "\(table)")
        }
        #expect(try db.rows(#"SELECT "stop_name" FROM "stops""#) == ["One"])
    }

    /// Fields and files whose names a store cannot take: into PostgreSQL, a system column's
    /// name (`xmin`), a name over 63 bytes, and the fields past 1,600 columns are left out with
    /// a note naming the file and field, and the rest of the feed imports (PostgreSQL refused
    /// the whole feed, exit 64); into SQLite they are kept up to its 2,000 columns. In both, a
    /// file whose table or identity index would have another's name (ignoring case) is left
    /// out likewise (it was exit 64 in both).
    @Test(arguments: StoreKind.allCases)
    func namesTheStoreCannotTakeAreLeftOutWithANote(_ kind: StoreKind) throws {
        let workspace = Workspace()
        let long = String(repeating: "x", count: 70)
        let wide = (1...3_000).map { "f\($0)" }
        let stops = (["stop_id", "stop_name", "xmin", long] + wide).joined(separator: ",") + "\n"
            + (["s1", "One", "x", "y"] + wide.map { "v\($0.count % 10)" }).joined(separator: ",") + "\n"
        let tables = [String(repeating: "t", count: 64), String(repeating: "u", count: 63), "vehicles", "Vehicles_identity", "stops_identity"]
        try workspace.write(try ZipBuilder([.init("stops.txt", Array(stops.utf8))]
            + tables.map { .init($0 + ".txt", Array("a\n1\n".utf8)) }).bytes(), to: "feed.zip")
        let db = try kind.makeDatabase(in: workspace)
        let result = try db.sluiceImport("--model", "gtfs", "feed.zip")
        try #require(result.status == 0, "\(result)")
        let notes = result.noteLines.filter {
            !$0.contains("skipped") && !$0.hasPrefix("sluice: note: kept ") && !$0.contains("held keys the model does not know")
        }
        // (Short values: a PostgreSQL row must fit a page, 8 KB.)
        #expect(try db.rows(#"SELECT "stop_name", "f1", "f1000" FROM "stops""#) == ["One|v2|v5"])
        #expect(try db.count("vehicles") == 1)
        let columns = Int(try db.rows(kind == .sqlite ? #"SELECT count(*) FROM pragma_table_info('stops')"#
            : "SELECT count(*) FROM information_schema.columns WHERE table_name = 'stops'").first ?? "") ?? -1
        // PostgreSQL's 1,600.
        let limit = kind == .sqlite ? 1999 : 1600
        #expect(columns == limit)
        // The first field left out: the columns are the model's, then the fields kept, in order.
        let firstLeft = try #require(wide.first { field in
            try db.rows(kind == .sqlite ? "SELECT count(*) FROM pragma_table_info('stops') WHERE name = '\(field)'"
                : "SELECT count(*) FROM information_schema.columns WHERE table_name = 'stops' AND column_name = '\(field)'") == ["0"]
        })
        let first = Int(firstLeft.dropFirst())!
        let pastLimit = "sluice: note: feed.zip:stops.txt: \(3_001 - first) fields not kept, the table would have more than "
            + "\(limit) columns: " + (0...4).map { "\"f\(first + $0)\"" }.joined(separator: ", ") + " and \(3_001 - first - 5) more"
        let clash = { (table: String) in
            "sluice: note: feed.zip:\(table).txt: not kept: its table or its identity index (\"\(table)_identity\") would have the "
                + "name of another table or index (names ignore case" + (kind == .sqlite ? ")" : ", and PostgreSQL keeps 63 bytes of a name)")
        }
        switch kind {
        case .postgres:
            #expect(notes == [
                #"sluice: note: feed.zip:stops.txt: field "xmin" not kept: PostgreSQL tables have a system column of this name"#,
                "sluice: note: feed.zip:stops.txt: field \"\(long)\" not kept: its name is 70 bytes long, PostgreSQL's names at most 63",
                pastLimit,
                "sluice: note: feed.zip:\(tables[0]).txt: not kept: its table's name is 64 bytes long, PostgreSQL's names at most 63",
                clash(tables[1]), clash(tables[3]), clash(tables[4]),
            ], "\(result)")
        case .sqlite:
            #expect(try db.rows(#"SELECT "xmin", ""# + long + #"" FROM "stops""#) == ["x|y"])
            #expect(notes == [pastLimit, clash(tables[3]), clash(tables[4])], "\(result)")
            for table in tables.prefix(2) { #expect(try db.count(table) == 1) }
        }
    }
}
