import Testing
import SluiceTestSupport
@testable import Sluice

extension FreeformWriter {
    /// A writer into an SQLite connection's table (`SQLiteFreeformTable`).
    convenience init(table: String, connection: Connection, onError: ImportOptions.ErrorPolicy) throws {
        self.init(try SQLiteFreeformTable(opening: table, in: connection), onError: onError, rejects: nil)
    }
}

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
            try writer.finish()
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
            // Made with its first columns, not bare and then altered (an ALTER parses the whole schema).
            #expect(try columns("stops", connection) == [])
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
            #expect(try columns("t", connection) == ["pk INTEGER", "Name TEXT", "n", "name_2", "extra", "NAME_3"])
            // A column the record lacks is not written, so it keeps its default.
            #expect(try connection.rows(#"SELECT "Name", n, name_2, extra, NAME_3 FROM t ORDER BY pk"#) == [
                [.text("old"), .integer(1), .null, .null, .null], [.null, .integer(9), .text("new"), .integer(1), .null],
                [.null, .integer(9), .null, .null, .text("newer")],
            ])
        }

        /// SQLite's names ignore case: each key differing only in case gets a column of its own,
        /// named as `sluice infer` names such attributes, and recorded for the next import.
        @Test func keysDifferingOnlyInCaseGetColumnsOfTheirOwn() throws {
            let connection = try Connection(path: directory.file("db.sqlite"))
            let writer = try FreeformWriter(table: "t", connection: connection, onError: .abort)
            try write(#"{"id": 1} {"ID": 2} {"Id": 3, "iD": 4}"#, to: writer)
            #expect(try columns("t", connection) == ["pk INTEGER", "id", "ID_2", "Id_3", "iD_4"])
            #expect(try connection.rows(#"SELECT id, ID_2, Id_3, iD_4 FROM t ORDER BY pk"#) == [
                [.integer(1), .null, .null, .null], [.null, .integer(2), .null, .null], [.null, .null, .integer(3), .integer(4)],
            ])
            #expect(try connection.rows(#"SELECT "table", "key", "column" FROM sluice_renamed_keys ORDER BY "column""#) == [
                [.text("t"), .text("ID"), .text("ID_2")], [.text("t"), .text("Id"), .text("Id_3")], [.text("t"), .text("iD"), .text("iD_4")],
            ])
            #expect(writer.notes == [#"table "t": keys whose columns would clash have columns of their own (SQLite's column names "#
                + #"ignore case, "pk" is the row's own key), the same in later imports: "ID" → "ID_2", "Id" → "Id_3", "iD" → "iD_4""#])
        }

        @Test func aKeyNamedPkDoesNotTouchThePrimaryKey() throws {
            let connection = try Connection(path: directory.file("db.sqlite"))
            let writer = try FreeformWriter(table: "t", connection: connection, onError: .abort)
            try write(#"{"pk": "a"} {"PK": "b"}"#, to: writer)
            #expect(try columns("t", connection) == ["pk INTEGER", "pk_2", "PK_3"])
            #expect(try connection.rows("SELECT pk, pk_2, PK_3 FROM t ORDER BY pk") == [
                [.integer(1), .text("a"), .null], [.integer(2), .null, .text("b")],
            ])
        }

        /// Columns that arrive together cost one schema change: a table Sluice made gets them
        /// all in one rewrite of its `CREATE TABLE` (the first through `ADD COLUMN`), so the schema
        /// version moves by two however many there are; the rows before read NULL in them.
        @Test func manyNewColumnsAreAddedInOneSchemaChange() throws {
            let connection = try Connection(path: directory.file("db.sqlite"))
            let writer = try FreeformWriter(table: "t", connection: connection, onError: .abort)
            try write(#"{"a": 1}"#, to: writer)
            func version() throws -> Int64 {
                guard case .integer(let version)? = try connection.scalar("PRAGMA schema_version") else { return -1 }
                return version
            }
            let before = try version()
            let keys = (1...500).map { "k\($0)" }
            let record = "{" + keys.map { #""\#($0)": 1"# }.joined(separator: ", ") + "}"
            try write(record + record, to: FreeformWriter(table: "t", connection: connection, onError: .abort))
            #expect(try version() == before + 2)
            #expect(try columns("t", connection) == ["pk INTEGER", "a"] + keys)
            #expect(try connection.rows("SELECT count(*), count(a), count(k1), sum(k500) FROM t")
                == [[.integer(3), .integer(1), .integer(2), .integer(2)]])
            #expect(try connection.scalar("PRAGMA integrity_check") == .text("ok"))
            try write(#"{"k500": 2, "b": 3}"#, to: FreeformWriter(table: "t", connection: connection, onError: .abort))
            #expect(try connection.rows("SELECT k500, b FROM t WHERE pk = 4") == [[.integer(2), .integer(3)]])
        }

        /// Each row shape has its own INSERT, and an INSERT into a wide table is big (its program
        /// builds the whole row): sparse records over 2,000 columns keep at most 8 of them.
        @Test func aWideTableCachesFewInserts() throws {
            let connection = try Connection(path: directory.file("db.sqlite"))
            let table = try SQLiteFreeformTable(opening: "t", in: connection)
            try table.addColumns((1...1_999).map { "c\($0)" })
            #expect(SQLiteFreeformTable.maxCachedInserts(columns: 2_000) == 8)
            #expect(SQLiteFreeformTable.maxCachedInserts(columns: 20) == 64)
            var row = [ColumnValue?](repeating: nil, count: 2_000)
            let before = connection.preparedStatements
            var most = 0
            for column in 1...100 {
                row[column] = .integer(Int64(column))
                try table.insert(row, setting: [column])
                most = max(most, connection.preparedStatements - before)
            }
            #expect(most == 8)
            #expect(try connection.rows("SELECT count(*), sum(c100) FROM t") == [[.integer(100), .integer(100)]])
        }

        /// A table someone else made (its `CREATE TABLE` is not Sluice's text) gets its columns
        /// one `ADD COLUMN` at a time.
        @Test func aTableMadeElsewhereGetsItsColumnsOneByOne() throws {
            let path = try directory.makeDatabase("db.sqlite", "CREATE TABLE t (pk INTEGER PRIMARY KEY, a TEXT NOT NULL DEFAULT '');")
            let connection = try Connection(path: path)
            let writer = try FreeformWriter(table: "t", connection: connection, onError: .abort)
            try write(#"{"a": "x", "b": 1, "c": 2, "d": 3}"#, to: writer)
            #expect(try columns("t", connection) == ["pk INTEGER", "a TEXT", "b", "c", "d"])
            #expect(try connection.rows("SELECT a, b, c, d FROM t") == [[.text("x"), .integer(1), .integer(2), .integer(3)]])
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
