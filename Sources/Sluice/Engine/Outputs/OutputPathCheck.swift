/// Refuses an output (`--rejects`, `--stats`) that would overwrite a file the import reads or
/// writes (`docs/cli.md`): the database, its `-journal`, `-wal` and `-shm`, a temporary file of
/// it or of another output, an input, the model (any file inside a Core Data model's bundle), or
/// another output. A usage error, before anything is opened.
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
    /// value (a PostgreSQL URI has no file), nil for none; `model` the `--model` value, nil
    /// for none (a built-in model has no file).
    package static func check(_ outputs: [Output], database: String?, inputs: [String], model: String? = nil) throws(SluiceError) {
        let database = database.flatMap { ImportStores.isPostgreSQL($0) ? nil : $0 }
        let model = model.flatMap { BuiltInModel(rawValue: $0) == nil ? $0 : nil }
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
                if place.isTemporaryFile(of: db) { throw clash("a temporary file of the database '\(database)'") }
            }
            for input in inputs where input != "-" {
                if place.isSame(as: Place(input)) { throw clash("the input '\(input)'") }
            }
            if let model {
                if place.isSame(as: Place(model)) { throw clash("the model '\(model)'") }
                if let bundle = bundle(of: model), place.isInside(bundle) { throw clash("inside the model '\(bundle)'") }
            }
            for other in outputs.indices where other != index {
                if other < index && place.isSame(as: places[other]) {
                    throw SluiceError(.usage, "\(outputs[other].option) '\(outputs[other].path)' and \(output.option) '\(output.path)' are the same file; choose another path")
                }
                if place.isTemporaryFile(of: places[other]) {
                    throw clash("a temporary file of \(outputs[other].option) '\(outputs[other].path)'")
                }
            }
        }
    }

    /// The folder whose every file a Core Data model is read from: the outermost `.xcdatamodeld`,
    /// `.momd` or `.xcdatamodel` on `model`'s path (a version's `contents` is read with its
    /// bundle's other versions); nil for a model file of its own.
    private static func bundle(of model: String) -> String? {
        var prefix = model.hasPrefix("/") ? "/" : ""
        for part in model.split(separator: "/") {
            prefix += part
            if [".xcdatamodeld", ".momd", ".xcdatamodel"].contains(where: part.hasSuffix) { return prefix }
            prefix += "/"
        }
        return nil
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

        /// Whether this is a file in the folder `bundle` or one below it.
        func isInside(_ bundle: String) -> Bool {
            guard let mine = resolved, let folder = SystemCalls.resolvedPath(bundle) else { return false }
            return mine == folder || mine.hasPrefix(folder.hasSuffix("/") ? folder : folder + "/")
        }

        /// Whether this is named as a temporary file of `target` (`TemporaryFiles`): its own,
        /// a vacuumed copy, or a companion of either, of any process.
        func isTemporaryFile(of target: Place) -> Bool {
            guard let name = resolved.map(TemporaryFiles.splitPath), let targetName = target.resolved.map(TemporaryFiles.splitPath)
            else { return false }
            return name.directory == targetName.directory && TemporaryFiles.processID(inFileName: name.name, of: targetName.name) != nil
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
