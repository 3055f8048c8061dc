internal import CSQLite
/// A failed sqlite3_* call: the (extended) result code, SQLite's message, and the SQL that
/// failed when there was one.
///
/// Callers match result codes the way GRDB's users do:
///
///     do { try statement.step() }
///     catch SQLiteError.constraint { ... }   // any SQLITE_CONSTRAINT_* code
///     catch SQLiteError.constraintUnique { ... } // exactly SQLITE_CONSTRAINT_UNIQUE
///
/// It never leaves `Store/`: every Store type the Engine uses throws `SluiceError`, and the
/// `sluiceError` methods at the end of this file are the one place that turns one into the other.
struct SQLiteError: Error, Sendable, CustomStringConvertible {
    /// An SQLite result code. Primary codes match every extended code of their family.
    struct ResultCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        var rawValue: Int32
        init(rawValue: Int32) { self.rawValue = rawValue }

        /// The primary code (the low byte) of an extended code.
        var primary: ResultCode { ResultCode(rawValue: rawValue & 0xff) }

        /// SQLite's English name of the code ("database is locked").
        var description: String { String(cString: sqlite3_errstr(rawValue)) }

        /// `catch SQLiteError.busy`: a primary pattern matches its whole family, an extended
        /// pattern matches only itself.
        static func ~= (pattern: ResultCode, error: any Error) -> Bool {
            guard let error = error as? SQLiteError else { return false }
            return pattern.matches(error.code)
        }

        /// The same for a typed `throws(SQLiteError)`, with no `any Error` conversion.
        /// Note: Swift 6.3.1 can crash (SIL ownership verifier) on a NON-exhaustive
        /// `catch SQLiteError.x` after a typed throw inside a throwing function; an
        /// exhaustive `catch { if SQLiteError.x ~= error … }` compiles (see StatementTests).
        static func ~= (pattern: ResultCode, error: SQLiteError) -> Bool { pattern.matches(error.code) }

        static func ~= (pattern: ResultCode, code: ResultCode) -> Bool { pattern.matches(code) }

