internal import CSQLite

/// One SQLite connection: the only owner of its `sqlite3*`, closed in `deinit` (or earlier by
/// `close()`). Statements keep their connection alive, so a connection is never closed under
/// a live statement; `close()` uses `sqlite3_close_v2`, which defers the real close until the
/// last statement is finalized.
///
/// Not `Sendable`: a connection and its statements belong to one thread at a time (`owner`).
final class Connection {
    enum Mode: Sendable {
        /// `SQLITE_OPEN_READONLY`.
        case readOnly
        /// `SQLITE_OPEN_READWRITE`: the file must exist (SQLite falls back to read-only when
        /// the file is write-protected; `ImportDatabase` checks that beforehand).
        case readWrite
        /// `SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE`.
        case create
        /// Read-only, and writing none of the file's companions either: a plain read-only
        /// connection to a database in WAL mode records its read in the `-shm` file (and
        /// creates one when there is none). Opened as a URI with `readonly_shm=1`: SQLite then
        /// maps the `-shm` read-only, or reads the `-wal` into memory when no other connection
        /// has it open. For checks that may refuse a file before anything writes it.
        case untouched

        var flags: Int32 {
            switch self {
            case .readOnly: return SQLITE_OPEN_READONLY
            case .untouched: return SQLITE_OPEN_READONLY | SQLITE_OPEN_URI
            case .readWrite: return SQLITE_OPEN_READWRITE
            case .create: return SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
            }
        }
    }

    /// The file SQLite opened.
    let path: String
    /// How messages name the database: the path the user gave, which differs from `path`
    /// while a new database is built in a temporary file.
    var displayName: String

    /// The thread that may use the connection and its statements now: checked (in debug
    /// builds) as a statement is prepared or run, handed over explicitly (`ThreadOwner`).
    var owner = ThreadOwner()

    private var db: OpaquePointer?
    /// The check `setInterruptCheck(_:)` installed, owned here because SQLite keeps only a
    /// pointer.
    private var interruptBox: InterruptBox?

    /// Opens `path` (`":memory:"` for an in-memory database) with extended result codes on.
    init(path: String, mode: Mode = .create, displayName: String? = nil) throws(SQLiteError) {
        self.path = path
        self.displayName = displayName ?? path
        var handle: OpaquePointer?
        let name = mode == .untouched ? Self.untouchedURI(path) : path
        let rc = sqlite3_open_v2(name, &handle, mode.flags | SQLITE_OPEN_NOMUTEX, nil)
        guard rc == SQLITE_OK, let handle else {
            let error = SQLiteError(resultCode: rc, db: handle)
            sqlite3_close_v2(handle)  // a handle is returned even on failure, except on NOMEM
            throw error
        }
        sqlite3_extended_result_codes(handle, 1)
        db = handle
    }

    deinit {
        close()
    }

    /// The `file:` URI of `path` read-only with a read-only `-shm` (`Mode.untouched`): the
    /// characters a URI gives a meaning (`%`, `?`, `#`) escaped, an absolute path after `//`
    /// (an empty authority) so that one beginning with `//` is not taken for a host.
    static func untouchedURI(_ path: String) -> String {
        var escaped = ""
        for character in path.unicodeScalars {
            switch character {
            case "%": escaped += "%25"
            case "?": escaped += "%3F"
            case "#": escaped += "%23"
            default: escaped.unicodeScalars.append(character)
            }
        }
        // A database in WAL mode without its -shm and with no frames in a -wal (a store copied
        // alone) cannot be opened with a read-only -shm, which does not exist (SQLite would make
        // an empty -wal trying): no connection is writing it (one would have made the -shm), and
        // it is read as the one file it is.
        let alone = SystemCalls.status(ofPath: path + "-shm") == nil && (SystemCalls.status(ofPath: path + "-wal")?.size ?? 0) == 0
        return (path.hasPrefix("/") ? "file://" : "file:") + escaped + (alone ? "?mode=ro&immutable=1" : "?mode=ro&readonly_shm=1")
    }

    /// Closes the connection now; using it afterwards is a bug. Harmless when already closed.
    func close() {
        guard let db else { return }
        // sqlite3_close_v2 only fails on a bad handle; unfinalized statements make it a
        // "zombie" that closes when the last one is finalized.
        sqlite3_close_v2(db)
        self.db = nil
    }

    var isClosed: Bool { db == nil }

    /// The raw handle, for `Statement`.
    var handle: OpaquePointer {
        guard let db else { preconditionFailure("SQLite connection used after close()") }  // our bug
        assert(owner.isCurrentThread, "SQLite connection used by a thread that does not own it")  // our bug
        return db
    }

    /// Runs one or more `;`-separated statements, discarding any rows.
    func execute(_ sql: String) throws(SQLiteError) {
        var message: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(handle, sql, nil, nil, &message)
        guard rc == SQLITE_OK else {
            var error = SQLiteError(resultCode: rc, db: handle, sql: sql)
            if let message {
                error.message = String(cString: message)
                sqlite3_free(message)
            }
            throw error
        }
    }

    /// Prepares one statement (`SQLITE_PREPARE_PERSISTENT`: meant to be reused).
    func prepare(_ sql: String) throws(SQLiteError) -> Statement {
        try Statement(connection: self, sql: sql)
    }

    // MARK: Callbacks

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
private final class InterruptBox {
    let shouldStop: () -> Bool
    init(_ shouldStop: @escaping () -> Bool) { self.shouldStop = shouldStop }
}

@available(*, unavailable, message: "a Connection belongs to one thread at a time")
extension Connection: Sendable {}
