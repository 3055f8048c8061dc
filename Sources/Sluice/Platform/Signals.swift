#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// SIGINT and SIGTERM for a command that cancels its import on them, and the two calls a
/// signal handler may make (both async-signal-safe).
package enum Signals {
    /// Installs `handler` for SIGINT and SIGTERM.
    ///
    /// With `sigaction` and without `SA_RESTART` (which `signal()` sets): a read blocked on an
    /// idle pipe or terminal returns EINTR, so the import can stop instead of waiting for
    /// input. A signal the parent ignores stays ignored (as a shell leaves SIGINT ignored for
    /// a background job). A blocked signal is unblocked: a parent's blocked mask is inherited
    /// through exec (test runners and thread pools block signals), and a blocked SIGINT would
    /// wait until the import ended.
    package static func handleInterruptions(with handler: @escaping @convention(c) (Int32) -> Void) {
        var unblock = sigset_t()
        sigemptyset(&unblock)
        for number in [SIGINT, SIGTERM] {
            var action = sigaction()
            #if canImport(Darwin)
            action.__sigaction_u.__sa_handler = handler
            #else
            action.__sigaction_handler.sa_handler = handler
            #endif
            action.sa_flags = 0
            sigemptyset(&action.sa_mask)
            var previous = sigaction()
            sigaction(number, &action, &previous)
            #if canImport(Darwin)
            let previousHandler = previous.__sigaction_u.__sa_handler
            #else
            let previousHandler = previous.__sigaction_handler.sa_handler
            #endif
            if let previousHandler, unsafeBitCast(previousHandler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self) {
                signal(number, SIG_IGN)
            } else {
                sigaddset(&unblock, number)
            }
        }
        pthread_sigmask(SIG_UNBLOCK, &unblock, nil)
    }

    /// Puts the default actions of SIGINT and SIGTERM back.
    package static func restoreDefaultInterruptionHandling() {
        signal(SIGINT, SIG_DFL)
        signal(SIGTERM, SIG_DFL)
    }

    /// Writes `text` to standard error with one `write(2)`, from a signal handler.
    package static func writeFromHandler(_ text: StaticString) {
        _ = write(STDERR_FILENO, text.utf8Start, text.utf8CodeUnitCount)
    }

    /// Ends the process at once (`_exit`: no atexit handlers, no buffers flushed), from a
    /// signal handler.
    package static func exitFromHandler(_ status: Int32) -> Never {
        _exit(status)
    }
}
