/// Refuses an output (`--rejects`, `--stats`) that would overwrite the database, one of its
/// files, an input, or another output (`docs/cli.md`): a usage error, before anything is opened.
///
/// Two paths are the same file when they resolve to one path (symbolic links, `.` and `..`
/// followed; for a file that does not exist yet, its folder's), or when both exist as regular
/// files with the same device and inode (hard links, bind mounts). Terminals, pipes and devices
/// are never "the same file" here: `--rejects /dev/stderr --stats /dev/stderr` only interleaves
/// text, and standard input (`-`) is no path at all.
package enum OutputPathCheck {
    /// An output the command writes: the option that names it and its path.
    package struct Output {
        package var option: String
        package var path: String

        package init(option: String, path: String) {
            self.option = option
            self.path = path
        }
    }

    /// Throws `.usage` naming both paths when an output clashes. `database` is the `--db`
    /// value (a PostgreSQL URI has no file), nil for none.
    package static func check(_ outputs: [Output], database: String?, inputs: [String]) throws(SluiceError) {
        let database = database.flatMap { ImportStores.isPostgreSQL($0) ? nil : $0 }
        let places = outputs.map { Place($0.path) }
        for (index, output) in outputs.enumerated() {
            let place = places[index]
            func clash(_ what: String) -> SluiceError {
                SluiceError(.usage, "\(output.option) '\(output.path)' is \(what); choose another path")
            }
            if let database {
                let db = Place(database)
                if place.isSame(as: db) { throw clash("the database '\(database)'") }
                for (suffix, what) in TemporaryFiles.sqliteCompanions {
                    if place.isSame(as: Place(database + suffix)) || place.isSame(as: db.withSuffix(suffix)) {
                        throw clash("the \(what) of the database '\(database)'")
                    }
                }
                if let name = place.resolved.map(TemporaryFiles.splitPath), let dbName = db.resolved.map(TemporaryFiles.splitPath),
                   name.directory == dbName.directory, TemporaryFiles.processID(inFileName: name.name, of: dbName.name) != nil {
                    throw clash("a temporary file of the database '\(database)'")
                }
            }
            for input in inputs where input != "-" {
                if place.isSame(as: Place(input)) { throw clash("the input '\(input)'") }
            }
            for other in outputs.indices where other < index && place.isSame(as: places[other]) {
                throw SluiceError(.usage, "\(outputs[other].option) '\(outputs[other].path)' and \(output.option) '\(output.path)' are the same file; choose another path")
            }
        }
    }

    /// What identifies a path: its resolved form and, for an existing regular file, its inode.
    private struct Place {
        var resolved: String?
        var identity: (device: UInt64, inode: UInt64)?
        var isSpecial = false

        init(_ path: String) {
            if let info = SystemCalls.status(ofPath: path) {
                if info.isRegularFile {
                    identity = (info.device, info.inode)
                } else if !info.isDirectory {
                    isSpecial = true
                }
            }
            resolved = Place.resolve(path)
        }

        private init(resolved: String?) {
            self.resolved = resolved
        }

        /// `path` resolved; for a path that does not exist (yet), its folder resolved and its
        /// name appended; a dangling symbolic link resolves to what it names.
        private static func resolve(_ path: String) -> String? {
            if let resolved = SystemCalls.resolvedPath(path) { return resolved }
            var path = path
            for _ in 0..<40 {  // a loop of links ends somewhere
                guard let link = SystemCalls.linkTarget(path) else { break }
                path = link.hasPrefix("/") ? link : TemporaryFiles.splitPath(path).directory + "/" + link
            }
            let (directory, name) = TemporaryFiles.splitPath(path)
            guard name != "." && name != "..", let folder = SystemCalls.resolvedPath(directory) else { return nil }
            return folder.hasSuffix("/") ? folder + name : folder + "/" + name
        }

        func withSuffix(_ suffix: String) -> Place {
            Place(resolved: resolved.map { $0 + suffix })
        }

        func isSame(as other: Place) -> Bool {
            if isSpecial || other.isSpecial { return false }
            if let mine = identity, let theirs = other.identity, mine == theirs { return true }
            if let mine = resolved, let theirs = other.resolved, mine == theirs { return true }
            return false
        }
    }
}
