/// A file or standard input, read with `read(2)` on a descriptor it owns (standard input
/// is borrowed, never closed).
final class FileSource: ByteSource {
    let name: String
    let expectedSize: Int64?
    var storedSize: Int64? { expectedSize }
    /// Anything but a regular file (whose size is known) may have to wait for its writer.
    var waitsForInput: Bool { expectedSize == nil }
    private(set) var storedBytesRead: Int64 = 0
    private let descriptor: Int32
    private let ownsDescriptor: Bool
    /// Asked when a read is interrupted by a signal (`EINTR`): true makes the read fail with
    /// `.interrupted` instead of going back to waiting, so a cancelled import blocked on an
    /// idle pipe or terminal stops at once (the signal handler must be installed without
    /// `SA_RESTART` for the read to be interrupted at all).
    var stopsWhenInterrupted: (@Sendable () -> Bool)?
    /// A read returned 0: the end, for good.
    private var ended = false

    /// Opens `path` for reading. A missing or unreadable file, or a directory, is
    /// `.cannotOpenInput`, naming what the file was to be (`role`: "input", "model"):
    /// `cannot open input 'x.json': No such file or directory`. Opening a FIFO
    /// waits for its writer; a signal that makes `stopsWhenInterrupted` true ends the wait
    /// with `.interrupted` (any other signal, the wait goes on).
    init(path: String, role: String = "input", stopsWhenInterrupted: (@Sendable () -> Bool)? = nil) throws(SluiceError) {
        // A signal that came before the open would not interrupt its wait.
        if stopsWhenInterrupted?() == true { throw SluiceError(.interrupted, "opening '\(path)' was interrupted") }
        var fd = SystemCalls.openForReading(path)
        while fd < 0 && SystemCalls.errno == SystemCalls.interrupted {
            if stopsWhenInterrupted?() == true {
                throw SluiceError(.interrupted, "opening '\(path)' was interrupted")
            }
            fd = SystemCalls.openForReading(path)
        }
        guard fd >= 0 else {
            throw FileSource.cannotOpen(role, path, errno: SystemCalls.errno)
        }
        self.stopsWhenInterrupted = stopsWhenInterrupted
        guard let info = SystemCalls.status(ofDescriptor: fd) else {
            let code = SystemCalls.errno
            SystemCalls.close(fd)
            throw FileSource.cannotOpen(role, path, errno: code)
        }
        // open(2) succeeds on a directory; only the first read fails. Say so up front.
        if info.isDirectory {
            SystemCalls.close(fd)
            throw FileSource.cannotOpen(role, path, errno: SystemCalls.isADirectory)
        }
        self.name = path
        self.descriptor = fd
        self.ownsDescriptor = true
        self.expectedSize = FileSource.remainingSize(of: fd, info: info)
        // A hint only: the kernel may read ahead further. Failure changes nothing.
        SystemCalls.adviseSequentialReading(fd)
    }

    init(borrowing fd: Int32, name: String) {
        self.name = name
        self.descriptor = fd
        self.ownsDescriptor = false
        self.expectedSize = SystemCalls.status(ofDescriptor: fd).flatMap { FileSource.remainingSize(of: fd, info: $0) }
    }

    /// Standard input (descriptor 0), named "<stdin>". Its size is known only when it is
    /// redirected from a regular file.
    static func standardInput() -> FileSource {
        FileSource(borrowing: SystemCalls.standardInput, name: "<stdin>")
    }

    deinit {
        if ownsDescriptor { SystemCalls.close(descriptor) }
    }

    /// 0 once a read returned 0, without reading again: on a terminal, Ctrl-D ends the input
    /// once, and a second `read(2)` would wait for more typing (as stdio's end-of-file flag).
    func read(into buffer: UnsafeMutableRawBufferPointer) throws(SluiceError) -> Int {
        guard let base = buffer.baseAddress, buffer.count > 0, !ended else { return 0 }
        while true {
            // The signal that cancels may come while no read waits (between two reads) or go
            // to another thread: then no read would be interrupted, and one waiting on an idle
            // pipe would wait for ever. So an input that waits for its writer is waited on in
            // short polls, the cancellation asked between them.
            if waitsForInput, let stops = stopsWhenInterrupted {
                if stops() { throw SluiceError(.interrupted, "reading '\(name)' was interrupted") }
                guard SystemCalls.waitUntilReadable(descriptor, milliseconds: 100) else { continue }
            }
            let count = SystemCalls.read(descriptor, into: base, count: buffer.count)
            if count >= 0 {
                storedBytesRead += Int64(count)
                ended = count == 0
                return count
            }
            let code = SystemCalls.errno
            if code == SystemCalls.interrupted {
                if stopsWhenInterrupted?() == true {
                    throw SluiceError(.interrupted, "reading '\(name)' was interrupted")
                }
                continue
            }
            throw SluiceError.readError(on: name, errno: code)
        }
    }

    static func cannotOpen(_ role: String, _ path: String, errno code: Int32) -> SluiceError {
        SluiceError(.cannotOpenInput, "cannot open \(role) '\(path)': \(SystemCalls.describe(errno: code))")
    }

    /// The bytes left to read in a regular file: its size less the current offset (which
    /// is not 0 when standard input is a file the shell has already read from).
    private static func remainingSize(of fd: Int32, info: SystemCalls.FileStatus) -> Int64? {
        guard info.isRegularFile else { return nil }
        return info.size - max(0, SystemCalls.currentOffset(of: fd))
    }
}
