import Foundation

/// A fresh directory under the system's temporary directory, deleted with its contents when
/// the value is released. Both test targets build on it: the library's tests write inputs and
/// databases into one, the command's tests run `sluice` in one (`Workspace`).
open class TemporaryDirectory {
    public let path: String

    public init(prefix: String = "sluice-test") {
        var template = Array((NSTemporaryDirectory() + prefix + "-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else { fatalError("mkdtemp failed: \(errno)") }
        path = String(cString: made)
    }

    deinit {
        // Read-only files and folders a test made must not outlive it.
        if let names = try? FileManager.default.contentsOfDirectory(atPath: path) {
            for name in names { chmod(path + "/" + name, 0o644) }
        }
        chmod(path, 0o755)
        try? FileManager.default.removeItem(atPath: path)
    }

    /// The path of `name` in the directory.
    public func file(_ name: String) -> String { path + "/" + name }

    public func exists(_ name: String) -> Bool {
        FileManager.default.fileExists(atPath: file(name))
    }

    public func bytes(of name: String) -> [UInt8]? {
        FileManager.default.contents(atPath: file(name)).map { Array($0) }
    }

    /// Every name in the directory (hidden ones too), sorted.
    public var contents: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
    }

    /// Writes `bytes` to `name` (relative to the directory).
    public func writeFile(_ bytes: [UInt8], named name: String) throws {
        try Data(bytes).write(to: URL(fileURLWithPath: file(name)))
    }
}
