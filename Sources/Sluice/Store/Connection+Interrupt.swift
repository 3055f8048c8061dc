internal import CSQLite

extension Connection {
    /// Makes every statement on this connection check `shouldStop` about every `steps` SQLite
    /// VM instructions (sqlite3_progress_handler); when it returns true the statement stops
    /// with SQLITE_INTERRUPT (an `SQLiteError.interrupt`). nil removes the check.
    ///
    /// This is how a long statement is cut short on SIGINT without calling into SQLite from
    /// another thread or a signal handler: the check runs on the connection's own thread and
    /// only reads a flag. Inside an explicit transaction an interrupted write leaves the
    /// transaction open or rolled back; either way the caller rolls back.
    func setInterruptCheck(every steps: Int32 = 4096, _ shouldStop: (() -> Bool)?) {
        interruptBox = shouldStop.map(InterruptBox.init)
        guard let box = interruptBox else {
            sqlite3_progress_handler(handle, 0, nil, nil)
            return
        }
        let context = Unmanaged.passUnretained(box).toOpaque()
        sqlite3_progress_handler(handle, steps, { context in
            guard let context else { return 0 }
            return Unmanaged<InterruptBox>.fromOpaque(context).takeUnretainedValue().shouldStop() ? 1 : 0
        }, context)
    }
}

/// Keeps the interrupt check alive while SQLite holds a pointer to it.
final class InterruptBox {
    let shouldStop: () -> Bool
    init(_ shouldStop: @escaping () -> Bool) { self.shouldStop = shouldStop }
}
