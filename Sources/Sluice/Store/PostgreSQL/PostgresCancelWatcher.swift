/// Stops the statement a PostgreSQL import is waiting on once the import is cancelled
/// (`docs/postgresql.md`, transactions): Ctrl-C or SIGTERM during one long statement (a big
/// `UPDATE … FROM`, an index built after the load) would otherwise wait for its end.
///
/// A thread of its own (`PeriodicThread`) looks at `shouldStop` every `interval` and, once it is true, asks the
/// server to cancel whatever the connection runs (`PQcancel`, which opens a connection of its
/// own and is safe to call from any thread), again every `interval` until `stop()`: a request
/// that arrives between two statements cancels nothing, and the import may start another. The
/// statement then fails with SQLSTATE 57014, which the import reports as its interruption and
/// rolls back. The signal handler itself only sets the flag `shouldStop` reads.
///
/// The owner (`PostgresStore`) stops the watcher before it commits or closes the connection,
/// so a request never reaches a COMMIT, nor a connection that is gone.
final class PostgresCancelWatcher {
    static let interval = 0.05

    private let pq: LibPQ
    /// `PGcancel*`: the connection's address and secret key, freed in `stop()`.
    private let cancel: OpaquePointer
    private var thread: PeriodicThread?

    /// Starts watching; nil when libpq cannot make a cancel request for the connection.
    init?(pq: LibPQ, connection: OpaquePointer, shouldStop: @escaping () -> Bool) {
        guard let cancel = pq.getCancel(connection) else { return nil }
        self.pq = pq
        self.cancel = cancel
        thread = PeriodicThread(after: Self.interval) {
            if shouldStop() {
                var reason = [CChar](repeating: 0, count: 256)
                // A failed request (the server gone) changes nothing: the statement fails anyway.
                _ = pq.cancel(cancel, &reason, Int32(reason.count))
            }
            return Self.interval
        }
    }

    /// Stops and joins the thread; no request is sent afterwards. Harmless when stopped.
    /// Called by the owner's thread only.
    func stop() {
        guard let thread else { return }
        thread.stop()
        self.thread = nil
        pq.freeCancel(cancel)
    }
}
