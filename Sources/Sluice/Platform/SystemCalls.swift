#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// File descriptors, files and errors, as the library and the CLI use them: thin wrappers
/// over the C library that hide its per-platform spellings.
package enum SystemCalls {
    package static let standardInput: Int32 = STDIN_FILENO
    package static let standardError: Int32 = STDERR_FILENO

    // errno values the callers tell apart.
    package static let interrupted: Int32 = EINTR
    package static let notFound: Int32 = ENOENT
    package static let isADirectory: Int32 = EISDIR
    static let alreadyExists: Int32 = EEXIST

    /// The calling thread's `errno`.
    package static var errno: Int32 {
        #if canImport(Darwin)
        Darwin.errno
        #elseif canImport(Glibc)
        Glibc.errno
        #else
        Musl.errno
        #endif
    }

    /// What `perror` prints for `code`, in the process's locale.
    package static func describe(errno code: Int32) -> String {
        String(cString: strerror(code))
    }

    // MARK: Descriptors

    /// `open(path, O_RDONLY | O_CLOEXEC)`: a descriptor, or -1 with `errno` set.
    static func openForReading(_ path: String) -> Int32 {
        open(path, O_RDONLY | O_CLOEXEC)
    }

    /// Creates or truncates `path` for writing (mode 0644 before the umask): a descriptor,
    /// or -1 with `errno` set.
    package static func createForWriting(_ path: String) -> Int32 {
        open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    }

    /// Creates `path` for writing only if nothing is there (`O_EXCL`, mode 0644 before the
    /// umask): a descriptor, or -1 with `errno` set.
    static func createNewForWriting(_ path: String) -> Int32 {
        open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
    }

    /// Opens an existing file for writing without truncating it (a terminal, a pipe, a
    /// device): a descriptor, or -1 with `errno` set.
    static func openForWritingInPlace(_ path: String) -> Int32 {
        open(path, O_WRONLY | O_CLOEXEC)
    }

    /// A zero-byte `write`: nil, or the errno with which the file refuses any write (`/dev/full`
    /// says ENOSPC); a terminal, a pipe or a regular file accepts it.
    static func probeWrite(_ descriptor: Int32) -> Int32? {
        var byte: UInt8 = 0
        return withUnsafeBytes(of: &byte) { raw in
            #if canImport(Darwin)
            Darwin.write(descriptor, raw.baseAddress!, 0) < 0 ? errno : nil
            #elseif canImport(Glibc)
            Glibc.write(descriptor, raw.baseAddress!, 0) < 0 ? errno : nil
            #else
            Musl.write(descriptor, raw.baseAddress!, 0) < 0 ? errno : nil
            #endif
        }
    }

    static func read(_ descriptor: Int32, into base: UnsafeMutableRawPointer, count: Int) -> Int {
        #if canImport(Darwin)
        Darwin.read(descriptor, base, count)
        #elseif canImport(Glibc)
        Glibc.read(descriptor, base, count)
        #else
        Musl.read(descriptor, base, count)
        #endif
    }

    /// Waits at most `milliseconds` for `descriptor` to have something to read (data, its end,
    /// or an error, which the next `read` reports; so does a failed `poll`, rather than be
    /// asked again at once). False when the time ran out or a signal came (`EINTR`).
    static func waitUntilReadable(_ descriptor: Int32, milliseconds: Int32) -> Bool {
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        #if canImport(Darwin)
        let ready = Darwin.poll(&entry, 1, milliseconds)
        #elseif canImport(Glibc)
        let ready = Glibc.poll(&entry, 1, milliseconds)
        #else
        let ready = Musl.poll(&entry, 1, milliseconds)
        #endif
        return ready > 0 || (ready < 0 && errno != EINTR)
    }

    package static func close(_ descriptor: Int32) {
        #if canImport(Darwin)
        _ = Darwin.close(descriptor)
        #elseif canImport(Glibc)
        _ = Glibc.close(descriptor)
        #else
        _ = Musl.close(descriptor)
        #endif
    }

    /// Writes all of `bytes`, retrying short writes and `EINTR`. Returns nil, or the errno of
    /// the write that failed.
    package static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32? {
        guard let base = bytes.baseAddress else { return nil }
        var offset = 0
        while offset < bytes.count {
            #if canImport(Darwin)
            let written = Darwin.write(descriptor, base + offset, bytes.count - offset)
            #elseif canImport(Glibc)
            let written = Glibc.write(descriptor, base + offset, bytes.count - offset)
            #else
            let written = Musl.write(descriptor, base + offset, bytes.count - offset)
            #endif
            if written < 0 {
                let code = errno
                if code == EINTR { continue }
                return code
            }
            offset += written
        }
        return nil
    }

    /// Opens and fsyncs a file or a directory; returns nil, or the errno of the step that
    /// failed.
    static func fsync(path: String, directory: Bool) -> Int32? {
        #if canImport(Darwin)
        // Darwin has no O_DIRECTORY requirement for opening a directory read-only.
        let fd = open(path, O_RDONLY)
        #else
        let fd = open(path, directory ? (O_RDONLY | O_DIRECTORY) : O_RDONLY)
        #endif
        guard fd >= 0 else { return errno }
        defer { close(fd) }
        return fsync(descriptor: fd)
    }

    /// `fsync(descriptor)`: nil, or its errno.
    static func fsync(descriptor: Int32) -> Int32? {
        #if canImport(Darwin)
        return Darwin.fsync(descriptor) == 0 ? nil : errno
        #elseif canImport(Glibc)
        return Glibc.fsync(descriptor) == 0 ? nil : errno
        #else
        return Musl.fsync(descriptor) == 0 ? nil : errno
        #endif
    }

    /// `rename(from, to)`: nil, or its errno.
    static func rename(_ from: String, to: String) -> Int32? {
        #if canImport(Darwin)
        return Darwin.rename(from, to) == 0 ? nil : errno
        #elseif canImport(Glibc)
        return Glibc.rename(from, to) == 0 ? nil : errno
        #else
        return Musl.rename(from, to) == 0 ? nil : errno
        #endif
    }

    /// Moves `from` to `to` only if nothing exists at `to`: nil, or the errno (EEXIST when
    /// something is there, which is then left as it is). Linux: `renameat2(RENAME_NOREPLACE)`,
    /// looked up at run time (glibc 2.28+; Swift's Glibc module does not declare it), else
    /// `link` + `unlink` where the file system refuses it; Darwin: `renamex_np(RENAME_EXCL)`.
    static func renameWithoutReplacing(_ from: String, to: String) -> Int32? {
        #if canImport(Darwin)
        return renamex_np(from, to, UInt32(RENAME_EXCL)) == 0 ? nil : errno
        #else
        if let renameat2 = renameat2Function {
            if renameat2(AT_FDCWD, from, AT_FDCWD, to, 1 /* RENAME_NOREPLACE */) == 0 { return nil }
            let code = errno
            // EINVAL: this file system has no RENAME_NOREPLACE; ENOSYS: an old kernel.
            guard code == EINVAL || code == ENOSYS else { return code }
        }
        guard link(from, to) == 0 else { return errno }
        _ = unlink(from)
        return nil
        #endif
    }

    #if !canImport(Darwin)
    private typealias Renameat2 = @convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32
    private static let renameat2Function: Renameat2? = {
        guard let address = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "renameat2") else { return nil }  // RTLD_DEFAULT
        return unsafeBitCast(address, to: Renameat2.self)
    }()
    #endif

    /// The absolute path of `path` with every symbolic link and `.`/`..` resolved
    /// (`realpath`); nil when it does not exist or cannot be resolved.
    static func resolvedPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Whether `path` itself is a symbolic link (`lstat`).
    static func isSymbolicLink(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFLNK
    }

    /// The target a symbolic link holds (`readlink`), nil when `path` is not one.
    static func linkTarget(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: 4097)
        let count = readlink(path, &buffer, 4096)
        guard count >= 0 else { return nil }
        return String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Whether this process may write `path` (`access(path, W_OK)`); when not, `errno` says why.
    static func isWritable(_ path: String) -> Bool {
        access(path, W_OK) == 0
    }

    /// The names in a directory (without "." and ".."); empty when it cannot be read.
    static func fileNames(inDirectory path: String) -> [String] {
        guard let directory = opendir(path) else { return [] }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// Removes a file (a symbolic link itself, not what it names); returns `errno` on failure,
    /// which most callers ignore: they remove what may not exist.
    @discardableResult
    static func removeFile(_ path: String) -> Int32? {
        unlink(path) == 0 ? nil : errno
    }

    // MARK: What a path or descriptor is

    package struct FileStatus {
        package var isDirectory: Bool
        package var isRegularFile: Bool
        package var size: Int64
        /// Whether any of the owner, group or other write bits is set.
        package var hasWriteBit: Bool
        /// The file's identity: the same file, reached by any path, has the same pair.
        package var device: UInt64
        package var inode: UInt64
    }

    /// `stat(path)`: the status, or nil with `errno` set.
    package static func status(ofPath path: String) -> FileStatus? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return FileStatus(info)
    }

    /// `fstat(descriptor)`: the status, or nil with `errno` set.
    static func status(ofDescriptor descriptor: Int32) -> FileStatus? {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return nil }
        return FileStatus(info)
    }

    /// The descriptor's current offset (how much of a file the shell has already read).
    static func currentOffset(of descriptor: Int32) -> Int64 {
        Int64(lseek(descriptor, 0, SEEK_CUR))
    }

    /// Tells the kernel the file will be read from start to end (Linux reads further ahead).
    /// A hint only; nothing happens where there is no such call.
    static func adviseSequentialReading(_ descriptor: Int32) {
        #if os(Linux)
        _ = posix_fadvise(descriptor, 0, 0, POSIX_FADV_SEQUENTIAL)
        #endif
    }

    // MARK: Processes

    static var processID: Int32 { getpid() }

    /// Whether a process with this id still runs (`kill(pid, 0)` does not fail with ESRCH).
    static func processExists(_ pid: Int32) -> Bool {
        !(kill(pid, 0) != 0 && errno == ESRCH)
    }

    /// Sleeps for `milliseconds` (a wait for another process, never a measurement).
    static func sleep(milliseconds: Int) {
        usleep(useconds_t(milliseconds * 1000))
    }

    /// Leaves the process through the C library's `exit` (buffers flushed, atexit run).
    package static func exit(_ status: Int32) -> Never {
        #if canImport(Darwin)
        Darwin.exit(status)
        #elseif canImport(Glibc)
        Glibc.exit(status)
        #else
        Musl.exit(status)
        #endif
    }

    /// Takes the C library's messages (strerror) from the user's locale (`LC_ALL=""`).
    package static func useLocaleOfEnvironment() {
        setlocale(LC_ALL, "")
    }

    /// The value of an environment variable.
    package static func environment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }
}

extension SystemCalls.FileStatus {
    fileprivate init(_ info: stat) {
        let kind = info.st_mode & S_IFMT
        self.init(isDirectory: kind == S_IFDIR, isRegularFile: kind == S_IFREG, size: Int64(info.st_size),
                  hasWriteBit: info.st_mode & 0o222 != 0, device: UInt64(truncatingIfNeeded: info.st_dev), inode: UInt64(truncatingIfNeeded: info.st_ino))
    }
}
