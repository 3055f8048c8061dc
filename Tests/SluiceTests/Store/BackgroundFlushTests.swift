import Foundation
import SluiceTestSupport
import Testing
@testable import Sluice

extension StoreTests {
    @Suite struct BackgroundFlushTests {
        @Test func flushesTheFileAgainAndAgainUntilStopped() throws {
            let directory = TemporaryDirectory()
            let path = directory.file("data")
            _ = FileManager.default.createFile(atPath: path, contents: Data(repeating: 7, count: 1 << 16))
            let flush = try #require(BackgroundFlush(path: path, interval: 0.001))
            #expect(eventually { flush.flushes >= 3 })
            #expect(flush.stop() == nil)
            let stopped = flush.flushes
            usleep(20_000)
            #expect(flush.flushes == stopped, "no flush after stop()")
        }

        @Test func aFileThatCannotBeOpenedIsNotFlushed() {
            #expect(BackgroundFlush(path: TemporaryDirectory().file("missing")) == nil)
        }

        #if os(Linux)
        // Linux refuses fsync on a character device (EINVAL): a failure that needs no broken disk.
        @Test func theFirstFailureIsKeptForTheCommit() throws {
            let flush = try #require(BackgroundFlush(path: "/dev/null", interval: 0.001))
            #expect(eventually { flush.flushes >= 1 })
            #expect(flush.stop() == EINVAL)
            #expect(flush.flushes == 1, "flushing ends at the first failure")
        }
        #endif

        @Test func aNewDatabaseIsFlushedWhileTheImportWritesIt() throws {
            let directory = TemporaryDirectory()
            let database = try ImportDatabase.begin(path: directory.file("out.sqlite"))
            let flush = try #require(database.backgroundFlush)
            try database.connection.execute("CREATE TABLE t (a); INSERT INTO t VALUES (1)")
            #expect(eventually { flush.flushes >= 1 })
            try database.commit()
            #expect(directory.contents == ["out.sqlite"])
        }

        @Test func anExistingDatabaseIsLeftToSQLitesOwnSyncs() throws {
            let directory = TemporaryDirectory()
            let path = directory.file("out.sqlite")
            try ImportDatabase.begin(path: path).commit()
            let database = try ImportDatabase.begin(path: path)
            #expect(database.backgroundFlush == nil)
            database.rollback()
        }
    }
}
