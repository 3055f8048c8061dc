/// The database of one import, all or nothing (`docs/import-semantics.md`).
///
/// * A NEW database is built in a temporary file next to `path`
///   (`.<name>.sluice-<pid>.tmp`) with `journal_mode=OFF`, `synchronous=OFF` and an exclusive
///   lock: no journal to write, no fsync per transaction, since a failed import discards the
///   whole file anyway. `commit()` commits, closes, fsyncs the file (which
///   `BackgroundFlush` has been writing to disk all along), moves it to `path` only if
///   nothing is there (`SystemCalls.renameWithoutReplacing`: atomic, readers see no database
///   or the whole one) and fsyncs the directory. If another process created `path` while we
///   imported (another import, a program making its own database), the commit fails with
///   `.cannotCreate`, that file is left as it is and ours is deleted: one database appears,
///   never one replacing the other's rows.
///   `rollback()`, or dropping the object without `commit()`, deletes the temporary file.
///   A temporary file left by a crashed or killed import (its pid no longer runs) is
///   deleted by the next `begin` on the same path (`TemporaryFiles`). SQLite's `-journal`,
///   `-wal` and `-shm` beside a database that does not exist are stale (a killed writer's,
///   whose database was then deleted or moved): the first connection to open the new file
///   would take them for its own and roll a stranger's pages into it, so `commit()` removes
///   them just before the rename, each named in `notes` (`removeStaleCompanions`). One that
///   is a folder cannot be removed: `begin` refuses the import before it starts.
/// * A symbolic link whose target does not exist is refused: the database would otherwise
///   be created in place of the link, or wherever it points.
/// * An EXISTING database is opened in place with `synchronous=FULL` (its journal mode is
///   kept: rollback journal unless the user chose WAL), a 2 s busy timeout and
///   `BEGIN IMMEDIATE`, so the write lock is taken up front, not halfway through.
///   `commit()` is COMMIT, `rollback()` ROLLBACK; a crash leaves a hot journal that SQLite
///   rolls back on the next open.
///
/// Both: `foreign_keys=OFF` (relationships are linked in a second pass, so references point
/// forward while the import runs). A new database gets `secure_delete=OFF` (nothing in it was
/// ever deleted) and pages of 16 KiB instead of SQLite's 4 KiB: a quarter of the pages to
/// fill, balance and write, one `pwrite` per 16 KiB (see `docs/performance.md`). A new file's
/// page cache is 7 MiB (a new Core Data store's 4 KiB pages made the same writes with 7, 10 and
/// 14 MiB); an existing file's goes by its pages (`cacheKiB`): 7 MiB of 16 KiB pages (one an
/// earlier import made) cache the linked workload as fast as 10 MiB did (14.3 s against 14.5 s
/// at scale 1; its re-import, and the GTFS feed's, no slower) and keep the peak at 43.6 MiB
/// instead of 49.9 MiB (the GTFS re-import's at 45 MiB instead of 48–49); a file of smaller
/// pages (another tool's, a Core Data store's 4 KiB) gets 10 MiB (the linked 3-million-row
/// workload ran 38 s with 8 MiB, 30 s with 10 MiB of 4 KiB pages, and peaked above 48 MiB of
/// memory with 12 MiB).
///
/// A new database that is to be vacuumed (`--vacuum`) is built in Sluice's format whatever the
/// file's own (`fileFormat`), without `BackgroundFlush`, and `commit()` writes its vacuumed
/// copy with `VACUUM INTO`, in the file's format, beside it
/// (`TemporaryFiles.copyPath`); the copy then takes the temporary file's place. The copy is
/// as compact as an in-place `VACUUM` makes it, but written once instead of twice (`VACUUM`
/// rebuilds the file in a temporary database, then copies every page back), and the import
/// itself runs in 16 KiB pages without auto-vacuum: a Core Data store's 4 KiB pages and
/// incremental auto-vacuum are then only the copy's (`docs/performance.md`).
///
/// After `commit()` or `rollback()` the connection is closed; statements prepared on it must
/// be finalized before (`SQLiteRunner.finalizeStatements`): a live statement keeps the closed
/// connection open, and with it a new database's exclusive lock. For `VACUUM` after a
/// commit, pass `vacuum: true` or open a new `Connection`.
final class ImportDatabase {
    /// The path the user gave.
    let path: String
    /// The open connection, inside the import's transaction.
    let connection: Connection
    /// Whether the import creates the database (it did not exist at `begin`).
    let isNew: Bool
    /// The temporary file of a new database.
    let temporaryPath: String?

