import Foundation
import SluiceTestSupport
import Testing
@testable import Sluice

extension StoreTests {
    @Suite struct ImportDatabaseTests {
        @Test func newDatabaseRollbackLeavesNoFile() throws {
            let directory = TemporaryDirectory()
            let path = directory.file("out.sqlite")
            let database = try ImportDatabase.begin(path: path)
            #expect(database.isNew)
            #expect(database.temporaryPath == directory.file(".out.sqlite.sluice-\(getpid()).tmp"))
            try database.connection.execute("CREATE TABLE t (a); INSERT INTO t VALUES (1)")
            #expect(directory.contents == [".out.sqlite.sluice-\(getpid()).tmp"])
            database.rollback()
            #expect(directory.contents == [])
        }

        @Test func newDatabaseDroppedWithoutCommitLeavesNoFile() throws {
            let directory = TemporaryDirectory()
            do {
                let database = try ImportDatabase.begin(path: directory.file("out.sqlite"))
                try database.connection.execute("CREATE TABLE t (a)")
            }
            #expect(directory.contents == [])
        }

        @Test func newDatabaseCommitLeavesExactlyTheFile() throws {
            let directory = TemporaryDirectory()
            let path = directory.file("out.sqlite")
            let database = try ImportDatabase.begin(path: path)
            try database.connection.execute("CREATE TABLE t (a); INSERT INTO t VALUES (1), (2)")
            try database.commit()
            #expect(directory.contents == ["out.sqlite"])
            let check = try Connection(path: path, mode: .readOnly)
            #expect(try check.integer("SELECT sum(a) FROM t") == 3)
            #expect(try check.scalar("PRAGMA integrity_check") == .text("ok"))
        }

        /// A new database to be vacuumed is built in Sluice's 16 KiB pages without auto-vacuum,
        /// and what lands is its copy in the format asked for (Core Data's here), compacted,
        /// with nothing else left beside it.
        @Test func aVacuumedNewDatabaseIsItsCopyInTheFileFormat() throws {
            let directory = TemporaryDirectory()
            let path = directory.file("out.sqlite")
            let database = try ImportDatabase.begin(path: path, fileFormat: CoreDataStoreLayout.pragmas, vacuum: true)
            #expect(try database.connection.scalar("PRAGMA page_size") == .integer(16384))
            #expect(try database.connection.scalar("PRAGMA auto_vacuum") == .integer(0))
            try database.connection.execute("""
                CREATE TABLE t (a INTEGER PRIMARY KEY, b);
                CREATE INDEX t_b ON t (b);
                WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 5000)
                INSERT INTO t SELECT i, printf('%0200d', i) FROM n;
                DELETE FROM t WHERE a % 2 = 0;
                """)
            #expect(database.backgroundFlush == nil)  // the file flushed to disk is the copy
            var vacuumed = false
            try database.commit(vacuum: true) { vacuumed = true }
            #expect(vacuumed)
            #expect(directory.contents == ["out.sqlite"])
            let check = try Connection(path: path, mode: .readOnly)
            #expect(try check.scalar("PRAGMA page_size") == .integer(4096))
            #expect(try check.scalar("PRAGMA auto_vacuum") == .integer(2))
            #expect(try check.scalar("PRAGMA journal_mode") == .text("delete"))
            #expect(try check.scalar("PRAGMA freelist_count") == .integer(0))
            #expect(try check.scalar("PRAGMA integrity_check") == .text("ok"))
            #expect(try check.integer("SELECT count(*) FROM t") == 2500)
            #expect(try check.integer("SELECT sum(a) FROM t WHERE b = printf('%0200d', a)") == 2500 * 2500)
        }

        /// Sluice's own format is kept by its copy.
        @Test func aVacuumedNewDatabaseInSluicesFormatKeepsIt() throws {
            let directory = TemporaryDirectory()
            let path = directory.file("out.sqlite")
            let database = try ImportDatabase.begin(path: path, vacuum: true)
            try database.connection.execute("CREATE TABLE t (a); INSERT INTO t VALUES (1), (2)")
            try database.commit(vacuum: true)
            #expect(directory.contents == ["out.sqlite"])
            let check = try Connection(path: path, mode: .readOnly)
            #expect(try check.scalar("PRAGMA page_size") == .integer(16384))
            #expect(try check.integer("SELECT sum(a) FROM t") == 3)
        }

