import Foundation
@testable import Sluice

/// A fresh directory under the system's temporary directory, deleted with its contents when
/// the value is released.
final class TemporaryDirectory {
    let path: String

    init() {
        var template = Array((NSTemporaryDirectory() + "sluice-store-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else { fatalError("mkdtemp failed: \(errno)") }
        path = String(cString: made)
    }

    deinit {
        // Make read-only fixtures deletable again.
        if let names = try? FileManager.default.contentsOfDirectory(atPath: path) {
            for name in names { chmod(path + "/" + name, 0o644) }
        }
        chmod(path, 0o755)
        try? FileManager.default.removeItem(atPath: path)
    }

    func file(_ name: String) -> String { path + "/" + name }

    /// The names in the directory, sorted.
    var contents: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
    }

    /// Writes `bytes` to `name` and returns its path.
    @discardableResult
    func write(_ bytes: [UInt8], to name: String) throws -> String {
        let path = file(name)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    func bytes(of name: String) -> [UInt8]? {
        FileManager.default.contents(atPath: file(name)).map { Array($0) }
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

