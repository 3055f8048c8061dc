import Sluice

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
    /// Installs the handlers (`Signals.handleInterruptions`: ignored signals stay ignored,
    /// blocked ones are unblocked); `cancellation` is what they cancel.
    /// `clearsLine`: a progress bar may be on the line, so the second signal's message
    /// clears it first.
    static func install(clearsLine: Bool = false) -> ImportCancellation {
        let cancellation = importCancellation  // initialised here, never inside the handler
        interruptionClearsLine = clearsLine
        Signals.handleInterruptions(with: handleInterruption)
        return cancellation
    }

    /// Puts the default actions back (once the import is over there is nothing to roll back).
    static func uninstall() {
        Signals.restoreDefaultInterruptionHandling()
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
            Signals.writeFromHandler(clear)
        }
        Signals.writeFromHandler(message)
        Signals.exitFromHandler(130)
    }
    importCancellation.cancel()
}
