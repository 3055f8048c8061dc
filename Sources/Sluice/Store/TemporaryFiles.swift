/// The hidden files Sluice writes a new file in before moving it into place whole: a new
/// SQLite database, `--rejects` and `--stats` (`docs/cli.md`). Each lies beside its target, so
/// the move is a rename within one directory, and is named `.<name>.sluice-<pid>.tmp`.
///
/// A process killed before its move leaves its file behind; the next import that creates the
/// same target deletes it, once no process with that pid runs. Only files of the same target
/// are considered: a pid seen from another host or container sharing the folder may look dead
/// while its import runs, and limiting the guess to one name keeps it to a file that import
/// would have collided with anyway.
enum TemporaryFiles {
    /// The temporary file of this process for `target`.
    static func path(for target: String) -> String {
        let (directory, name) = splitPath(target)
        let prefix = directory == "." && !target.hasPrefix("./") ? "" : (directory.hasSuffix("/") ? directory : directory + "/")
        return "\(prefix).\(name).sluice-\(SystemCalls.processID).tmp"
    }

    /// Where a new database's vacuumed copy is written (`ImportDatabase.commit`) before it
    /// moves into place: the temporary file's name with `copySuffix`.
    static func copyPath(for target: String) -> String {
        path(for: target) + copySuffix
    }

    static let copySuffix = "-vacuumed"

    /// The files SQLite may keep beside a database: their suffix, and what each is.
    static let sqliteCompanions = [("-journal", "rollback journal"), ("-wal", "write-ahead log"), ("-shm", "shared-memory file")]

    /// Every file this process may have written for the new database `target`: its temporary
    /// file, the vacuumed copy, and SQLite's companions of each.
    static func files(for target: String) -> [String] {
        [path(for: target), copyPath(for: target)].flatMap { file in [file] + sqliteCompanions.map { file + $0.0 } }
    }

    /// The directory ("." for a bare name) and the last component of `path`.
    static func splitPath(_ path: String) -> (directory: String, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return (".", path) }
        let directory = String(path[..<slash])
        return (directory.isEmpty ? "/" : directory, String(path[path.index(after: slash)...]))
    }

    /// The pid in `fileName` when it is a temporary file of a target named `name` (its
    /// vacuumed copy, or one of SQLite's `-journal`, `-wal`, `-shm` beside either); nil for
    /// any other file.
    static func processID(inFileName fileName: String, of name: String) -> Int32? {
        let prefix = ".\(name).sluice-"
        guard fileName.hasPrefix(prefix) else { return nil }
        var rest = fileName.dropFirst(prefix.count)
        for (suffix, _) in sqliteCompanions where rest.hasSuffix(suffix) {
            rest = rest.dropLast(suffix.count)
        }
        if rest.hasSuffix(copySuffix) { rest = rest.dropLast(copySuffix.count) }
        guard rest.hasSuffix(".tmp") else { return nil }
        let digits = rest.dropLast(4)
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int32(digits)
    }

    /// Deletes the temporary files of `target` whose process no longer runs (and the old one
    /// of a process that had our pid before).
    static func removeStale(for target: String) {
        let (directory, name) = splitPath(target)
        let me = SystemCalls.processID
        for fileName in SystemCalls.fileNames(inDirectory: directory) {
            guard let pid = processID(inFileName: fileName, of: name) else { continue }
            if pid == me || !SystemCalls.processExists(pid) {
                SystemCalls.removeFile(directory.hasSuffix("/") ? directory + fileName : directory + "/" + fileName)
            }
        }
    }
}
