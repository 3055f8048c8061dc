import SluiceTestSupport
import Testing
@testable import Sluice

/// CSV as real feeds write it, through the binary (`docs/import-semantics.md#csv-as-real-feeds-write-it`):
/// each habit found in a public feed or a GTFS tool's issue tracker is reproduced in a small file
/// the test writes itself (nothing of the feed is copied), with the source named. Accepted habits
/// give exact rows and a note where something was dropped; refused ones an exact error and status.
/// Each import runs on the assembler's fast paths and on its general path (`FastPaths`), with
/// the same rows.
@Suite struct RealCSVHabitsTests {
    /// Imports `zip` (entries of a GTFS feed) with `--model gtfs` on both paths, checks both give
    /// `query`'s same rows, and returns the fast path's result and rows.
    private func importFeed(_ entries: [(String, String)], query: String, arguments: [String] = [])
        throws -> (result: SluiceResult, rows: [String]) {
        let workspace = Workspace()
        _ = try workspace.write(try ZipBuilder(entries.map { .init($0.0, Array($0.1.utf8)) }).bytes(), to: "feed.zip")
        var outcomes: [(SluiceResult, [String])] = []
        for (database, general) in [("fast.sqlite", false), ("general.sqlite", true)] {
            let result = try workspace.sluice(["import", "--db", database, "--model", "gtfs"] + arguments + ["feed.zip"],
                                              environment: general ? ["SLUICE_GENERAL_PATHS": "1"] : [:])
            let rows = result.status == 0 ? try Self.texts(workspace.database(database).rows(query)) : []
            outcomes.append((result, rows))
        }
        #expect(outcomes[0].1 == outcomes[1].1, "general path")
        #expect(outcomes[0].0.status == outcomes[1].0.status && outcomes[0].0.noteLines == outcomes[1].0.noteLines)
        return outcomes[0]
    }

    private static func texts(_ rows: [[ColumnValue]]) -> [String] {
        rows.map { row in
            row.map { value in
                switch value {
                case .null: "NULL"
                case .integer(let number): "\(number)"
                case .real(let number): "\(number)"
                case .text(let text): "'\(text)'"
                case .blob(let bytes): "x\(bytes.count)"
                }
            }.joined(separator: "|")
        }
    }