        /// A copy that cannot be written (here something already lies where it would go) fails
        /// the commit, and nothing is left: no database, no temporary file, no copy.
        @Test func aVacuumedCopyThatCannotBeWrittenLeavesNothing() throws {
            let directory = TemporaryDirectory()
            let path = directory.file("out.sqlite")
            let database = try ImportDatabase.begin(path: path, fileFormat: CoreDataStoreLayout.pragmas, vacuum: true)
            try database.connection.execute("CREATE TABLE t (a); INSERT INTO t VALUES (1)")
            _ = FileManager.default.createFile(atPath: TemporaryFiles.copyPath(for: path), contents: Data([1, 2, 3]))
            do {
                try database.commit(vacuum: true)
                Issue.record("expected the commit to fail")
            } catch {
                #expect(error.kind == .cannotCreate)
                #expect(error.message == "cannot write database '\(path)': file is not a database")
            }
            #expect(directory.contents == [])
        }

        /// The copy and the files SQLite keeps beside it are the temporary files of their target.
        @Test func aVacuumedCopyIsATemporaryFileOfItsTarget() {
            #expect(TemporaryFiles.copyPath(for: "db/out.sqlite") == "db/.out.sqlite.sluice-\(getpid()).tmp-vacuumed")
            #expect(TemporaryFiles.processID(inFileName: ".out.sqlite.sluice-123.tmp-vacuumed", of: "out.sqlite") == 123)
            #expect(TemporaryFiles.processID(inFileName: ".out.sqlite.sluice-123.tmp-vacuumed-journal", of: "out.sqlite") == 123)
            #expect(TemporaryFiles.processID(inFileName: ".out.sqlite.sluice-123.tmp-vacuumedx", of: "out.sqlite") == nil)
            #expect(TemporaryFiles.processID(inFileName: ".out.sqlite.sluice-123.tmp-vacuumed", of: "other.sqlite") == nil)
        }

        /// `existing.sqlite` in `directory`, made by `sql`; its path.
        private func existingFile(in directory: TemporaryDirectory, _ sql: String) throws -> String {
            let path = directory.file("existing.sqlite")
            let maker = try Connection(path: path, mode: .create)
            try maker.execute(sql)
            maker.close()
            return path
        }

        /// Freeing the cached pages before the indexes are built writes the transaction's
        /// pages to the file without ending it: a commit keeps them, a rollback of an existing
        /// file's import leaves the file as it was.
        @Test(arguments: [true, false])
        func cachedPagesAreFreedInsideTheTransaction(commit: Bool) throws {
            let directory = TemporaryDirectory()
            let path = try existingFile(in: directory, "CREATE TABLE t (a, b); INSERT INTO t VALUES (1, 'kept')")
            let database = try ImportDatabase.begin(path: path)
            try database.connection.execute("""
                CREATE TEMP TABLE w (c);
                WITH RECURSIVE n(i) AS (SELECT 2 UNION ALL SELECT i + 1 FROM n WHERE i < 20000)
                INSERT INTO t SELECT i, printf('%0500d', i) FROM n;
                INSERT INTO w SELECT a FROM t;
                """)
            let cached = database.connection.cachedBytes
            try database.connection.releaseCachedPages()
            #expect(cached > 1_000_000 && database.connection.cachedBytes < cached / 10)
            #expect(try database.connection.integer("SELECT count(*) FROM t") == 20000)
            #expect(try database.connection.integer("SELECT sum(c) FROM w") == 20000 * 20001 / 2)
            if commit { try database.commit() } else { database.rollback() }
            let check = try Connection(path: path, mode: .readOnly)
            #expect(try check.integer("SELECT count(*) FROM t") == (commit ? 20000 : 1))
            #expect(try check.scalar("PRAGMA integrity_check") == .text("ok"))
        }

