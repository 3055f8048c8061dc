import Sluice

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// SIGINT and SIGTERM during an import (`docs/cli.md`: exit 130, the database as it was).
///
/// The handler only calls `ImportCancellation.cancel()`, which stores to an atomic flag
/// (async-signal-safe). The import notices within milliseconds (between chunks, between
/// batches, and inside a long statement through SQLite's progress handler), rolls back,
/// and the error it throws becomes `sluice: error: … interrupted …` and exit 130 like any
/// other; a read waiting on an idle input is interrupted too (no `SA_RESTART`). A second
/// signal exits at once with 130, without cleanup. That is as safe as
/// `kill -9` — SQLite's journal keeps an existing database whole and a new one has not been
/// renamed into place (the next import deletes its temporary file).
enum Interruption {
    /// Installs the handlers; `cancellation` is what they cancel.
    ///
    /// A signal the parent ignores stays ignored (as a shell leaves SIGINT ignored for a
    /// background job). A blocked signal is unblocked: a parent's blocked mask is inherited
    /// through exec (test runners and thread pools block signals), and a blocked SIGINT
    /// would wait until the import ended.
    /// `clearsLine`: a progress bar may be on the line, so the second signal's message
    /// clears it first.
    static func install(clearsLine: Bool = false) -> ImportCancellation {
        let cancellation = importCancellation  // initialised here, never inside the handler
        interruptionClearsLine = clearsLine
        var unblock = sigset_t()
        sigemptyset(&unblock)
        for number in [SIGINT, SIGTERM] {
            // sigaction without SA_RESTART (signal() sets it): a read blocked on an idle pipe
            // or terminal returns EINTR, so the import can stop instead of waiting for input.
            var action = sigaction()
            action.__sigaction_handler.sa_handler = handleInterruption
            action.sa_flags = 0
            sigemptyset(&action.sa_mask)
            var previous = sigaction()
            sigaction(number, &action, &previous)
            if let handler = previous.__sigaction_handler.sa_handler,
               unsafeBitCast(handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self) {
                signal(number, SIG_IGN)
            } else {
                sigaddset(&unblock, number)
            }
        }
        pthread_sigmask(SIG_UNBLOCK, &unblock, nil)
        return cancellation
    }

    /// Puts the default actions back (once the import is over there is nothing to roll back).
    static func uninstall() {
        signal(SIGINT, SIG_DFL)
        signal(SIGTERM, SIG_DFL)
    }
}

/// The one import a `sluice` process runs.
private let importCancellation = ImportCancellation()

/// Set before the handlers are installed and only read by them.
nonisolated(unsafe) private var interruptionClearsLine = false

/// Runs in signal context: an atomic store, or `write` + `_exit`, nothing else.
private func handleInterruption(_ signal: Int32) {
    if importCancellation.isCancelled {
        let message: StaticString = "sluice: error: interrupted twice: stopping at once; the database holds all of the import or none of it\n"
        if interruptionClearsLine {
            let clear: StaticString = "\r\u{1B}[K"
            _ = write(STDERR_FILENO, clear.utf8Start, clear.utf8CodeUnitCount)
        }
        _ = write(STDERR_FILENO, message.utf8Start, message.utf8CodeUnitCount)
        _exit(130)
    }
    importCancellation.cancel()
}