        func matches(_ code: ResultCode) -> Bool {
            rawValue == code.rawValue || (rawValue == (rawValue & 0xff) && rawValue == code.primary.rawValue)
        }
    }

    static let error = ResultCode(rawValue: SQLITE_ERROR)
    static let perm = ResultCode(rawValue: SQLITE_PERM)
    static let abort = ResultCode(rawValue: SQLITE_ABORT)
    static let busy = ResultCode(rawValue: SQLITE_BUSY)
    static let locked = ResultCode(rawValue: SQLITE_LOCKED)
    static let noMemory = ResultCode(rawValue: SQLITE_NOMEM)
    static let readOnly = ResultCode(rawValue: SQLITE_READONLY)
    static let interrupt = ResultCode(rawValue: SQLITE_INTERRUPT)
    static let ioError = ResultCode(rawValue: SQLITE_IOERR)
    static let corrupt = ResultCode(rawValue: SQLITE_CORRUPT)
    static let full = ResultCode(rawValue: SQLITE_FULL)
    static let cantOpen = ResultCode(rawValue: SQLITE_CANTOPEN)
    static let tooBig = ResultCode(rawValue: SQLITE_TOOBIG)
    static let constraint = ResultCode(rawValue: SQLITE_CONSTRAINT)
    static let constraintUnique = ResultCode(rawValue: SQLITE_CONSTRAINT | (8 << 8))
    static let mismatch = ResultCode(rawValue: SQLITE_MISMATCH)
    static let misuse = ResultCode(rawValue: SQLITE_MISUSE)
    static let range = ResultCode(rawValue: SQLITE_RANGE)
    static let notADatabase = ResultCode(rawValue: SQLITE_NOTADB)

    var code: ResultCode
    var message: String
    var sql: String?
    /// The errno of the failed system call, when SQLite reports one (0 otherwise).
    var systemErrno: Int32

    init(code: ResultCode, message: String, sql: String? = nil, systemErrno: Int32 = 0) {
        self.code = code
        self.message = message
        self.sql = sql
        self.systemErrno = systemErrno
    }

    /// The error of the last call on `db`, which returned `resultCode`.
    init(resultCode: Int32, db: OpaquePointer?, sql: String? = nil) {
        let message: String
        if let db, let text = sqlite3_errmsg(db) {
            message = String(cString: text)
        } else {
            message = String(cString: sqlite3_errstr(resultCode))
        }
        self.init(code: ResultCode(rawValue: resultCode), message: message, sql: sql,
                  systemErrno: db.map { sqlite3_system_errno($0) } ?? 0)
    }

    var description: String {
        var text = "SQLite error \(code.rawValue): \(message)"
        if let sql { text += " (in: \(sql))" }
        return text
    }

    /// The database refused a value (CONSTRAINT, TOOBIG, MISMATCH): the data's fault, one
    /// row's, not the database's.
    var isRefusedValue: Bool {
        switch code.primary {
        case SQLiteError.constraint, SQLiteError.tooBig, SQLiteError.mismatch: true
        default: false
        }
    }

    /// The error a user sees, naming the database as they spelled it.
    ///
    /// * CANTOPEN, READONLY, PERM, BUSY, LOCKED, NOTADB, CORRUPT and anything unexpected:
    ///   `.cannotCreate` (exit 73), "cannot write database 'out.sqlite': …".
    /// * IOERR, FULL, NOMEM: `.io` (exit 74).
    /// * INTERRUPT: `.interrupted` (the engine's interrupt check stops a statement on SIGINT).
    /// * CONSTRAINT, TOOBIG, MISMATCH: `.data` — a value the database refuses.
    ///
    /// The SQL is included only for codes that point to a bug of ours (SQL logic error,
    /// misuse, range), where it is what a bug report needs.
    func sluiceError(database: String) -> SluiceError {
        var detail = message
        if systemErrno != 0, code.primary == SQLiteError.cantOpen || code.primary == SQLiteError.ioError {
            detail += " (\(SystemCalls.describe(errno: systemErrno)))"
        }
        let subject = "database '\(database)'"
        switch code.primary {
        case SQLiteError.ioError, SQLiteError.full, SQLiteError.noMemory:
            return SluiceError(.io, "cannot write \(subject): \(detail)")
        case SQLiteError.interrupt:
            return .interrupted(database: database)
        case SQLiteError.constraint, SQLiteError.tooBig, SQLiteError.mismatch:
            return SluiceError(.data, "cannot write \(subject): \(detail)")
        case SQLiteError.cantOpen, SQLiteError.readOnly, SQLiteError.perm, SQLiteError.busy,
             SQLiteError.locked, SQLiteError.notADatabase, SQLiteError.corrupt:
            return SluiceError(.cannotCreate, "cannot write \(subject): \(detail)")
        default:
            if let sql { detail += " (in: \(sql))" }
            return SluiceError(.cannotCreate, "cannot write \(subject): \(detail)")
        }
    }

    /// The error of a schema statement (`SQLiteSchema`): a constraint failing there is a
    /// unique index refused by rows that another writer added after the migration was
    /// planned, and says so; anything else as `sluiceError(database:)`.
    func sluiceError(database: String, migrating statement: String) -> SluiceError {
        guard SQLiteError.constraint ~= self else { return sluiceError(database: database) }
        return SluiceError(.cannotCreate, "cannot write database '\(database)': "
            + "existing rows have duplicate identities; cannot run \(statement)")
    }

    /// Runs `body`, whose SQLite errors become the errors a user sees naming `database`
    /// (`sluiceError(database:)`) and whose own `SluiceError`s pass as they are: for a step
    /// that both runs statements and refuses what it finds.
    static func converting<T>(database: String, _ body: () throws -> T) throws(SluiceError) -> T {
        do {
            return try body()
        } catch let error as SQLiteError {
            throw error.sluiceError(database: database)
        } catch let error as SluiceError {
            throw error
        } catch {
            preconditionFailure("unexpected error \(error)")  // the body throws only these two
        }
    }

    /// The error of a new database file SQLite could not open: `.cannotCreate` with the
    /// system's reason (a missing directory, no permission) when SQLite has one, else its message.
    func sluiceError(creatingDatabase database: String) -> SluiceError {
        let reason = systemErrno != 0 ? SystemCalls.describe(errno: systemErrno) : message
        return SluiceError(.cannotCreate, "cannot create database '\(database)': \(reason)")
    }
}
