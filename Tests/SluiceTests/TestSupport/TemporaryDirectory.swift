import Foundation
import SluiceTestSupport
@testable import Sluice

extension TemporaryDirectory {
    /// Writes `bytes` to `name` and returns its path.
    @discardableResult
    func write(_ bytes: [UInt8], to name: String) throws -> String {
        try writeFile(bytes, named: name)
        return file(name)
    }

    /// A database file `name` made by running `sql`.
    @discardableResult
    func makeDatabase(_ name: String, _ sql: String) throws -> String {
        let path = file(name)
        let connection = try Connection(path: path)
        try connection.execute(sql)
        return path
    }
}