        /// 7 MiB of a file's pages when they are 16 KiB (a new file, or one an import made), 10 MiB
        /// of smaller ones (`ImportDatabase.cacheKiB`).
        @Test(arguments: [(4096, -10240), (8192, -10240), (16384, -7168), (65536, -7168)])
        func anExistingFilesPageCacheGoesByItsPages(pageSize: Int, cacheSize: Int) throws {
            let directory = TemporaryDirectory()
            let path = try existingFile(in: directory, "PRAGMA page_size=\(pageSize); CREATE TABLE t (a)")
            let database = try ImportDatabase.begin(path: path)
            #expect(!database.isNew)
            #expect(try database.connection.scalar("PRAGMA page_size") == .integer(Int64(pageSize)))
            #expect(try database.connection.scalar("PRAGMA cache_size") == .integer(Int64(cacheSize)))
            database.rollback()
            let new = try ImportDatabase.begin(path: directory.file("new.sqlite"))
            #expect(try new.connection.scalar("PRAGMA cache_size") == .integer(-7168))
            new.rollback()
        }

        /// A relative path's temporary file is named relative to the same directory. (An import
        /// into a relative path runs end to end in `CSVImportTests`, in the directory `sluice`
        /// runs in: changing this process's directory would race the tests running beside
        /// this one, whose child processes start in it.)
        @Test func relativePathsTemporaryFileIsBesideIt() {
            #expect(TemporaryFiles.path(for: "rel.sqlite") == ".rel.sqlite.sluice-\(getpid()).tmp")
            #expect(TemporaryFiles.path(for: "./rel.sqlite") == "./.rel.sqlite.sluice-\(getpid()).tmp")
            #expect(TemporaryFiles.path(for: "db/rel.sqlite") == "db/.rel.sqlite.sluice-\(getpid()).tmp")
        }

        @Test func staleTemporaryFileOfADeadProcessIsRemoved() throws {
            let directory = TemporaryDirectory()
            // pid_max on Linux is at most 4194304, so this process cannot exist.
            let stale = directory.file(".out.sqlite.sluice-99999999.tmp")
            _ = FileManager.default.createFile(atPath: stale, contents: Data([1, 2, 3]))
            _ = FileManager.default.createFile(atPath: directory.file(".other.sqlite.sluice-99999999.tmp"), contents: Data())
            let database = try ImportDatabase.begin(path: directory.file("out.sqlite"))
            database.rollback()
            #expect(directory.contents == [".other.sqlite.sluice-99999999.tmp"])
        }

        @Test func existingDatabaseRollbackLeavesDataUnchanged() throws {
            let directory = TemporaryDirectory()
            let path = try directory.makeDatabase("db.sqlite", "CREATE TABLE t (a); INSERT INTO t VALUES (1)")
            let before = directory.bytes(of: "db.sqlite")
            let database = try ImportDatabase.begin(path: path)
            #expect(!database.isNew)
            try database.connection.execute("INSERT INTO t VALUES (2); CREATE TABLE u (b)")
            database.rollback()
            #expect(directory.bytes(of: "db.sqlite") == before)
            #expect(directory.contents == ["db.sqlite"])
            let check = try Connection(path: path)
            #expect(try check.rows("SELECT a FROM t") == [[.integer(1)]])
            #expect(try check.integer("SELECT count(*) FROM sqlite_schema WHERE name = 'u'") == 0)
        }

        @Test func existingDatabaseCommitKeepsData() throws {
            let directory = TemporaryDirectory()
            let path = try directory.makeDatabase("db.sqlite", "CREATE TABLE t (a); INSERT INTO t VALUES (1)")
            let database = try ImportDatabase.begin(path: path)
            try database.connection.execute("INSERT INTO t VALUES (2)")
            try database.commit()
            let check = try Connection(path: path)
            #expect(try check.rows("SELECT a FROM t ORDER BY a") == [[.integer(1)], [.integer(2)]])
            #expect(directory.contents == ["db.sqlite"])
        }

