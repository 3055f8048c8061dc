import Foundation
import SluiceTestSupport
import Testing

/// A row the server refuses — a CHECK, NOT NULL or UNIQUE constraint made by hand, a value out
/// of a column's range — names its record: `<file>:<line>:<column>: <entity>: <the server's
/// reason>`, exit 65, nothing written (`docs/postgresql.md`, errors).
@Suite(.enabled(if: PostgresServer.isAvailable, "no PostgreSQL server binaries (initdb, pg_ctl) on this machine"))
struct PostgresRefusedRowsTests {
    let workspace = Workspace()

    /// Every column has a binary form: new rows go in one binary `COPY` read after the batch.
    static let model = """
        {"root": "Item", "entities": {"Item": {"table": "items", "identity": "id",
          "attributes": {"id": "string", "n": "integer"}}}}
        """
    /// A json column has none: new rows go in a text `COPY`.
    static let textModel = """
        {"root": "Item", "entities": {"Item": {"table": "items", "identity": "id",
          "attributes": {"id": "string", "n": "integer", "extra": "json"}}}}
        """

    private func importing(_ input: String, into database: String, on server: PostgresServer, model: String = Self.model,
                           _ extra: [String] = []) throws -> SluiceResult {
        try workspace.write(model, to: "model.json")
        return try workspace.sluice(["import", "--db", server.uri(database), "--model", "model.json", "--quiet"] + extra,
                                    stdin: Array(input.utf8))
    }

    /// The table made by an import of nothing, then changed by hand.
    private func makeTable(_ database: String, on server: PostgresServer, model: String = Self.model, _ sql: String) throws {
        let made = try importing("[]", into: database, on: server, model: model)
        #expect(made.status == 0, "\(made)")
        try server.psql(database, sql)
    }

    private func uri(_ server: PostgresServer, _ database: String) -> String { server.uri(database) }

    /// The stderr line of a refusal: where, which entity, then the server's words.
    private func refusal(_ place: String, _ reason: String, _ server: PostgresServer, _ database: String) -> [String] {
        ["sluice: error: \(place): Item: cannot write database '\(server.uri(database))': \(reason)"]
    }

