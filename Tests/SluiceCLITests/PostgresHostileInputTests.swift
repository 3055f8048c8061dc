import Foundation
import SluiceTestSupport
import Testing
@testable import Sluice

/// Input a hostile or unlucky user gives an import into PostgreSQL (and, where the stores must
/// agree, into SQLite too), through the binary: numbers that no double or integer holds as
/// written, decimal identities spelt differently, names PostgreSQL would truncate or already
/// uses, and passwords that libpq would echo (`docs/postgresql.md`).
@Suite struct PostgresHostileInputTests {
    static let stores = StoreKind.allCases
    static var postgres: [StoreKind] { stores.filter { $0 == .postgres } }

    let workspace = Workspace()

    // MARK: Numbers

    /// Zero-config columns are text on PostgreSQL: a number stays as written, digit for digit.
    @Test(arguments: postgres)
    func zeroConfigTextHoldsNumbersAsWritten(_ store: StoreKind) throws {
        let db = try store.makeDatabase(in: workspace)
        let numbers = ["1.5e3", "123.456789012345678901234", "100000000000000000000000.5", "-0", "1e-400", "2.0", "1E+2",
                       "12345678901234567890", "-7"]
        let input = numbers.map { #"{"n": \#($0), "nested": [\#($0)]}"# }.joined(separator: "\n")
        let result = try db.sluiceImport(stdin: Array(input.utf8))
        #expect(result.status == 0, "\(result)")
        #expect(try db.rows(#"SELECT n, nested FROM records ORDER BY pk"#) == numbers.map { "\($0)|[\($0)]" })
    }

    /// SQLite's zero-config keeps a number that a REAL would hold as 0 as text, as it keeps `1e400`.
    @Test func zeroConfigOnSQLiteKeepsAnUnderflowAsText() throws {
        let db = try StoreKind.sqlite.makeDatabase(in: workspace)
        let result = try db.sluiceImport(stdin: Array(#"{"n": 1e-400}{"n": 0e-400}{"n": 1e400}"#.utf8))
        #expect(result.status == 0, "\(result)")
        #expect(try db.rows("SELECT typeof(n), n FROM records ORDER BY pk") == ["text|1e-400", "real|0.0", "text|1e400"])
    }

    static let doubleModel = """
        {"root": "P", "entities": {"P": {"table": "p", "identity": "id", "attributes": {"id": "double", "x": "double"}}}}
        """

    /// A nonzero number that rounds to 0.0 is a record error like one beyond the range: never
    /// 0.0, which would merge with a real 0 as an identity.
    @Test(arguments: stores)
    func anUnderflowingDoubleIsARecordError(_ store: StoreKind) throws {
        try workspace.write(Self.doubleModel, to: "model.json")
        let db = try store.makeDatabase(in: workspace)
        let input = """
            {"id": 0, "x": 1}
            {"id": 1, "x": 1e-400}
            {"id": -1e-400, "x": 2}
            {"id": 2, "x": 5e-324}

            """
        let stopped = try db.sluiceImport("--model", "model.json", stdin: Array(input.utf8))
        #expect(stopped.status == 65, "\(stopped)")
        #expect(stopped.stderrLines.last
            == "sluice: error: <stdin>:2:1: P.x: cannot convert 1e-400 to double: too close to zero for a double (it would be stored as 0)",
            "\(stopped)")
        let skipped = try db.sluiceImport("--model", "model.json", "--on-error", "skip", stdin: Array(input.utf8))
        #expect(skipped.status == 0, "\(skipped)")
        #expect(skipped.entityLines == ["P: inserted 2, updated 0, unchanged 0, rejected 2"], "\(skipped)")
        // The two rows, id 0 and id 2 (a subnormal is kept), each with x above 0.
        #expect(try db.rows(#"SELECT count(*), sum(CASE WHEN "id" = 0 THEN 1 ELSE 0 END) FROM "p" WHERE "x" > 0"#) == ["2|1"])
    }

    // MARK: Secrets

    /// URIs whose password libpq would echo in its reason: a token it cannot percent-decode
    /// (in the authority or a `password=` parameter), a URI it cannot parse (an IPv6 bracket
    /// left open) and a password holding `/` (read as a host and port). Each is one line, exit
    /// 73, without the password in any form.
    @Test(arguments: postgres)
    func aPasswordNeverAppearsInAConnectionError(_ store: StoreKind) throws {
        let server = try PostgresServer.started()
        let uris = [
            "postgresql://u:Secr3tPW%zz@127.0.0.1:\(server.port)/db",
            "postgresql://u:Secr3tPW%00@127.0.0.1:\(server.port)/db",
            "postgresql://u@127.0.0.1:\(server.port)/db?password=Secr3tPW%zz",
            "postgresql://u:Secr3tPW@[::1:\(server.port)/db",
            "postgresql://u@[::1/db?password=Secr3tPW",
            "postgresql://u:Secr3t/PW@127.0.0.1:\(server.port)/db",
            "postgresql://u:Secr3tPW@127.0.0.1:\(server.port)/db?bogus=Secr3tPW",
        ]
        for uri in uris {
            let result = try workspace.sluice(["import", "--db", uri], stdin: Array(#"{"a": 1}"#.utf8))
            #expect(result.status == 73, "\(uri): \(result)")
            #expect(result.stderrLines.count == 1, "\(uri): \(result)")
            #expect(result.stderrLines.first?.hasPrefix("sluice: error: cannot connect to database 'postgresql://u") == true,
                    "\(uri): \(result)")
            for piece in ["Secr3t", "PW%", "Secr3tPW"] {
                #expect(!result.stderr.contains(piece) && !result.stdout.contains(piece), "\(uri): \(result)")
            }
        }
    }

    /// A password that lets the import in is in no output: not in stdout, stderr, the
    /// `--stats` file or `sluice_imports`, with a model or without, from the authority or a
    /// `password=` parameter.
    @Test(arguments: postgres)
    func aPasswordThatConnectsIsInNoOutput(_ store: StoreKind) throws {
        let server = try PostgresServer.started()
        let database = try server.makeDatabase()
        try server.psql(database, "GRANT ALL ON SCHEMA public TO secret")
        try workspace.write(Self.doubleModel, to: "model.json")
        let uris = [server.tcpURI(database, user: "secret", password: "hunter2"),
                    server.tcpURI(database, user: "secret") + "?password=hunter2"]
        for (number, uri) in uris.enumerated() {
            for model in [[], ["--model", "model.json"]] {
                let result = try workspace.sluice(["import", "--db", uri, "--stats", "stats\(number).json", "--progress"] + model,
                                                  stdin: Array(#"{"id": 1, "x": 2}"#.utf8))
                #expect(result.status == 0, "\(result)")
                #expect(!result.stderr.contains("hunter2") && !result.stdout.contains("hunter2"), "\(result)")
                let stats = try String(contentsOfFile: workspace.file("stats\(number).json"), encoding: .utf8)
                #expect(!stats.contains("hunter2") && stats.contains("\"inserted\""), "\(stats)")
            }
        }
        let logged = try server.rows(database, "SELECT sluice_imports::text FROM sluice_imports")
        #expect(logged.count == 4 && !logged.joined().contains("hunter2"), "\(logged)")
    }

    // MARK: Names

    /// Keys PostgreSQL cannot take as names get columns of legal names, distinct, and the same
    /// on the second import, which then adds no column and puts every value where the first did.
    @Test(arguments: postgres)
    func zeroConfigKeysPostgreSQLCannotTakeGetStableNames(_ store: StoreKind) throws {
        let db = try store.makeDatabase(in: workspace)
        let long = String(repeating: "k", count: 70)
        let keys = [long + "1", long + "2", "", "xmin", "XMAX", "ctid", "tableoid", "cmin", "cmax",
                    "a~0123456789abcdef", String(repeating: "é", count: 40), "ok"]
        let record = "{" + keys.enumerated().map { #""\#($1)": \#($0)"# }.joined(separator: ", ") + "}"
        let first = try db.sluiceImport(stdin: Array(record.utf8))
        #expect(first.status == 0, "\(first)")
        let columns = try db.rows("""
            SELECT column_name FROM information_schema.columns WHERE table_schema = 'public' AND table_name = 'records'
            ORDER BY ordinal_position
            """)
        #expect(columns.count == keys.count + 1, "\(columns)")
        #expect(Set(columns).count == columns.count)
        #expect(columns.allSatisfy { !$0.isEmpty && $0.utf8.count <= 63 }, "\(columns)")
        #expect(columns.first == "pk" && columns.last == "ok")
        #expect(columns.contains { $0.hasPrefix("xmin~") } && columns.contains { $0.hasPrefix("XMAX~") })
        let reordered = "{" + keys.enumerated().reversed().map { #""\#($1)": \#($0)"# }.joined(separator: ", ") + "}"
        let second = try db.sluiceImport(stdin: Array((record + "\n" + reordered).utf8))
        #expect(second.status == 0, "\(second)")
        let again = try db.rows("""
            SELECT column_name FROM information_schema.columns WHERE table_schema = 'public' AND table_name = 'records'
            ORDER BY ordinal_position
            """)
        #expect(again == columns)
        // Each row holds every key's value in the column the first import made for it.
        let values = columns.dropFirst().map { "\"" + $0.replacing("\"", with: "\"\"") + "\"" }.joined(separator: " || ',' || ")
        #expect(try db.rows("SELECT \(values) FROM records ORDER BY pk")
            == Array(repeating: (0..<keys.count).map(String.init).joined(separator: ","), count: 3))
    }

    /// A zero-config table name the server would cut is refused before anything is written.
    @Test(arguments: postgres)
    func aZeroConfigTableNameOver63BytesIsRefused(_ store: StoreKind) throws {
        let db = try store.makeDatabase(in: workspace)
        let name = String(repeating: "t", count: 64)
        let result = try db.sluiceImport("--table", name, stdin: Array(#"{"a": 1}"#.utf8))
        #expect(result.status == 64, "\(result)")
        #expect(result.stderrLines == ["sluice: error: the table name \"\(name)\" is 64 bytes long, PostgreSQL's names at most 63: "
            + "name another with --table"], "\(result)")
        #expect(try db.rows("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'") == ["0"])
    }

    /// A model's names PostgreSQL cannot take are refused before anything is written, all in
    /// one line: system column names, a name over 63 bytes, two indexes alike in 63 bytes.
    @Test(arguments: postgres)
    func modelNamesPostgreSQLCannotTakeAreRefusedBeforeAnyWrite(_ store: StoreKind) throws {
        let db = try store.makeDatabase(in: workspace)
        let long = String(repeating: "c", count: 64)
        let table = String(repeating: "b", count: 50)
        try workspace.write("""
            {"entities": {
              "Box": {"table": "box", "identity": "id",
                "attributes": {"id": "integer", "xmin": "double", "xmax": "double", "\(long)": "string"}},
              "Other": {"table": "\(table)", "identity": "id", "attributes": {"id": "integer"},
                "relationships": {"first_box_of_the_two_1": {"entity": "Box"}, "first_box_of_the_two_2": {"entity": "Box"}}}}}
            """, to: "model.json")
        let result = try db.sluiceImport("--model", "model.json", "--entity", "Box", stdin: Array(#"{"id": 1, "xmin": 0}"#.utf8))
        #expect(result.status == 64, "\(result)")
        #expect(result.stderrLines.count == 1, "\(result)")
        let line = result.stderrLines.first ?? ""
        #expect(line.hasPrefix("sluice: error: the model's names do not fit PostgreSQL: "), "\(line)")
        #expect(line.contains(#"column "xmin" of table "box" has the name of a PostgreSQL system column"#), "\(line)")
        #expect(line.contains(#"column "xmax" of table "box" has the name"#), "\(line)")
        #expect(line.contains(#"column "\#(long)" of table "box" is 64 bytes long, PostgreSQL's names at most 63"#), "\(line)")
        #expect(line.contains("index \"\(table)_first_box_of_the_two_1_pk\" and index \"\(table)_first_box_of_the_two_2_pk\" are the "
            + "same name to PostgreSQL, which keeps 63 bytes of a name"), "\(line)")
        #expect(try db.rows("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'") == ["0"])
    }

    /// `sluice schema --dialect postgresql` refuses what an import would, without a server.
    @Test func theSchemaCommandRefusesThoseNamesToo() throws {
        try workspace.write("""
            {"entities": {"Box": {"table": "box", "attributes": {"xmin": "double", "ctid": "string"}}}}
            """, to: "model.json")
        let result = try workspace.sluice("schema", "--model", "model.json", "--dialect", "postgresql")
        #expect(result.status == 64, "\(result)")
        #expect(result.stdout.isEmpty)
        let expected: String = "sluice: error: the model's names do not fit PostgreSQL: "
            + #"column "xmin" of table "box" has the name of a PostgreSQL system column; "#
            + #"column "ctid" of table "box" has the name of a PostgreSQL system column "#
            + #"(rename them in the model: an attribute keeps reading its JSON key through "key", "#
            + #"an entity names its table with "table")"#
        #expect(result.stderrLines.last == expected, "\(result)")
        let long = String(repeating: "s", count: 64)
        let schema = try workspace.sluice("schema", "--model", "model.json", "--dialect", "postgresql", "--schema", long)
        #expect(schema.status == 64, "\(schema)")
        #expect(schema.stderrLines.last == "sluice: error: the schema name (--schema) \"\(long)\" is 64 bytes long, "
            + "PostgreSQL's names at most 63", "\(schema)")
    }

    /// A `--schema` the server would cut is refused before anything is created.
    @Test(arguments: postgres)
    func aSchemaNameOver63BytesIsRefused(_ store: StoreKind) throws {
        let db = try store.makeDatabase(in: workspace)
        let long = String(repeating: "s", count: 64)
        let result = try db.sluiceImport("--schema", long, stdin: Array(#"{"a": 1}"#.utf8))
        #expect(result.status == 64, "\(result)")
        #expect(result.stderrLines == ["sluice: error: the schema name (--schema) \"\(long)\" is 64 bytes long, "
            + "PostgreSQL's names at most 63"], "\(result)")
        #expect(try db.rows("SELECT count(*) FROM pg_namespace WHERE nspname LIKE 'sss%'") == ["0"])
    }

    // MARK: Identities

    static let decimalModel = """
        {"entities": {
          "Price": {"table": "prices", "identity": "amount", "attributes": {"amount": "decimal", "label": "string"}},
          "Sale": {"table": "sales", "identity": "id", "attributes": {"id": "integer", "list": "decimal"},
            "relationships": {"price": {"entity": "Price", "key": "price"}}}}}
        """

    /// Spellings of one decimal value are one identity, on both stores and at every batch size:
    /// the identity holds the value's one spelling, and a bare id naming it finds that row.
    @Test(arguments: stores)
    func decimalIdentitiesCompareByValue(_ store: StoreKind) throws {
        let prices = """
            {"amount": 1.0, "label": "a"}
            {"amount": 1.00, "label": "b"}
            {"amount": "1", "label": "c"}
            {"amount": 1e0, "label": "d"}
            {"amount": 0.15e1, "label": "e"}
            {"amount": 1.50, "label": "f"}
            {"amount": -0.0, "label": "g"}
            {"amount": 0, "label": "h"}
            {"amount": 12345678901234567890.1234567890123456789, "label": "i"}

            """
        // A record merging into a row its batch already holds is counted against that row.
        let reimported = ["1": "Price: inserted 0, updated 8, unchanged 1, rejected 0, links -, unresolved -",
                          "1000": "Price: inserted 0, updated 5, unchanged 4, rejected 0, links -, unresolved -"]
        for batchSize in ["1", "1000"] {
            let workspace = Workspace()
            try workspace.write(Self.decimalModel, to: "model.json")
            let db = try store.makeDatabase(in: workspace)
            let result = try db.sluiceImport("--model", "model.json", "--entity", "Price", "--batch-size", batchSize,
                                              stdin: Array(prices.utf8))
            #expect(result.status == 0, "\(batchSize): \(result)")
            #expect(result.entityLines.first == "Price: inserted 4, updated 5, unchanged 0, rejected 0, links -, unresolved -",
                    "\(batchSize): \(result)")
            #expect(try db.rows(#"SELECT "amount", "label" FROM "prices" ORDER BY "pk""#)
                == ["1|d", "1.5|f", "0|h", "12345678901234567890.1234567890123456789|i"], "\(batchSize)")
            // The same again: nothing changes. A sale's bare id finds its price by value.
            let again = try db.sluiceImport("--model", "model.json", "--entity", "Price", "--batch-size", batchSize,
                                             stdin: Array(prices.utf8))
            #expect(again.entityLines.first == reimported[batchSize], "\(batchSize): \(again)")
            #expect(try db.rows(#"SELECT count(*) FROM "prices""#) == ["4"])
            let sales = #"{"id": 1, "price": 1.500, "list": 2.50}{"id": 2, "price": "1e0", "list": 3}"#
            let linked = try db.sluiceImport("--model", "model.json", "--entity", "Sale", "--batch-size", batchSize,
                                              stdin: Array(sales.utf8))
            #expect(linked.status == 0, "\(batchSize): \(linked)")
            #expect(try db.rows(#"SELECT s."id", p."label", s."list" FROM "sales" s JOIN "prices" p ON p."pk" = s."price_pk" ORDER BY 1"#)
                == ["1|f|2.50", "2|d|3"], "\(batchSize)")
        }
    }

    /// An exponent that would write out more digits than an identity can hold is a record error.
    @Test(arguments: stores)
    func aDecimalIdentityTooLongWrittenOutIsARecordError(_ store: StoreKind) throws {
        try workspace.write(Self.decimalModel, to: "model.json")
        let db = try store.makeDatabase(in: workspace)
        let result = try db.sluiceImport("--model", "model.json", "--entity", "Price", stdin: Array(#"{"amount": 1e1000}"#.utf8))
        #expect(result.status == 65, "\(result)")
        #expect(result.stderrLines.last == "sluice: error: <stdin>:1:1: Price.amount: cannot convert 1e1000 to decimal: "
            + "over 1000 digits written out, too long to match as an identity", "\(result)")
    }

    /// A double identity of 0 and -0 is one record on both stores and at every batch size
    /// (they are one value to both), and an underflow is never that record.
    @Test(arguments: stores)
    func zeroAndMinusZeroAreOneDoubleIdentity(_ store: StoreKind) throws {
        for batchSize in ["1", "1000"] {
            let workspace = Workspace()
            try workspace.write(Self.doubleModel, to: "model.json")
            let db = try store.makeDatabase(in: workspace)
            let input = #"{"id": 0, "x": 1}{"id": -0.0, "x": 2}{"id": -0, "x": 3}{"id": 0e10, "x": 4}"#
            let result = try db.sluiceImport("--model", "model.json", "--batch-size", batchSize, stdin: Array(input.utf8))
            #expect(result.status == 0, "\(batchSize): \(result)")
            #expect(try db.rows(#"SELECT count(*), max("x") FROM "p""#).map { $0.replacing(".0", with: "") } == ["1|4"],
                    "\(batchSize)")
        }
    }

    static let jsonModel = """
        {"root": "Doc", "entities": {"Doc": {"table": "docs", "identity": "key", "attributes": {"key": "json", "n": "integer"}}}}
        """

    /// Json identities compare by their canonical text: members sorted, a repeated key's last
    /// value, numbers in their value's spelling, no whitespace: as `jsonb` compares documents.
    @Test(arguments: stores)
    func jsonIdentitiesCompareByACanonicalForm(_ store: StoreKind) throws {
        let input = """
            {"key": {"b": [1, 2.0], "a": {"y": 1, "x": "é"}}, "n": 1}
            {"key": {"a": {"x": "\\u00e9", "y": 1.0}, "b": [1e0, 2]}, "n": 2}
            {"key": {"a": {"x": "é", "y": 10e-1}, "b": [1, 2], "a": {"y": 1, "x": "é"}}, "n": 3}
            {"key": 1.50, "n": 4}
            {"key": 15e-1, "n": 5}
            {"key": [1, {"b": 2, "a": 1}], "n": 6}
            {"key": [{"a": 1, "b": 2}, 1], "n": 7}

            """
        for batchSize in ["1", "1000"] {
            let workspace = Workspace()
            try workspace.write(Self.jsonModel, to: "model.json")
            let db = try store.makeDatabase(in: workspace)
            let result = try db.sluiceImport("--model", "model.json", "--batch-size", batchSize, stdin: Array(input.utf8))
            #expect(result.status == 0, "\(batchSize): \(result)")
            #expect(try db.rows(#"SELECT "n" FROM "docs" ORDER BY "pk""#) == ["3", "5", "6", "7"], "\(batchSize)")
            let again = try db.sluiceImport("--model", "model.json", "--batch-size", batchSize, stdin: Array(input.utf8))
            #expect(again.status == 0, "\(batchSize): \(again)")
            #expect(try db.rows(#"SELECT count(*) FROM "docs""#) == ["4"], "\(batchSize)")
        }
        // On SQLite the stored text is the canonical one.
        if store == .sqlite {
            let workspace = Workspace()
            try workspace.write(Self.jsonModel, to: "model.json")
            let db = try store.makeDatabase(in: workspace)
            #expect(try db.sluiceImport("--model", "model.json", stdin: Array(input.utf8)).status == 0)
            #expect(try db.rows(#"SELECT "key" FROM "docs" ORDER BY "pk""#)
                == [#"{"a":{"x":"é","y":1},"b":[1,2]}"#, "1.5", #"[1,{"a":1,"b":2}]"#, #"[{"a":1,"b":2},1]"#])
        }
    }
}
