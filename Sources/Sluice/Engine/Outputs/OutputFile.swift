/// A file an import writes beside its database, `--rejects` or `--stats` (`docs/cli.md`).
///
/// Made before the import begins, so that an output that cannot be written (a directory, a
/// missing folder, a read-only file, `/dev/full`) stops the import before anything is read
/// or written (exit 74). A regular file is written to a temporary file beside it
/// (`TemporaryFiles`) and moved into place by `place()` once the import's outcome is known;
/// until then whatever was at the path is untouched, and `discard()` (or dropping the object)
/// leaves it so. A terminal, a pipe or a device (`/dev/stdout`) is written in place.
///
/// A symbolic link to an existing file is followed (the link stays, the file it names is
/// replaced); one whose target does not exist is refused, as for `--db`: creating a file
/// somewhere the link points is not what a path the user typed promises.
package final class OutputFile {
    /// The path the user gave.
    package let path: String
    /// What the file is, for messages: "rejects file", "stats file".
    let role: String
    private var descriptor: Int32
    /// Where the finished file goes: `path` with a symbolic link resolved.
    private let target: String
    /// nil when the output is written in place.
    private let temporaryPath: String?

    /// Creates the temporary file (or opens a terminal, pipe or device). Failure is `.io`
    /// naming `path`.
    package init(path: String, role: String) throws(SluiceError) {
        self.path = path
        self.role = role
        func failure(_ reason: String) -> SluiceError {
            SluiceError(.io, "cannot write \(role) '\(path)': \(reason)")
        }
        var target = path
        if SystemCalls.isSymbolicLink(path) {
            guard SystemCalls.status(ofPath: path) != nil else {
                let pointee = SystemCalls.linkTarget(path) ?? "?"
                throw failure("it is a symbolic link to '\(pointee)', which does not exist")
            }
            // `/dev/stdout` on a pipe names no path (`/proc/self/fd/1` → `pipe:[…]`): written
            // in place through the link, below.
            target = SystemCalls.resolvedPath(path) ?? path
        }
        self.target = target
        if let info = SystemCalls.status(ofPath: target) {
            if info.isDirectory { throw failure("it is a directory") }
            if !info.isRegularFile {
                let fd = SystemCalls.openForWritingInPlace(target)
                guard fd >= 0 else { throw failure(SystemCalls.describe(errno: SystemCalls.errno)) }
                if let refused = SystemCalls.probeWrite(fd) {
                    SystemCalls.close(fd)
                    throw failure(SystemCalls.describe(errno: refused))
                }
                descriptor = fd
                temporaryPath = nil
                return
            }
            // Root may write any file; a file without write bits is still meant to stay.
            if !info.hasWriteBit || !SystemCalls.isWritable(target) { throw failure("the file is read-only") }
        }
        TemporaryFiles.removeStale(for: target)
        let temporaryPath = TemporaryFiles.path(for: target)
        let fd = SystemCalls.createNewForWriting(temporaryPath)
        guard fd >= 0 else { throw failure(SystemCalls.describe(errno: SystemCalls.errno)) }
        descriptor = fd
        self.temporaryPath = temporaryPath
    }

    deinit {
        discard()
    }

    /// Appends `bytes`. A failed write is `.io`.
    package func write(_ bytes: [UInt8]) throws(SluiceError) {
        precondition(descriptor >= 0, "write after place() or discard()")  // our bug
        let descriptor = descriptor
        if let failure = bytes.withUnsafeBytes({ SystemCalls.writeAll(descriptor, $0) }) {
            throw SluiceError(.io, "cannot write \(role) '\(path)': \(SystemCalls.describe(errno: failure))")
        }
    }

    /// Moves the finished file into place (syncing it first, so a crash leaves the old file or
    /// the whole new one). Harmless after `place()` or `discard()`.
    package func place() throws(SluiceError) {
        guard descriptor >= 0 else { return }
        let fd = descriptor
        descriptor = -1
        guard let temporaryPath else {
            SystemCalls.close(fd)
            return
        }
        let failed = SystemCalls.fsync(descriptor: fd)
        SystemCalls.close(fd)
        if let code = failed ?? SystemCalls.rename(temporaryPath, to: target) {
            SystemCalls.removeFile(temporaryPath)
            throw SluiceError(.io, "cannot write \(role) '\(path)': \(SystemCalls.describe(errno: code))")
        }
    }

    /// Drops what was written; the path keeps what it held. Harmless after `place()`.
    package func discard() {
        guard descriptor >= 0 else { return }
        SystemCalls.close(descriptor)
        descriptor = -1
        if let temporaryPath { SystemCalls.removeFile(temporaryPath) }
    }
}

@available(*, unavailable, message: "an output belongs to one thread")
extension OutputFile: Sendable {}
