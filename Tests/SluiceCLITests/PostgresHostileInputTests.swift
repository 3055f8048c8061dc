import Foundation
import SluiceTestSupport
import Testing
@testable import Sluice

/// Input a hostile or unlucky user gives an import into PostgreSQL (and, where the stores must
/// agree, into SQLite too), through the binary: numbers that no double or integer holds as
/// written, decimal identities spelt differently, names PostgreSQL would truncate or already
/// uses, and passwords that libpq would echo (`docs/postgresql.md`).
@Suite struct PostgresHostileInputTests {
    static let stores = StoreKind.allCases.filter(\.isAvailable)
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
}
