import Foundation
import SluiceTestSupport
import Testing
@testable import Sluice

/// A value SQLite refuses — a UNIQUE index or a trigger made by hand, on insert or update —
/// names its record: `<file>:<line>:<column>: <entity>: <SQLite's reason>`, exit 65, nothing
/// written; the same line as PostgreSQL's (`docs/cli.md`, errors).
@Suite struct SQLiteRefusedRowsTests {
    let workspace = Workspace()

    private func importing(_ input: String, _ extra: [String] = []) throws -> SluiceResult {
        let model = try workspace.write("""
            {"root": "Item", "entities": {"Item": {"table": "items", "identity": "id",
              "attributes": {"id": "string", "n": "integer"}}}}
            """, to: "model.json")
        return try workspace.sluice(["import", "--db", "db.sqlite", "--model", model, "--quiet"] + extra, stdin: Array(input.utf8))
    }

    /// The table made by an import of one record, then changed by hand.
    private func makeTable(_ sql: String) throws {
        let made = try importing(#"{"id": "first", "n": 0}"#)
        try #require(made.status == 0, "\(made)")
        let connection = try Connection(path: workspace.file("db.sqlite"), mode: .readWrite)
        try connection.execute(sql)
    }

    private func records(_ count: Int, _ n: (Int) -> Int) -> String {
        (1...count).map { #"{"id": "r\#($0)", "n": \#(n($0))}"# }.joined(separator: "\n") + "\n"
    }

    private func refusal(_ place: String, _ reason: String) -> [String] {
        ["sluice: error: \(place): Item: cannot write database 'db.sqlite': \(reason)"]
    }

    /// Rows go 64 to a statement; the refused statement's rows are tried one at a time to
    /// find the record, and nothing of the import stays.
    @Test func aUniqueIndexNamesTheSeventiethRecordOfAMultiRowInsert() throws {
        try makeTable(#"CREATE UNIQUE INDEX "items_n" ON "items"("n")"#)
        let result = try importing(records(100) { $0 == 70 ? 12 : $0 })
        #expect(result.status == 65, "\(result)")
        #expect(result.stderrLines == refusal("<stdin>:70:1", "UNIQUE constraint failed: items.n"), "\(result)")
        #expect(try workspace.database("db.sqlite").count("items") == 1)
    }

    /// The same under `--on-error skip`: the database refused what the model accepted, so the
    /// import stops rather than write around it.
    @Test func aTriggerNamesTheRecordFromAFileUnderSkip() throws {
        try makeTable(#"CREATE TRIGGER "positive" BEFORE INSERT ON "items" WHEN NEW."n" < 0 BEGIN SELECT RAISE(ABORT, 'n must not be negative'); END"#)
        _ = try workspace.write("[{\"id\": \"a\", \"n\": 1},\n  {\"id\": \"b\", \"n\": -2}]", to: "in.json")
        let model = try workspace.write("""
            {"root": "Item", "entities": {"Item": {"table": "items", "identity": "id",
              "attributes": {"id": "string", "n": "integer"}}}}
            """, to: "model.json")
        let result = try workspace.sluice("import", "--db", "db.sqlite", "--model", model, "--quiet", "--on-error", "skip", "in.json")
        #expect(result.status == 65, "\(result)")
        #expect(result.stderrLines == refusal("in.json:2:3", "n must not be negative"), "\(result)")
        #expect(try workspace.database("db.sqlite").count("items") == 1)
    }

    /// An update is refused as its record.
    @Test func aRefusedUpdateNamesItsRecord() throws {
        try makeTable(#"CREATE TRIGGER "frozen" BEFORE UPDATE OF "n" ON "items" WHEN NEW."n" > 100 BEGIN SELECT RAISE(ABORT, 'n is frozen'); END"#)
        let result = try importing("{\"id\": \"x\", \"n\": 1}\n{\"id\": \"first\", \"n\": 101}\n")
        #expect(result.status == 65, "\(result)")
        #expect(result.stderrLines == refusal("<stdin>:2:1", "n is frozen"), "\(result)")
        #expect(try workspace.database("db.sqlite").rows("SELECT id, n FROM items ORDER BY pk") == [[.text("first"), .integer(0)]])
    }
}