        @Test func readOnlyFileIsCannotCreate() throws {
            let directory = TemporaryDirectory()
            let path = try directory.makeDatabase("ro.sqlite", "CREATE TABLE t (a)")
            chmod(path, 0o444)
            let error = try #require(throws: SluiceError.self) { try ImportDatabase.begin(path: path) }
            #expect(error.kind == .cannotCreate)
            #expect(error.message == "cannot write database '\(path)': the file is read-only")
        }

        @Test func notADatabaseIsCannotCreate() throws {
            let directory = TemporaryDirectory()
            let path = directory.file("junk.sqlite")
            _ = FileManager.default.createFile(atPath: path, contents: Data(repeating: 0x41, count: 4096))
            let error = try #require(throws: SluiceError.self) { try ImportDatabase.begin(path: path) }
            #expect(error.kind == .cannotCreate)
            #expect(error.message == "cannot write database '\(path)': file is not a database")
            #expect(directory.bytes(of: "junk.sqlite") == Array(repeating: 0x41, count: 4096))
        }

        @Test func directoryIsCannotCreate() throws {
            let directory = TemporaryDirectory()
            let error = try #require(throws: SluiceError.self) { try ImportDatabase.begin(path: directory.path) }
            #expect(error.kind == .cannotCreate)
            #expect(error.message == "cannot write database '\(directory.path)': it is a directory")
        }

        @Test func missingDirectoryIsCannotCreate() throws {
            let directory = TemporaryDirectory()
            let path = directory.file("nowhere/out.sqlite")
            let error = try #require(throws: SluiceError.self) { try ImportDatabase.begin(path: path) }
            #expect(error.kind == .cannotCreate)
            #expect(error.message == "cannot create database '\(path)': No such file or directory")
        }

        @Test func lockedDatabaseIsCannotCreate() throws {
            let directory = TemporaryDirectory()
            let path = try directory.makeDatabase("db.sqlite", "CREATE TABLE t (a)")
            let other = try Connection(path: path)
            try other.execute("BEGIN IMMEDIATE; INSERT INTO t VALUES (1)")
            let error = try #require(throws: SluiceError.self) { try ImportDatabase.begin(path: path, busyTimeout: 50) }
            #expect(error.kind == .cannotCreate)
            #expect(error.message == "cannot write database '\(path)': database is locked")
            try other.execute("ROLLBACK")
        }

        @Test func migrationAndLogInsideAnImport() throws {
            let directory = TemporaryDirectory()
            let path = directory.file("out.sqlite")
            let layout = DatabaseLayout(DatabaseLayoutTests.transit)
            let database = try ImportDatabase.begin(path: path)
            try SQLiteSchema.migrate(database.connection, to: layout.tables)
            let record = ImportRecord(
                startedAt: "2024-05-01T10:00:00Z", finishedAt: "2024-05-01T10:00:05Z", sources: "stops.json",
                bytes: 1234, records: 10, inserted: 7, updated: 2, unchanged: 1, rejected: 0, unresolved: 3,
                modelSHA256: String(repeating: "ab", count: 32), inputs: #"[{"name":"stops.json","bytes":1234,"sha256":"00"}]"#)
            let runner = SQLiteRunner(connection: database.connection, databaseName: path)
            try ImportLog.insert(record, into: runner)
            #expect(try ImportLog.last(in: runner, feed: nil) == LoggedImport(
                number: 1, finishedAt: "2024-05-01T10:00:05Z", modelSHA256: String(repeating: "ab", count: 32),
                inputs: #"[{"name":"stops.json","bytes":1234,"sha256":"00"}]"#))
            runner.finalizeStatements()
            try database.commit()

            let check = try Connection(path: path)
            #expect(try check.rows("SELECT * FROM sluice_imports") == [[
                .integer(1), .text("2024-05-01T10:00:00Z"), .text("2024-05-01T10:00:05Z"), .text("stops.json"),
                .integer(1234), .integer(10), .integer(7), .integer(2), .integer(1), .integer(0), .integer(3),
                .text(String(repeating: "ab", count: 32)), .text(#"[{"name":"stops.json","bytes":1234,"sha256":"00"}]"#), .null,
            ]])
            #expect(try SQLiteSchema.plan(check, tables: layout.tables).statements.isEmpty)
        }
    }
}
