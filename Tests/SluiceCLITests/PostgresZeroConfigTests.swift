import Foundation
import SluiceTestSupport
import Testing
@testable import Sluice

/// Zero-config imports (no `--model`) into PostgreSQL, end to end through standard input
/// against the test process's server (`docs/postgresql.md`, zero-config).
@Suite(.enabled(if: PostgresServer.isAvailable, "no PostgreSQL server binaries (initdb, pg_ctl) on this machine"))
struct PostgresZeroConfigTests {
    let workspace = Workspace()

    private func importing(_ input: String, into database: String, _ arguments: [String] = []) throws -> SluiceResult {
        try workspace.sluice(["import", "--db", PostgresServer.started().uri(database)] + arguments, stdin: Array(input.utf8))
    }

    private func columns(_ server: PostgresServer, _ database: String, table: String = "records") throws -> [String] {
        try server.rows(database, """
            SELECT column_name || ' ' || data_type FROM information_schema.columns
            WHERE table_schema = 'public' AND table_name = '\(table)' ORDER BY ordinal_position
            """)
    }

    @Test func recordsOfAnyShapeGoToOneTableOfTextColumns() throws {
        let server = try PostgresServer.started()
        let database = try server.makeDatabase()
        let input = """
            {"id": 1, "name": "Ann", "tags": ["a", "b"], "ok": true}
            {"Name": "Bob", "id": "two", "pk": 7, "where": {"lat": 1.5}}
            {}
            {"note": "tab\\there, back\\\\slash, line\\nend", "id": 12345678901234567890}
            """
        let result = try importing(input, into: database)
        #expect(result.status == 0, "\(result)")
        #expect(result.entityLines.last == "records: inserted 4, updated 0, unchanged 0, rejected 0")
        #expect(try columns(server, database) == ["pk bigint", "id text", "name text", "tags text", "ok text", "Name text",
                                                 "pk_2 text", "where text", "note text"])
        // In input order; `Name` is not `name` (quoted names keep their case); `pk` is the row's.
        #expect(try server.rows(database, #"SELECT pk, id, name, tags, ok, "Name", pk_2, "where", note FROM records ORDER BY pk"#) == [
            #"1|1|Ann|["a","b"]|1||||"#,
            #"2|two||||Bob|7|{"lat":1.5}|"#,
            "3||||||||",
            "4|12345678901234567890|||||||tab\there, back\\slash, line",
            "end",
        ])
        #expect(result.noteLines.first == #"sluice: note: table "records": keys whose columns would clash have columns of their own "#
            + #"("pk" is the row's own key), the same in later imports: "pk" → "pk_2""#, "\(result)")
        #expect(try server.rows(database, "SELECT records, inserted, sources FROM sluice_imports") == ["4|4|<stdin>"])
    }

    @Test func aSecondImportAppendsAndAddsOnlyNewColumns() throws {
        let server = try PostgresServer.started()
        let database = try server.makeDatabase()
        #expect(try importing(#"[{"a": 1}, {"b": 2}]"#, into: database, ["--table", "Things"]).status == 0)
        let second = try importing(#"[{"A": 3, "c": 4}]"#, into: database, ["--table", "Things"])
        #expect(second.status == 0, "\(second)")
        #expect(try columns(server, database, table: "Things") == ["pk bigint", "a text", "b text", "A text", "c text"])
        #expect(try server.rows(database, #"SELECT pk, a, b, "A", c FROM "Things" ORDER BY pk"#) == ["1|1|||", "2||2||", "3|||3|4"])
        #expect(try server.rows(database, "SELECT count(*) FROM sluice_imports") == ["2"])
    }

    /// On PostgreSQL only `pk` clashes (quoted names keep their case): it gets `pk_2`, recorded,
    /// so that a later import puts it there again and a key `pk_2` gets a column of its own.
    @Test func keysDifferingInCaseAreColumnsAsTheyAreAndPKIsRenamedStably() throws {
        let server = try PostgresServer.started()
        let database = try server.makeDatabase()
        let first = try importing(#"[{"Name": "a", "name": "b", "NAME": "c", "pk": "p", "PK": "q"}]"#, into: database)
        #expect(first.status == 0, "\(first)")
        #expect(try columns(server, database) == ["pk bigint", "Name text", "name text", "NAME text", "pk_2 text", "PK text"])
        let second = try importing(#"{"pk_2": "w", "pk": "x"}"#, into: database)
        #expect(second.status == 0, "\(second)")
        #expect(second.noteLines.first?.hasSuffix(#"the same in later imports: "pk_2" → "pk_2_2", "pk" → "pk_2""#) == true, "\(second)")
        #expect(try columns(server, database) == ["pk bigint", "Name text", "name text", "NAME text", "pk_2 text", "PK text", "pk_2_2 text"])
        #expect(try server.rows(database, #"SELECT pk, "Name", name, "NAME", pk_2, "PK", pk_2_2 FROM records ORDER BY pk"#)
            == ["1|a|b|c|p|q|", "2||||x||w"])
        #expect(try server.rows(database, #"SELECT "table", key, "column" FROM sluice_renamed_keys ORDER BY key"#)
            == ["records|pk|pk_2", "records|pk_2|pk_2_2"])
    }

    /// PostgreSQL allows 1,600 columns: a record with a value for a key past them is a record
    /// error naming the key, as on SQLite.
    @Test func moreDistinctKeysThanPostgreSQLHasColumns() throws {
        let server = try PostgresServer.started()
        let wide = "{" + (0..<1_700).map { "\"k\($0)\": \($0)" }.joined(separator: ", ") + "}"
        let input = "{\"k0\": 0}\n" + wide + "\n{\"k1\": 1}\n"
        let aborted = try importing(input, into: try server.makeDatabase())
        #expect(aborted.status == 65)
        #expect(aborted.stderrLines.last == #"sluice: error: <stdin>:2:1: table "records" already has 1600 columns, PostgreSQL's limit: "#
            + #"no column for the key "k1599" (a zero-config import makes one column per distinct key; import such data with a model)"#,
            "\(aborted)")
        let database = try server.makeDatabase()
        let skipped = try importing(input, into: database, ["--on-error", "skip"])
        #expect(skipped.status == 0, "\(skipped)")
        #expect(skipped.entityLines.last == "records: inserted 2, updated 0, unchanged 0, rejected 1", "\(skipped)")
        #expect(try server.rows(database, "SELECT k0, k1 FROM records ORDER BY pk") == ["0|", "|1"])
    }

    /// Limits as on SQLite: a key longer than 1024 bytes and a nested value over
    /// `--max-value-bytes` are record errors.
    @Test func aLongKeyAndABigNestedValueAreRecordErrors() throws {
        let server = try PostgresServer.started()
        let database = try server.makeDatabase()
        let key = String(repeating: "k", count: 1_025)
        let nested = "[" + (1...400).map(String.init).joined(separator: ",") + "]"
        let input = "{\"a\": 1}\n{\"\(key)\": 1}\n{\"a\": \(nested)}\n{\"a\": 2}\n"
        let skipped = try importing(input, into: database, ["--on-error", "skip", "--max-value-bytes", "1100"])
        #expect(skipped.status == 0, "\(skipped)")
        #expect(skipped.entityLines.last == "records: inserted 2, updated 0, unchanged 0, rejected 2", "\(skipped)")
        #expect(try server.rows(database, "SELECT a FROM records ORDER BY pk") == ["1", "2"])
        let aborted = try importing(input, into: try server.makeDatabase(), ["--max-value-bytes", "1100"])
        #expect(aborted.status == 65)
        #expect(aborted.stderrLines.last?.hasPrefix("sluice: error: <stdin>:2:1: a key is 1025 bytes long") == true, "\(aborted)")
    }

    /// More rows than one `COPY` takes, keys coming and going between them: every row, in order.
    @Test func manyRowsInSeveralCopies() throws {
        let server = try PostgresServer.started()
        let database = try server.makeDatabase()
        let count = PostgresFreeformTable.bufferRows * 2 + 17
        let input = (1...count).map { $0 % 3 == 0 ? #"{"n": \#($0), "third": true}"# : #"{"n": \#($0)}"# }.joined(separator: "\n")
        let result = try importing(input, into: database, ["--quiet"])
        #expect(result.status == 0, "\(result)")
        #expect(try server.rows(database, "SELECT count(*), count(third), sum(n::bigint), bool_and(pk = n::bigint) FROM records")
            == ["\(count)|\(count / 3)|\(count * (count + 1) / 2)|t"])
    }

    /// PostgreSQL's text cannot hold U+0000: that record is a record error (SQLite keeps it).
    @Test func textHoldingNULIsARecordError() throws {
        let server = try PostgresServer.started()
        let database = try server.makeDatabase()
        let input = "{\"a\": \"x\"}\n{\"a\": \"y\\u0000z\"}\n{\"a\": \"w\"}\n"
        let skipped = try importing(input, into: database, ["--on-error", "skip"])
        #expect(skipped.status == 0, "\(skipped)")
        #expect(skipped.entityLines.last == "records: inserted 2, updated 0, unchanged 0, rejected 1")
        #expect(try server.rows(database, "SELECT a FROM records ORDER BY pk") == ["x", "w"])

        let other = try server.makeDatabase()
        let aborted = try importing(input, into: other)
        #expect(aborted.status == 65, "\(aborted)")
        #expect(aborted.stderrLines == [#"sluice: error: <stdin>:2:1: PostgreSQL text cannot hold U+0000 (the value of "a")"#], "\(aborted)")
        #expect(try server.rows(other, "SELECT count(*) FROM pg_tables WHERE schemaname = 'public'") == ["0"])
    }

    /// A table someone else made: its types are kept; a value one refuses stops the import
    /// at that record (exit 65, nothing written); a column's own default fills rows without it.
    @Test func anExistingTypedTableKeepsItsTypesAndDefaults() throws {
        let server = try PostgresServer.started()
        let database = try server.makeDatabase()
        try server.psql(database, """
            CREATE TABLE readings ("pk" bigserial PRIMARY KEY, "value" bigint, "unit" text DEFAULT 'mm');
            """)
        let good = try importing(#"[{"value": 1}, {"value": 2, "unit": "cm"}, {"value": 3}]"#, into: database, ["--table", "readings"])
        #expect(good.status == 0, "\(good)")
        #expect(try server.rows(database, "SELECT value, unit FROM readings ORDER BY pk") == ["1|mm", "2|cm", "3|mm"])

        let bad = try importing("{\"value\": 4}\n{\"value\": 5}\n{\"value\": \"five\"}\n", into: database, ["--table", "readings"])
        #expect(bad.status == 65, "\(bad)")
        #expect(bad.stderrLines.count == 1, "\(bad)")
        #expect(bad.stderrLines.first?.hasPrefix("sluice: error: <stdin>:3:1: cannot write database '") == true, "\(bad)")
        #expect(bad.stderr.contains(#"invalid input syntax for type bigint: "five""#), "\(bad)")
        #expect(try server.rows(database, "SELECT count(*) FROM readings") == ["3"])
    }

    @Test func aViewOfThatNameIsAnError() throws {
        let server = try PostgresServer.started()
        let database = try server.makeDatabase()
        try server.psql(database, "CREATE VIEW records AS SELECT 1 AS one")
        let result = try importing(#"{"a": 1}"#, into: database)
        #expect(result.status == 73, "\(result)")
        #expect(result.stderrLines.last?.hasSuffix("cannot import into table \"records\" of database '\(server.uri(database))': a view has that name") == true,
                "\(result)")
    }
}