    /// The row is sent in a binary `COPY` whose outcome is read at the next statement.
    @Test func aCheckConstraintNamesTheThirdRecord() throws {
        let server = try PostgresServer.started()
        let database = try server.makeDatabase()
        try makeTable(database, on: server, #"ALTER TABLE items ADD CONSTRAINT "positive" CHECK (n > 0)"#)
        let input = "{\"id\": \"a\", \"n\": 1}\n{\"id\": \"b\", \"n\": 2}\n  {\"id\": \"c\", \"n\": -3}\n{\"id\": \"d\", \"n\": 4}\n"
        let result = try importing(input, into: database, on: server)
        #expect(result.status == 65, "\(result)")
        #expect(result.stderrLines == refusal("<stdin>:3:3", #"new row for relation "items" violates check constraint "positive" (Failing row contains (3, c, -3).)"#,
                                              server, database), "\(result)")
        #expect(try server.rows(database, "SELECT count(*) FROM items") == ["0"])
    }

    /// A text `COPY` (a json column has no binary form), under `--on-error skip` too: the rows
    /// went to the server together, so its refusal stops the import.
    @Test func aNotNullColumnMadeByHandNamesTheRecordWithoutTheValue() throws {
        let server = try PostgresServer.started()
        let database = try server.makeDatabase()
        try makeTable(database, on: server, model: Self.textModel, "ALTER TABLE items ALTER COLUMN n SET NOT NULL")
        let input = """
            [{"id": "a", "n": 1, "extra": [1]},
             {"id": "b", "n": 2},
                {"id": "c", "extra": {"k": true}}]
            """
        // Each run takes three numbers from the sequence, which no rollback gives back.
        for (run, extra) in [[], ["--on-error", "skip"]].enumerated() {
            let result = try importing(input, into: database, on: server, model: Self.textModel, extra)
            #expect(result.status == 65, "\(result)")
            #expect(result.stderrLines == refusal("<stdin>:3:5", #"null value in column "n" of relation "items" violates not-null constraint (Failing row contains (\#(3 + 3 * run), c, null, {"k": true}).)"#,
                                                  server, database), "\(result)")
        }
        #expect(try server.rows(database, "SELECT count(*) FROM items") == ["0"])
    }

    /// A unique index checked as the server stores the rows; the record is in the second
    /// input, found a batch later than it was sent.
    @Test func aUniqueIndexNamesTheSecondInputsRecord() throws {
        let server = try PostgresServer.started()
        let database = try server.makeDatabase()
        try makeTable(database, on: server, "CREATE UNIQUE INDEX items_n ON items (n)")
        try workspace.write("{\"id\": \"a\", \"n\": 1}\n{\"id\": \"b\", \"n\": 2}\n", to: "first.json")
        try workspace.write("{\"id\": \"c\", \"n\": 3}\n\n{\"id\": \"d\", \"n\": 1}\n{\"id\": \"e\", \"n\": 5}\n", to: "second.json")
        let result = try workspace.sluice(["import", "--db", server.uri(database), "--model", "model.json", "--quiet", "--batch-size", "1",
                                           "first.json", "second.json"])
        #expect(result.status == 65, "\(result)")
        #expect(result.stderrLines == refusal("second.json:3:1", #"duplicate key value violates unique constraint "items_n" (Key (n)=(1) already exists.)"#,
                                              server, database), "\(result)")
        #expect(try server.rows(database, "SELECT count(*) FROM items") == ["0"])
    }

    /// An `UPDATE … FROM` names no row: the first record it updates, as the batch from there.
    @Test func aRefusedUpdateNamesTheFirstRecordItUpdates() throws {
        let server = try PostgresServer.started()
        let database = try server.makeDatabase()
        let first = try importing("[{\"id\": \"a\", \"n\": 1}, {\"id\": \"b\", \"n\": 2}, {\"id\": \"c\", \"n\": 3}]", into: database, on: server)
        #expect(first.status == 0, "\(first)")
        try server.psql(database, #"ALTER TABLE items ADD CONSTRAINT "small" CHECK (n < 10)"#)
        let input = "{\"id\": \"a\", \"n\": 1}\n{\"id\": \"b\", \"n\": 5}\n{\"id\": \"c\", \"n\": 30}\n"
        let result = try importing(input, into: database, on: server)
        #expect(result.status == 65, "\(result)")
        #expect(result.stderrLines == ["sluice: error: <stdin>:2:1: Item: a record of the batch from here on: cannot write database '\(server.uri(database))': new row for relation \"items\" violates check constraint \"small\" (Failing row contains (3, c, 30).)"],
                "\(result)")
        #expect(try server.rows(database, "SELECT id, n FROM items ORDER BY pk") == ["a|1", "b|2", "c|3"])
    }

    /// A `NOT NULL` the server checks in an update: the changed rows go to the server together,
    /// as arrays, so the statement's first record is named, as the batch from there on (the
    /// server's message shows the row).
    @Test func aChangeTheServerRefusesNamesTheFirstRecordOfItsUpdate() throws {
        let server = try PostgresServer.started()
        let database = try server.makeDatabase()
        let first = try importing("[{\"id\": \"a\", \"n\": 1}, {\"id\": \"b\", \"n\": 2}, {\"id\": \"c\", \"n\": 3}]", into: database, on: server)
        #expect(first.status == 0, "\(first)")
        try server.psql(database, "ALTER TABLE items ALTER COLUMN n SET NOT NULL")
        let input = "{\"id\": \"a\", \"n\": 1}\n  {\"id\": \"b\", \"n\": 7}\n\t{\"id\": \"c\", \"n\": null}\n"
        let result = try importing(input, into: database, on: server)
        #expect(result.status == 65, "\(result)")
        #expect(result.stderrLines == ["sluice: error: <stdin>:2:3: Item: a record of the batch from here on: cannot write database '\(server.uri(database))': null value in column \"n\" of relation \"items\" violates not-null constraint (Failing row contains (3, c, null).)"],
                "\(result)")
        #expect(try server.rows(database, "SELECT id, n FROM items ORDER BY pk") == ["a|1", "b|2", "c|3"])
    }

    /// A value the server cannot store (jsonb takes no U+0000) names its record, by the line
    /// and column the server gives.
    @Test func aValueTheServerCannotStoreNamesItsRecord() throws {
        let server = try PostgresServer.started()
        let database = try server.makeDatabase()
        let input = "[{\"id\": \"a\", \"extra\": 1},\n {\"id\": \"b\", \"extra\": {\"k\": \"x\\u0000\"}}]"
        let result = try importing(input, into: database, on: server, model: Self.textModel)
        #expect(result.status == 65, "\(result)")
        #expect(result.stderrLines == refusal("<stdin>:2:2", #"unsupported Unicode escape sequence (\u0000 cannot be converted to text.)"#, server, database), "\(result)")
        #expect(try server.rows(database, "SELECT count(*) FROM pg_tables WHERE schemaname = 'public'") == ["0"])
    }

    /// A trigger's refusal is not the data's: exit 73 as before, but the server names the row,
    /// below its function's line, so the record is named too.
    @Test func aTriggersRefusalKeepsItsStatusAndNamesTheRow() throws {
        let server = try PostgresServer.started()
        let database = try server.makeDatabase()
        try makeTable(database, on: server, """
            CREATE FUNCTION refuse() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN IF NEW.n = 13 THEN RAISE EXCEPTION 'unlucky'; END IF; RETURN NEW; END $$;
            CREATE TRIGGER refuse BEFORE INSERT ON items FOR EACH ROW EXECUTE FUNCTION refuse();
            """)
        let result = try importing("[{\"id\": \"a\", \"n\": 1}, {\"id\": \"b\", \"n\": 13}]", into: database, on: server)
        #expect(result.status == 73, "\(result)")
        #expect(result.stderrLines == refusal("<stdin>:1:23", "unlucky", server, database), "\(result)")
        #expect(try server.rows(database, "SELECT count(*) FROM items") == ["0"])
    }

    /// A nested record's row is refused after the other entity's rows were sent: the message
    /// names the nested record and its own entity.
    @Test func aNestedRecordsRefusalNamesItsEntity() throws {
        let server = try PostgresServer.started()
        let database = try server.makeDatabase()
        let model = """
            {"root": "Pet", "entities": {
              "Pet": {"table": "pets", "identity": "name", "attributes": {"name": "string"},
                "relationships": {"owner": {"entity": "Owner"}}},
              "Owner": {"table": "owners", "identity": "name", "attributes": {"name": "string", "age": "integer"}}}}
            """
        try makeTable(database, on: server, model: model, #"ALTER TABLE owners ADD CONSTRAINT "adult" CHECK (age >= 18)"#)
        let input = """
            {"name": "Rex", "owner": {"name": "Ann", "age": 30}}
            {"name": "Tom", "owner": {"name": "Bob", "age": 7}}
            """
        let result = try importing(input, into: database, on: server, model: model)
        #expect(result.status == 65, "\(result)")
        #expect(result.stderrLines == [#"sluice: error: <stdin>:2:26: Owner: cannot write database '\#(server.uri(database))': new row for relation "owners" violates check constraint "adult" (Failing row contains (2, Bob, 7).)"#],
                "\(result)")
        #expect(try server.rows(database, "SELECT (SELECT count(*) FROM pets) + (SELECT count(*) FROM owners)") == ["0"])
    }
}
