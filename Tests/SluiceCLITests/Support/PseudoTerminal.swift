import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A pseudo-terminal to give `sluice` as its stderr, so that `isatty(2)` is true and the
/// progress bar is drawn as on a user's terminal; the test reads what was drawn on the other
/// side. The terminal side is raw (no `\n` → `\r\n`), so the bytes read are the bytes written.
///
/// One read of the controller side: the bytes read so far, and when that read returned.
struct Arrival: Sendable {
    var bytes: Int
    var nanoseconds: UInt64
}

/// `@unchecked Sendable`: the terminal side is closed before another thread reads the
/// controller side, which never changes.
final class PseudoTerminal: @unchecked Sendable {
    /// The side the test reads.
    let controller: Int32
    /// The side `sluice` writes to.
    private(set) var terminal: Int32

    /// `raw`: bytes pass as they are (for a stderr the test reads); otherwise the terminal
    /// edits lines as a user's does, and Ctrl-D (0x04) at a line's start ends the input.
    init(columns: Int, rows: Int = 24, raw: Bool = true) throws {
        var controller: Int32 = -1
        var terminal: Int32 = -1
        var size = winsize(ws_row: UInt16(rows), ws_col: UInt16(columns), ws_xpixel: 0, ws_ypixel: 0)
        guard openpty(&controller, &terminal, nil, nil, &size) == 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        // Other tests start processes at the same time: none may inherit a copy of the
        // terminal, or the end of output would wait for them too (the child gets its copy by dup2).
        _ = fcntl(controller, F_SETFD, FD_CLOEXEC)
        _ = fcntl(terminal, F_SETFD, FD_CLOEXEC)
        var mode = termios()
        tcgetattr(terminal, &mode)
        if raw { cfmakeraw(&mode) } else { mode.c_lflag |= tcflag_t(ICANON) }
        tcsetattr(terminal, TCSANOW, &mode)
        self.controller = controller
        self.terminal = terminal
    }

    deinit {
        closeTerminal()
        close(controller)
    }

    /// Once the child has its copy: then the end of the child is the end of the output.
    func closeTerminal() {
        if terminal >= 0 { close(terminal) }
        terminal = -1
    }

    /// Everything written until the terminal side is closed everywhere (`read` then fails
    /// with EIO, after the buffered bytes). `arrivals` gets, for each read, how many bytes had
    /// arrived by its end and when (`DispatchTime`'s nanoseconds): when each redraw was seen.
    func readToEnd(arrivals: inout [Arrival]) -> Data {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 4_096)
        while true {
            let count = read(controller, &buffer, buffer.count)
            if count > 0 {
                data.append(contentsOf: buffer[..<count])
                arrivals.append(Arrival(bytes: data.count, nanoseconds: DispatchTime.now().uptimeNanoseconds))
            } else if count < 0 && errno == EINTR {
                continue
            } else {
                return data
            }
        }
    }
}
