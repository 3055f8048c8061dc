import Foundation
import SluiceTestSupport
@testable import Sluice

/// A fresh temporary directory to run `sluice` in, deleted with its contents on release.
final class Workspace: TemporaryDirectory {
    init() { super.init(prefix: "sluice-e2e") }

    /// Writes `text` to `name` (relative to the workspace) and returns the name.
    @discardableResult
    func write(_ text: String, to name: String) throws -> String {
        try write(Array(text.utf8), to: name)
    }

    @discardableResult
    func write(_ bytes: [UInt8], to name: String) throws -> String {
        try writeFile(bytes, named: name)
        return name
    }

    /// Runs `sluice arguments…` here.
    func sluice(_ arguments: String..., stdin: [UInt8] = []) throws -> SluiceResult {
        try SluiceRunner.run(arguments, stdin: stdin, in: path)
    }

    func sluice(_ arguments: [String], stdin: [UInt8] = [], environment: [String: String] = [:]) throws -> SluiceResult {
        try SluiceRunner.run(arguments, stdin: stdin, in: path, environment: environment)
    }

    /// Runs `sluice arguments…` here with stderr on a pseudo-terminal `columns` wide.
    func sluiceOnTerminal(_ arguments: [String], stdin: [UInt8] = [], columns: Int = 100) throws -> SluiceResult {
        try SluiceRunner.run(arguments, stdin: stdin, in: path, terminalColumns: columns)
    }

    /// Copies the fixture store `store` (a path under the package) to `name` here, with its
    /// `-wal` and `-shm` where it has them (its rows may be in its `-wal`), writable; returns
    /// the copy's path.
    @discardableResult
    func copyStore(_ store: String, to name: String) throws -> String {
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: PackageFiles.path(store + suffix)) {
            try FileManager.default.copyItem(atPath: PackageFiles.path(store + suffix), toPath: file(name + suffix))
            chmod(file(name + suffix), 0o644)
        }
        return file(name)
    }

    /// Opens a database of the workspace read-only.
    func database(_ name: String) throws -> TestDatabase {
        try TestDatabase(path: file(name))
    }
}

/// Read-only queries on a database an import wrote, through the library's own `Connection`.
struct TestDatabase {
    let connection: Connection

    init(path: String) throws {
        connection = try Connection(path: path, mode: .readOnly)
    }

    func rows(_ sql: String, _ arguments: [ColumnValue] = []) throws -> [[ColumnValue]] {
        try connection.rows(sql, arguments)
    }

    func scalar(_ sql: String, _ arguments: [ColumnValue] = []) throws -> ColumnValue? {
        try connection.scalar(sql, arguments)
    }

    func count(_ table: String) throws -> Int64? {
        guard case .integer(let count)? = try scalar("SELECT count(*) FROM \"\(table)\"") else { return nil }
        return count
    }

    /// Every row of `table` in key order: the whole content, to compare before and after.
    func dump(_ table: String, orderBy key: String = "pk") throws -> [[ColumnValue]] {
        try rows("SELECT * FROM \"\(table)\" ORDER BY \"\(key)\"")
    }

    /// The names of the tables, sorted.
    func tables() throws -> [String] {
        try rows("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").compactMap {
            if case .text(let name) = $0[0] { return name }
            return nil
        }
    }

    func integrityCheck() throws -> ColumnValue? {
        try scalar("PRAGMA integrity_check")
    }
}

/// Small inputs and models used by several suites.
enum Fixtures {
    static let transitModel = "Examples/transit/model.json"
    static let transitSample = "Examples/transit/sample.json"

    /// One entity `T` with an integer identity `id` and a string `n`; records at the top level.
    static let itemModel = """
        {
          "root": "T",
          "entities": {
            "T": {
              "table": "t",
              "identity": "id",
              "attributes": { "id": "integer", "n": "string" }
            }
          }
        }
        """

    /// Like `itemModel`, with `n` an integer (for conversion errors).
    static let numberModel = """
        {
          "root": "T",
          "entities": {
            "T": {
              "table": "t",
              "identity": "id",
              "attributes": { "id": "integer", "n": "integer" }
            }
          }
        }
        """
}

extension ColumnValue {
    var text: String? {
        if case .text(let value) = self { return value }
        return nil
    }

    var integer: Int64? {
        if case .integer(let value) = self { return value }
        return nil
    }

    var real: Double? {
        if case .real(let value) = self { return value }
        return nil
    }
}
