import Foundation
import SluiceTestSupport
import Testing
@testable import Sluice

/// The two stores an import scenario runs against (`@Test(arguments: StoreKind.allCases)`):
/// an SQLite file in the workspace, or a fresh database of the test process's PostgreSQL
/// server (`PostgresServer`). Both are read the same way: rows as lines of `|`-separated
/// fields, NULL as an empty field, as `psql -At` prints them.
enum StoreKind: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case sqlite, postgres

    var testDescription: String { rawValue }

    /// A new, empty database of this kind for one test; without PostgreSQL's server binaries
    /// the test case is reported as skipped (`PostgresServer.started()`).
    func makeDatabase(in workspace: Workspace) throws -> StoreDatabase {
        switch self {
        case .sqlite:
            return StoreDatabase(kind: self, target: "db.sqlite", workspace: workspace, name: "")
        case .postgres:
            let server = try PostgresServer.started()
            let name = try server.makeDatabase()
            return StoreDatabase(kind: self, target: server.uri(name), workspace: workspace, name: name)
        }
    }
}

/// One test's database: what `--db` names, and its rows.
struct StoreDatabase {
    let kind: StoreKind
    /// The `--db` argument.
    let target: String
    let workspace: Workspace
    /// The PostgreSQL database's name.
    let name: String

    /// The rows of `sql`, each a line of `|`-separated fields.
    func rows(_ sql: String) throws -> [String] {
        switch kind {
        case .sqlite:
            return try workspace.database(target).rows(sql).map { row in
                row.map { value in
                    switch value {
                    case .null: return ""
                    case .integer(let number): return String(number)
                    case .real(let number): return String(number)
                    case .text(let text): return text
                    case .blob(let bytes): return "\\x" + bytes.map { String(format: "%02x", $0) }.joined()
                    }
                }.joined(separator: "|")
            }
        case .postgres:
            return try PostgresServer.shared!.rows(name, sql)
        }
    }

    func count(_ table: String) throws -> Int {
        Int(try rows("SELECT count(*) FROM \"\(table)\"").first ?? "") ?? -1
    }

    /// Runs `sluice import --db <target> arguments…` in the workspace.
    func sluiceImport(_ arguments: String..., stdin: [UInt8] = []) throws -> SluiceResult {
        try workspace.sluice(["import", "--db", target] + arguments, stdin: stdin)
    }
}
