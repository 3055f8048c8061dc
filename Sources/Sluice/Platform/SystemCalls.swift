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

    static func read(_ descriptor: Int32, into base: UnsafeMutableRawPointer, count: Int) -> Int {
        #if canImport(Darwin)
        Darwin.read(descriptor, base, count)
        #elseif canImport(Glibc)
        Glibc.read(descriptor, base, count)
        #else
        Musl.read(descriptor, base, count)
        #endif
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

    /// Removes a file; failure is ignored (every caller removes what may not exist).
    static func removeFile(_ path: String) {
        _ = unlink(path)
    }

    // MARK: What a path or descriptor is

    package struct FileStatus {
        package var isDirectory: Bool
        package var isRegularFile: Bool
        package var size: Int64
        /// Whether any of the owner, group or other write bits is set.
        package var hasWriteBit: Bool
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
                  hasWriteBit: info.st_mode & 0o222 != 0)
    }
}