    private enum State { case active, committed, rolledBack }
    private var state = State.active
    /// A new database's file, written to disk while the import runs (not one that is
    /// replaced by its vacuumed copy).
    let backgroundFlush: BackgroundFlush?
    /// A new database to be vacuumed: the pragmas of the format its copy is written in.
    private let copyFormat: [String]?
    /// What the commit did that the user should hear of: the stale companions it removed.
    private(set) var notes: [String] = []

    private init(path: String, connection: Connection, isNew: Bool, temporaryPath: String?, copyFormat: [String]? = nil) {
        self.path = path
        self.connection = connection
        self.isNew = isNew
        self.temporaryPath = temporaryPath
        self.copyFormat = copyFormat
        backgroundFlush = copyFormat == nil ? temporaryPath.flatMap { BackgroundFlush(path: $0) } : nil
    }

    deinit {
        if state == .active { rollback() }
    }

    /// Opens or creates the database at `path` and begins the import's transaction.
    ///
    /// Throws `.cannotCreate` naming the path for a directory, a read-only file (its mode has
    /// no write bit, checked even for root, or SQLite opened it read-only), a file that is not
    /// a database, a database locked for longer than `busyTimeout` ms, or a directory where
    /// the file cannot be created.
    ///
    /// `fileFormat`: the pragmas that fix a new file's format (page size, auto-vacuum), run
    /// before anything is written; Sluice's 16 KiB pages by default. `vacuum`: whether the
    /// import will commit with `vacuum: true` (a new file is then built in Sluice's format and
    /// its copy written in `fileFormat`, above).
    static func begin(path: String, busyTimeout: Int32 = 2000, fileFormat: [String] = sluiceFileFormat, vacuum: Bool = false)
        throws(SluiceError) -> ImportDatabase {
        if let info = SystemCalls.status(ofPath: path) {
            if info.isDirectory {
                throw SluiceError(.cannotCreate, "cannot write database '\(path)': it is a directory")
            }
            if !info.hasWriteBit || !SystemCalls.isWritable(path) {
                throw SluiceError(.cannotCreate, "cannot write database '\(path)': the file is read-only")
            }
            return try openExisting(path: path, busyTimeout: busyTimeout)
        }
        let error = SystemCalls.errno
        guard error == SystemCalls.notFound else {
            throw SluiceError(.cannotCreate, "cannot write database '\(path)': \(SystemCalls.describe(errno: error))")
        }
        if let pointee = SystemCalls.linkTarget(path) {
            throw SluiceError(.cannotCreate,
                              "cannot create database '\(path)': it is a symbolic link to '\(pointee)', which does not exist")
        }
        return try createNew(path: path, fileFormat: fileFormat, vacuum: vacuum)
    }

    /// A new file's format in Sluice's layout: 16 KiB pages (see the type's comment).
    static let sluiceFileFormat = ["PRAGMA page_size=16384"]

    /// The page cache of an import into a file of `pageSize`-byte pages, in KiB (above).
    static func cacheKiB(pageSize: Int) -> Int {
        pageSize >= 16384 ? 7168 : 10240
    }

    /// The page cache while VACUUM copies the file: 2 MiB. SQLite gives the copy a cache of the
    /// same size, and with the import's (`cacheKiB`) a vacuum of 16 KiB pages was the run's peak,
    /// over the 48 MiB target (W2 in Sluice's layout: 53 MiB, 43 without `--vacuum`). The copy
    /// reads and writes each page once, in order: a small cache copies as fast
    /// (`docs/performance.md`, "The memory of a vacuum").
    static let vacuumCache = "PRAGMA cache_size=-2048"

    private static func openExisting(path: String, busyTimeout: Int32) throws(SluiceError) -> ImportDatabase {
        try SQLiteError.converting(database: path) {
            let connection = try Connection(path: path, mode: .readWrite, displayName: path)
            connection.setBusyTimeout(ms: busyTimeout)
            if connection.isReadOnly {
                throw SluiceError(.cannotCreate, "cannot write database '\(path)': the file is read-only")
            }
            try connection.execute("""
                PRAGMA synchronous=FULL;
                PRAGMA foreign_keys=OFF;
                BEGIN IMMEDIATE;
                """)
            // Read under the write lock: no other connection changes the file from here on.
            guard case .integer(let pageSize)? = try connection.scalar("PRAGMA page_size") else {
                preconditionFailure("PRAGMA page_size returns a number")
            }
            try connection.execute("PRAGMA cache_size=-\(cacheKiB(pageSize: Int(pageSize)))")
            return ImportDatabase(path: path, connection: connection, isNew: false, temporaryPath: nil)
        }
    }