    @Test func spacesAfterAClosingQuoteAreDroppedWithOneNotePerFile() throws {
        // Issue 53: a large US agency's fare URL, `"https://…/fares/" ` then the line end; tabs
        // too, before a separator; google/transitfeed issue 169 (a route colour `98E600 `).
        let (result, rows) = try importFeed([
            ("agency.txt", "agency_id,agency_name,agency_url,agency_timezone,agency_fare_url\r\n"
                + "\"A\",\"Agency\",\"https://a.example/\",\"America/New_York\",\"https://a.example/fares/\" \r\n"
                + "\"B\",\"Bee\"\t ,\"https://b.example/\",\"America/Chicago\",\r\n"),
            ("routes.txt", "route_id,agency_id,route_short_name,route_type,route_color\n\"R\",\"A\",\"7\",3,\"98E600\"  \n"),
        ], query: #"SELECT a.agency_id, agency_name, agency_fare_url, route_color FROM agency a LEFT JOIN routes r ON r.agency_pk = a.pk ORDER BY a.pk"#)
        #expect(result.status == 0, "\(result)")
        #expect(rows == ["'A'|'Agency'|'https://a.example/fares/'|'98E600'", "'B'|'Bee'|NULL|NULL"])
        #expect(result.noteLines == [
            "sluice: note: feed.zip:agency.txt: 2 quoted fields had spaces or tabs after their closing quote; dropped",
            "sluice: note: feed.zip:routes.txt: 1 quoted field had spaces or tabs after its closing quote; dropped",
        ])
    }

    @Test func otherTextAfterAClosingQuoteIsARecordErrorAtThatText() throws {
        let (result, _) = try importFeed([
            ("agency.txt", "agency_id,agency_name,agency_url,agency_timezone\n\"A\",\"Agency\"  Inc,\"https://a.example/\",UTC\n"),
        ], query: "SELECT 1")
        #expect(result.status == 65)
        #expect(result.stderrLines.last == "sluice: error: feed.zip:agency.txt:2:1: agency: a quoted field goes on after its "
            + "closing quote (a quote inside quotes is doubled: \"a\"\"b\") at line 2, column 15")
    }

    @Test func leadingZerosAreTheIntegerAndIdentitiesKeepTheirText() throws {
        // A stop_sequence written `01` (issue 53); stop ids padded with zeros are ids, text
        // (Code4HR/hrt-bus-api pull request 61: "padded with zeros").
        let feed = [
            ("stops.txt", "stop_id,stop_name\n0001,One\n0002,Two\n"),
            ("trips.txt", "route_id,service_id,trip_id\nR,S,T1\n"),
            ("stop_times.txt", "trip_id,stop_id,stop_sequence,pickup_type,shape_dist_traveled\n"
                + "T1,0001,01,00,000.5\nT1,0002,02,+1, 1.25\n"),
        ]
        let query = #"SELECT st.stop_sequence, s.stop_id, st.pickup_type, st.shape_dist_traveled FROM stop_times st JOIN stops s ON st.stop_pk = s.pk ORDER BY st.stop_sequence"#
        let (result, rows) = try importFeed(feed, query: query)
        #expect(result.status == 0, "\(result)")
        #expect(rows == ["1|'0001'|0|0.5", "2|'0002'|1|1.25"])
        // The same feed written plainly is the same rows: a re-import changes nothing.
        let workspace = Workspace()
        for (index, text) in ["01", "1"].enumerated() {
            let times = "trip_id,stop_id,stop_sequence\nT1,0001,\(text)\n"
            _ = try workspace.write(try ZipBuilder([.init("stop_times.txt", Array(times.utf8))]).bytes(), to: "feed.zip")
            let again = try workspace.sluice("import", "--db", "out.sqlite", "--model", "gtfs", "feed.zip")
            #expect(again.status == 0, "\(again)")
            #expect(again.entityLines.contains { $0.hasPrefix(index == 0 ? "stop_times: inserted 1," : "stop_times: inserted 0, updated 0, unchanged 1,") },
                    "\(again)")
        }
    }

    @Test func spacesAfterCommasInHeaderAndValues() throws {
        // SEPTA's rail calendar.txt (septadev/GTFS issue 11) and Metra's (BlinkTagInc/node-gtfs
        // issue 89): `service_id, monday, …` and values after `, `. Names lose the spaces;
        // numbers and dates read through them; text keeps them (a string is as written).
        let (result, rows) = try importFeed([
            ("calendar.txt", "service_id, monday, tuesday, wednesday, thursday, friday, saturday, sunday, start_date, end_date\r\n"
                + "M1, 1, 1, 1, 1, 1, 0, 0, 20170910, 20180113\r\n"),
        ], query: #"SELECT service_id, monday, saturday, start_date FROM calendar"#)
        #expect(result.status == 0, "\(result)")
        #expect(rows == ["'M1'|1|0|' 20170910'"])
        #expect(result.noteLines == ["sluice: note: feed.zip:calendar.txt: 9 header names had spaces or tabs around them; dropped"])
    }

    @Test func aByteOrderMarkBeforeAQuotedHeaderAndEveryFieldQuoted() throws {
        // OCTA's stops.txt (cal-itp/data-infra issue 5143): a BOM, then `"stop_id"`; feeds that
        // quote every field, numbers and empty ones too (Esri/public-transit-tools issue 115).
        // A line break alone as CR, and blank lines at the end (an editor's).
        let (result, rows) = try importFeed([
            ("stops.txt", "\u{FEFF}\"stop_id\",\"stop_name\",\"stop_lat\",\"stop_lon\",\"location_type\",\"parent_station\"\r\n"
                + "\"1101064\",\"Malpensa, T1\",\"45.6272144319203\",\"8.7111160249179\",\"\",\"\"\r"
                + "\"1322000\",\"Altoggio\",\"46.1672513851495\",\"8.345807131427\",\"0\",\"\"\r\n\r\n\r\n"),
        ], query: #"SELECT stop_id, stop_name, stop_lat, location_type FROM stops ORDER BY pk"#)
        #expect(result.status == 0, "\(result)")
        #expect(rows == ["'1101064'|'Malpensa, T1'|45.6272144319203|NULL", "'1322000'|'Altoggio'|46.1672513851495|0"])
        #expect(result.noteLines == [])
    }

    @Test func trailingSeparatorsAreEmptyFieldsButExtraValuesAreRefused() throws {
        // Empty trailing columns (GCRTA, itinero/GTFS issue 42); a row of more values than its
        // header (planarnetwork/transxchange2gtfs issue 20) loses none of them silently.
        let (accepted, rows) = try importFeed([
            ("agency.txt", "agency_id,agency_name,agency_url,agency_timezone,\nA,Agency,https://a.example/,UTC,,\n"),
        ], query: #"SELECT agency_id, agency_timezone FROM agency"#)
        #expect(accepted.status == 0, "\(accepted)")
        #expect(rows == ["'A'|'UTC'"])
        let (refused, _) = try importFeed([
            ("stops.txt", "stop_id,stop_name\nS1,One,,,0\n"),
        ], query: "SELECT 1")
        #expect(refused.status == 65)
        #expect(refused.stderrLines.last
            == "sluice: error: feed.zip:stops.txt:2:1: stops: a row has more fields than the header's 2 at line 2, column 10")
    }

    @Test func latin1BytesAreRefusedOrReplacedOnRequest() throws {
        let workspace = Workspace()
        let stops = Array("stop_id,stop_name\nS1,Caf".utf8) + [0xE9] + Array("\n".utf8)
        _ = try workspace.write(try ZipBuilder([.init("stops.txt", stops)]).bytes(), to: "feed.zip")
        let refused = try workspace.sluice("import", "--db", "out.sqlite", "--model", "gtfs", "feed.zip")
        #expect(refused.status == 65)
        #expect(refused.stderrLines.last == "sluice: error: feed.zip:stops.txt:2:1: stops: invalid UTF-8 (truncated sequence) "
            + "at line 2, column 7")
        let replaced = try workspace.sluice("import", "--db", "out.sqlite", "--model", "gtfs", "--invalid-text", "replace", "feed.zip")
        #expect(replaced.status == 0, "\(replaced)")
        #expect(try workspace.database("out.sqlite").rows(#"SELECT stop_name FROM stops"#) == [[.text("Caf\u{FFFD}")]])
    }

    static let model = """
        { "root": { "t.csv": "T" }, "entities": { "T": { "table": "t", "identity": "id", "attributes": {
          "id": "string", "i": "integer", "d": "double", "b": "boolean", "day": "date", "price": "decimal" } } } }
        """

    @Test func numbersBooleansAndDatesAsTextWritersWriteThem() throws {
        let workspace = Workspace()
        _ = try workspace.write(Self.model, to: "model.json")
        let csv = """
            id,i,d,b,day,price
            a,+5,.5,TRUE,20240101,007.50
            b, 5 ,5.,yes, 2024-01-02 ,+1
            c,1.0,-0,True,2024-01-03,.25
            d,1e3,1e-3,0,2024-01-04,1.20
            007,-007,+1.5e1,n,20240105,0

            """
        var outcomes: [[String]] = []
        for (database, general) in [("fast.sqlite", false), ("general.sqlite", true)] {
            let result = try workspace.sluice(["import", "--db", database, "--model", "model.json", "--entity", "T", "--format", "csv"],
                                              stdin: Array(csv.utf8), environment: general ? ["SLUICE_GENERAL_PATHS": "1"] : [:])
            #expect(result.status == 0, "\(result)")
            outcomes.append(Self.texts(try workspace.database(database).rows(#"SELECT id, i, d, b, day, price FROM t ORDER BY pk"#)))
        }
        #expect(outcomes[0] == [
            "'a'|5|0.5|1|'2024-01-01T00:00:00Z'|'7.50'",
            "'b'|5|5.0|1|'2024-01-02T00:00:00Z'|'1'",
            "'c'|1|0.0|1|'2024-01-03T00:00:00Z'|'0.25'",
            "'d'|1000|0.001|0|'2024-01-04T00:00:00Z'|'1.20'",
            "'007'|-7|15.0|0|'2024-01-05T00:00:00Z'|'0'",
        ])
        #expect(outcomes[1] == outcomes[0])
    }

    @Test func ambiguousNumberTextIsARecordError() throws {
        let workspace = Workspace()
        _ = try workspace.write(Self.model, to: "model.json")
        for (value, column, message) in [
            ("\"1,5\"", "d", #"T.d: cannot convert "1,5" to double"#),
            ("\"1,000\"", "i", #"T.i: cannot convert "1,000" to integer"#),
            ("0x10", "i", #"T.i: cannot convert "0x10" to integer"#),
            ("1.5", "i", #"T.i: cannot convert "1.5" to integer: not a whole number"#),
            ("on", "b", #"T.b: cannot convert "on" to boolean"#),
            ("2024/01/01", "day", #"T.day: cannot convert "2024/01/01" to date: not an ISO 8601 date"#),
        ] {
            let result = try workspace.sluice(["import", "--db", "out.sqlite", "--model", "model.json", "--entity", "T", "--format", "csv"],
                                              stdin: Array("id,\(column)\nx,\(value)\n".utf8))
            #expect(result.status == 65, "\(value): \(result)")
            #expect(result.stderrLines.last?.hasPrefix("sluice: error: <stdin>:2:1: ") == true, "\(result)")
            #expect(result.stderrLines.last?.contains(message) == true, "\(value): \(result)")
        }
    }

    @Test func aJSONStringGivenToANumberIsReadTheSameWay() throws {
        let workspace = Workspace()
        _ = try workspace.write(Fixtures.numberModel, to: "model.json")
        let result = try workspace.sluice(["import", "--db", "out.sqlite", "--model", "model.json"],
                                          stdin: Array(#"[{"id": "01", "n": " +7 "}, {"id": 1, "n": "007"}]"#.utf8))
        #expect(result.status == 0, "\(result)")
        // "01" and 1 are one identity: the second record updates the first's row.
        #expect(try workspace.database("out.sqlite").rows(#"SELECT id, n FROM t"#) == [[.integer(1), .integer(7)]])
    }
}
