import Foundation
import Testing
@testable import Sluice

extension StoreTests {
    /// `ThreadOwner`: a connection is used by the thread that owns it, and changes threads
    /// only at an explicit hand-over. Debug builds (these tests') assert it as a statement is
    /// prepared or run. A use by a thread that does not own the connection stops the process
    /// at that `assert`, so it cannot be tested here; these tests show the checks passing
    /// where the owner uses the connection, and every import test that writes batches on the
    /// writer thread runs through them too.
    @Suite struct ThreadOwnerTests {
        /// Carries a connection to another thread for a hand-over, as `BatchPipeline` does.
        private final class HandOver: @unchecked Sendable {
            let connection: Connection
            let done = DispatchSemaphore(value: 0)
            var ownedThere = false
            var countThere: ColumnValue?
            var failure: (any Error)?
            init(_ connection: Connection) { self.connection = connection }
        }

        @Test func theThreadThatOpensAConnectionOwnsIt() throws {
            let connection = try Connection(path: ":memory:")
            #expect(connection.owner.isCurrentThread)
            try connection.execute("CREATE TABLE t (x)")
            try connection.prepare("INSERT INTO t VALUES (1)").runKeepingBindings()
            #expect(try connection.scalar("SELECT count(*) FROM t") == .integer(1))
        }

        @Test func aHandOverMovesTheConnectionToAnotherThreadAndBack() throws {
            let connection = try Connection(path: ":memory:")
            try connection.execute("CREATE TABLE t (x)")
            connection.owner.release()
            #expect(!connection.owner.isCurrentThread)

            let handOver = HandOver(connection)
            Thread.detachNewThread {
                defer { handOver.done.signal() }
                handOver.connection.owner.takeOver()
                handOver.ownedThere = handOver.connection.owner.isCurrentThread
                do {
                    try handOver.connection.execute("INSERT INTO t VALUES (1)")
                    handOver.countThere = try handOver.connection.scalar("SELECT count(*) FROM t")
                } catch {
                    handOver.failure = error
                }
                handOver.connection.owner.release()
            }
            handOver.done.wait()  // orders the other thread's release before this take-over

            #expect(handOver.ownedThere)
            #expect(handOver.failure == nil)
            #expect(handOver.countThere == .integer(1))
            #expect(!connection.owner.isCurrentThread)
            connection.owner.takeOver()
            #expect(connection.owner.isCurrentThread)
            #expect(try connection.scalar("SELECT count(*) FROM t") == .integer(1))
        }

        /// Taking over what this thread owns already changes nothing.
        @Test func takingOverWhatThisThreadOwnsKeepsIt() throws {
            var owner = ThreadOwner()
            owner.takeOver()
            #expect(owner.isCurrentThread)
            #expect(currentThreadID() != 0)
        }
    }
}