    private static func createNew(path: String, fileFormat: [String], vacuum: Bool) throws(SluiceError) -> ImportDatabase {
        let directory = TemporaryFiles.splitPath(path).directory
        let temporaryPath = TemporaryFiles.path(for: path)
        // Say why the file cannot be made (a missing directory, a read-only file system, no
        // permission) before SQLite tries and reports only its last fallback's errno.
        if !SystemCalls.isWritable(directory) {
            throw SluiceError(.cannotCreate, "cannot create database '\(path)': \(SystemCalls.describe(errno: SystemCalls.errno))")
        }
        TemporaryFiles.removeStale(for: path)  // a leftover of an earlier process with our pid too
        for (suffix, role) in TemporaryFiles.sqliteCompanions where SystemCalls.status(ofPath: path + suffix)?.isDirectory == true {
            throw SluiceError(.cannotCreate, "cannot create database '\(path)': '\(path + suffix)' is a folder, where SQLite "
                + "keeps the database's \(role); remove or rename it")
        }

        let connection: Connection
        do {
            connection = try Connection(path: temporaryPath, mode: .create, displayName: path)
        } catch {
            SystemCalls.removeFile(temporaryPath)
            throw error.sluiceError(creatingDatabase: path)
        }
        do {
            try connection.execute((vacuum ? sluiceFileFormat : fileFormat).map { $0 + ";\n" }.joined() + """
                PRAGMA journal_mode=OFF;
                PRAGMA synchronous=OFF;
                PRAGMA locking_mode=EXCLUSIVE;
                PRAGMA cache_size=-7168;
                PRAGMA foreign_keys=OFF;
                PRAGMA secure_delete=OFF;
                BEGIN IMMEDIATE;
                """)
        } catch {
            connection.close()
            SystemCalls.removeFile(temporaryPath)
            throw error.sluiceError(database: path)
        }
        return ImportDatabase(path: path, connection: connection, isNew: true, temporaryPath: temporaryPath,
                              copyFormat: vacuum ? fileFormat : nil)
    }

    /// Runs `ANALYZE` inside the import's transaction, so the query planner knows the new data.
    func analyze() throws(SluiceError) {
        do {
            try connection.execute("ANALYZE")
        } catch {
            throw error.sluiceError(database: path)
        }
    }

    /// Makes the import permanent. On failure everything is rolled back (a new database
    /// leaves no file) and the error is thrown. `vacuum` runs VACUUM after the commit, once
    /// `willVacuum` has been called (to report it).
    ///
    /// `journalMode`: the journal mode the file is left in (a WAL checkpointed into the file
    /// on the way); nil keeps the one it had.
    func commit(vacuum: Bool = false, journalMode: String? = nil, willVacuum: () -> Void = {}) throws(SluiceError) {
        precondition(state == .active, "commit() after commit() or rollback()")  // our bug
        do {
            try connection.execute("COMMIT")
        } catch {
            rollback()
            throw error.sluiceError(database: path)
        }
        state = .committed
        if vacuum, let copyFormat {
            willVacuum()
            try replaceWithVacuumedCopy(format: copyFormat)
        } else if vacuum {
            willVacuum()
            do {
                try connection.execute(Self.vacuumCache)
                try connection.execute("VACUUM")
            } catch {
                // The import itself is committed; for a new database nothing is renamed yet.
                if isNew { discardTemporaryFile() } else { connection.close() }
                throw error.sluiceError(database: path)
            }
        }
        if let journalMode, !isNew {
            // A new file has none (journal_mode=OFF is not kept in the file).
            do {
                try connection.execute("PRAGMA journal_mode=\(journalMode)")
            } catch {
                // Another connection holds the file open: the rows are in, but not all in it.
                connection.close()
                throw SluiceError(.io, "database '\(path)': the import is committed, but the file could not be left in "
                    + "journal mode \(journalMode) (\(error.code)): its -wal file still holds part of it; close what has it "
                    + "open and import again (an import that changes nothing only checkpoints it)")
            }
        }
        connection.close()
        guard let temporaryPath else { return }

        if let failure = backgroundFlush?.stop().map(SystemCalls.describe(errno:)) ?? fsyncFile(temporaryPath) {
            discardTemporaryFile()
            throw SluiceError(.io, "cannot write database '\(path)': \(failure)")
        }
        TestPause.wait(.beforePlacingNewDatabase)
        do {
            try removeStaleCompanions()
        } catch {
            discardTemporaryFile()
            throw error
        }
        if let error = SystemCalls.renameWithoutReplacing(temporaryPath, to: path) {
            discardTemporaryFile()
            if error == SystemCalls.alreadyExists {
                throw SluiceError(.cannotCreate, """
                    cannot create database '\(path)': another file appeared at that path during the import; \
                    it was left as it is and nothing of this import was written
                    """)
            }
            throw SluiceError(.cannotCreate, "cannot create database '\(path)': \(SystemCalls.describe(errno: error))")
        }
        // Best effort: the file itself is durable; some file systems refuse fsync on a
        // directory, and failing now would leave the finished database in place anyway.
        _ = fsyncFile(TemporaryFiles.splitPath(path).directory, directory: true)
    }

