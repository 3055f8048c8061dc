import Testing
import SluiceTestSupport
@testable import Sluice

extension ZeroConfigTests {
    @Suite struct FreeformWriterTests {
        let directory = TemporaryDirectory()

        /// Streams `json` into `writer` as an import would.
        private func write(_ json: String, to writer: FreeformWriter) throws {
            let stream = FreeformStream(table: writer.table, sink: writer)
            let parser = JSONParser(sourceName: "in.json", handler: stream)
            stream.parser = parser
            try Array(json.utf8).withUnsafeBytes { try parser.parse($0) }
            try parser.finish()
        }

        private func columns(_ table: String, _ connection: Connection) throws -> [String] {
            try connection.rows("SELECT name, type FROM pragma_table_info(?)", [.text(table)]).map {
                let type = $0[1].textValue ?? ""
                return ($0[0].textValue ?? "") + (type.isEmpty ? "" : " " + type)
            }
        }

        @Test func createsTheTableAndInsertsEveryRecordWithItsOwnTypes() throws {
            let connection = try Connection(path: directory.file("db.sqlite"))
            let writer = try FreeformWriter(table: "stops", connection: connection, onError: .abort)
            #expect(try columns("stops", connection) == ["pk INTEGER"])
            try write(#"[{"id": 1, "name": "A", "lat": 1.5, "tags": ["x"]}, {"id": 1, "name": "A", "lat": 1.5, "tags": ["x"]}]"#, to: writer)
            #expect(try columns("stops", connection) == ["pk INTEGER", "id", "name", "lat", "tags"])
            #expect(try connection.rows("SELECT pk, id, name, lat, tags, typeof(id), typeof(lat) FROM stops ORDER BY pk") == [
                [.integer(1), .integer(1), .text("A"), .real(1.5), .text(#"["x"]"#), .text("integer"), .text("real")],
                [.integer(2), .integer(1), .text("A"), .real(1.5), .text(#"["x"]"#), .text("integer"), .text("real")],
            ])
            #expect(writer.counts.inserted == 2)
            #expect(writer.counts.entity == "stops")
        }

        @Test func aNewKeyMidStreamAddsAColumnThatEarlierRowsHaveNull() throws {
            let connection = try Connection(path: directory.file("db.sqlite"))
            let writer = try FreeformWriter(table: "t", connection: connection, onError: .abort)
            try write(#"{"a": 1} {"a": 2, "b": "x"} {"b": "y"} {}"#, to: writer)
            #expect(try columns("t", connection) == ["pk INTEGER", "a", "b"])
            #expect(try connection.rows("SELECT a, b FROM t ORDER BY pk") == [
                [.integer(1), .null], [.integer(2), .text("x")], [.null, .text("y")], [.null, .null],
            ])
        }

        @Test func anExistingTableIsAppendedToAndGetsOnlyTheNewColumns() throws {
            let path = try directory.makeDatabase("db.sqlite", """
                CREATE TABLE "t" ("pk" INTEGER PRIMARY KEY, "Name" TEXT, "n" DEFAULT 9);
                INSERT INTO "t" ("Name", "n") VALUES ('old', 1);
                """)
            let connection = try Connection(path: path)
            let writer = try FreeformWriter(table: "t", connection: connection, onError: .abort)
            try write(#"{"name": "new", "extra": true} {"NAME": "newer"}"#, to: writer)
            #expect(try columns("t", connection) == ["pk INTEGER", "Name TEXT", "n", "extra"])
            // A column the record lacks is not written, so it keeps its default.
            #expect(try connection.rows(#"SELECT "Name", n, extra FROM t ORDER BY pk"#) == [
                [.text("old"), .integer(1), .null], [.text("new"), .integer(9), .integer(1)], [.text("newer"), .integer(9), .null],
            ])
        }

        @Test func keysDifferingOnlyInCaseShareOneColumn() throws {
            let connection = try Connection(path: directory.file("db.sqlite"))
            let writer = try FreeformWriter(table: "t", connection: connection, onError: .abort)
            try write(#"{"id": 1} {"ID": 2} {"Id": 3, "iD": 4}"#, to: writer)
            #expect(try columns("t", connection) == ["pk INTEGER", "id"])
            #expect(try connection.rows("SELECT id FROM t ORDER BY pk") == [[.integer(1)], [.integer(2)], [.integer(4)]])
        }

        @Test func aKeyNamedPkDoesNotTouchThePrimaryKey() throws {
            let connection = try Connection(path: directory.file("db.sqlite"))
            let writer = try FreeformWriter(table: "t", connection: connection, onError: .abort)
            try write(#"{"pk": "a"} {"PK": "a"}"#, to: writer)
            #expect(try columns("t", connection) == ["pk INTEGER", "pk_1"])
            #expect(try connection.rows("SELECT pk, pk_1 FROM t ORDER BY pk") == [[.integer(1), .text("a")], [.integer(2), .text("a")]])
        }

        @Test func rejectionsAbortOrAreCounted() throws {
            let connection = try Connection(path: directory.file("db.sqlite"))
            let skipping = try FreeformWriter(table: "t", connection: connection, onError: .skip)
            try write(#"[{"a": 1}, 2, {"a": 3}]"#, to: skipping)
            #expect(skipping.counts.inserted == 2)
            #expect(skipping.counts.rejected == 1)

            let aborting = try FreeformWriter(table: "u", connection: connection, onError: .abort)
            #expect(throws: SluiceError.self) { try write(#"[{"a": 1}, 2]"#, to: aborting) }
        }

        @Test func aViewOfTheTablesNameIsAClearError() throws {
            let path = try directory.makeDatabase("db.sqlite", "CREATE VIEW v AS SELECT 1 AS x;")
            let connection = try Connection(path: path)
            let error = #expect(throws: SluiceError.self) {
                _ = try FreeformWriter(table: "V", connection: connection, onError: .abort)
            }
            #expect(error?.kind == .cannotCreate)
            #expect(error?.message.contains("a view has that name") == true)
        }
    }
}