    /// Undoes the import. Harmless after `commit()` or a previous `rollback()`.
    func rollback() {
        guard state == .active else { return }
        state = .rolledBack
        if isNew {
            discardTemporaryFile()
        } else {
            if !connection.isClosed, connection.isInTransaction {
                try? connection.execute("ROLLBACK")  // fails only when SQLite already rolled back
            }
            connection.close()
        }
    }

    // MARK: Files

    /// Writes the committed new database's vacuumed copy in `format` and moves it over the
    /// temporary file, which the rest of `commit()` then makes durable and moves into place.
    /// On failure both files are deleted (nothing is in place yet).
    private func replaceWithVacuumedCopy(format: [String]) throws(SluiceError) {
        guard let temporaryPath else { preconditionFailure("a new database has a temporary file") }
        let copyPath = TemporaryFiles.copyPath(for: path)
        do {
            // The pragmas set the format of the file VACUUM INTO creates, not this one's.
            try connection.execute((format + [Self.vacuumCache]).map { $0 + ";\n" }.joined())
            try connection.prepare("VACUUM INTO ?").run([.text(copyPath)])
        } catch {
            discardTemporaryFile()
            throw error.sluiceError(database: path)
        }
        connection.close()
        if let error = SystemCalls.rename(copyPath, to: temporaryPath) {
            discardTemporaryFile()
            throw SluiceError(.io, "cannot write database '\(path)': \(SystemCalls.describe(errno: error))")
        }
    }

    /// Removes SQLite's files beside `path` while no database is there (the type's comment):
    /// done at the last moment, so that one a killed writer left during the import goes too.
    /// When a database has appeared meanwhile they are its own, and the rename refuses anyway.
    private func removeStaleCompanions() throws(SluiceError) {
        guard SystemCalls.status(ofPath: path) == nil, SystemCalls.linkTarget(path) == nil else { return }
        for (suffix, role) in TemporaryFiles.sqliteCompanions {
            let companion = path + suffix
            guard SystemCalls.status(ofPath: companion) != nil || SystemCalls.linkTarget(companion) != nil else { continue }
            if let error = SystemCalls.removeFile(companion) {
                throw SluiceError(.cannotCreate, "cannot create database '\(path)': the stale \(role) '\(companion)' beside it "
                    + "cannot be removed (\(SystemCalls.describe(errno: error))), and SQLite would take it for the new database's")
            }
            notes.append("removed the stale \(role) '\(companion)': there was no database '\(path)', and SQLite would have "
                + "taken it for the new one's")
        }
    }

    private func discardTemporaryFile() {
        backgroundFlush?.stop()
        connection.close()
        guard temporaryPath != nil else { return }
        for file in TemporaryFiles.files(for: path) { SystemCalls.removeFile(file) }
    }

    /// Opens and fsyncs `path`; returns the failure's description, nil on success.
    private func fsyncFile(_ path: String, directory: Bool = false) -> String? {
        SystemCalls.fsync(path: path, directory: directory).map(SystemCalls.describe(errno:))
    }
}

@available(*, unavailable, message: "an import belongs to one thread")
extension ImportDatabase: Sendable {}
