import Foundation
import Synchronization
import Testing
@testable import Sluice

/// `BatchPipeline`: batches are written in order on a second thread while the caller goes
/// on, at most three exist, the first failure stops the rest and reaches the caller, and the
/// state the batches are written with is the thread's until `stop()` gives it back.
@Suite struct BatchPipelineTests {
    /// What the writer thread saw, shared with the test's thread.
    final class Log: Sendable {
        let written = Mutex<[Int]>([])
        let threads = Mutex<Set<ObjectIdentifier>>([])
        /// Set by the test to let a blocked `work` go on.
        let gate = Atomic<Bool>(false)
    }

    /// Waits (at most 10 s) until `condition` holds.
    static func wait(until condition: () -> Bool) -> Bool {
        for _ in 0..<10_000 {
            if condition() { return true }
            Thread.sleep(forTimeInterval: 0.001)
        }
        return false
    }

    @Test func batchesAreWrittenInOrderOnAnotherThread() throws {
        let log = Log()
        let pipeline = BatchPipeline<[Int], Void>(state: ()) { (_: inout Void, batch: inout [Int]) throws(SluiceError) in
            log.written.withLock { $0.append(contentsOf: batch) }
            log.threads.withLock { _ = $0.insert(ObjectIdentifier(Thread.current)) }
            batch.removeAll()
        }
        defer { pipeline.stop() }
        for number in 0..<20 {
            var batch: [Int]? = [2 * number, 2 * number + 1]
            _ = try pipeline.submit(&batch)
            #expect(batch == nil)  // moved to the pipeline, not copied
        }
        try pipeline.drain()
        #expect(log.written.withLock { $0 } == Array(0..<40))
        #expect(!log.threads.withLock { $0.contains(ObjectIdentifier(Thread.current)) })
        #expect(log.threads.withLock { $0.count } == 1)
    }

    @Test func theCallerGoesOnWhileABatchIsWritten() throws {
        let log = Log()
        let pipeline = BatchPipeline<[Int], Void>(state: ()) { (_: inout Void, batch: inout [Int]) throws(SluiceError) in
            // Holds the first batch until the test has handed over the second one.
            if batch == [1] { _ = BatchPipelineTests.wait { log.gate.load(ordering: .acquiring) } }
            log.written.withLock { $0.append(contentsOf: batch) }
            batch.removeAll()
        }
        defer { pipeline.stop() }
        var first: [Int]? = [1]
        _ = try pipeline.submit(&first)
        var second: [Int]? = [2]
        _ = try pipeline.submit(&second)  // returns while the first batch is still being written
        #expect(log.written.withLock { $0 } == [])
        log.gate.store(true, ordering: .releasing)
        try pipeline.drain()
        #expect(log.written.withLock { $0 } == [1, 2])
    }

    @Test func atMostThreeBatchesExist() throws {
        let pipeline = BatchPipeline<[Int], Void>(state: ()) { (_: inout Void, batch: inout [Int]) throws(SluiceError) in
            Thread.sleep(forTimeInterval: 0.0002)
            batch.removeAll(keepingCapacity: true)
        }
        defer { pipeline.stop() }
        var made = 1
        var filling: [Int]? = [0]
        for number in 1...50 {
            let next = try pipeline.submit(&filling)
            if next == nil { made += 1 }
            #expect(next?.isEmpty ?? true)  // batches come back emptied
            filling = (next ?? []) + [number]
        }
        try pipeline.drain()
        #expect(made <= 3)
    }

    @Test func theFirstFailureStopsLaterBatchesAndReachesTheCaller() throws {
        let log = Log()
        let pipeline = BatchPipeline<[Int], Void>(state: ()) { (_: inout Void, batch: inout [Int]) throws(SluiceError) in
            log.written.withLock { $0.append(contentsOf: batch) }
            if batch == [2] { throw SluiceError(.io, "disk full at batch 2") }
            batch.removeAll()
        }
        defer { pipeline.stop() }
        var failure: SluiceError?
        for number in 1...5 {
            var batch: [Int]? = [number]
            do { _ = try pipeline.submit(&batch) } catch { failure = error; break }
        }
        if failure == nil {
            do { try pipeline.drain() } catch { failure = error }
        }
        #expect(failure?.message == "disk full at batch 2")
        #expect(pipeline.stop().failure?.message == "disk full at batch 2")
        #expect(log.written.withLock { $0 } == [1, 2])  // nothing after the failed batch
    }

    @Test func theStateIsTheThreadsUntilStopGivesItBack() throws {
        // The batches' sums, kept in the state the thread writes with.
        let pipeline = BatchPipeline<[Int], [Int]>(state: [100]) { (sums: inout [Int], batch: inout [Int]) throws(SluiceError) in
            sums.append(batch.reduce(0, +))
            batch.removeAll()
        }
        for number in 1...4 {
            var batch: [Int]? = [number, number]
            _ = try pipeline.submit(&batch)
        }
        try pipeline.drain()
        let (state, failure) = pipeline.stop()
        #expect(state == [100, 2, 4, 6, 8])
        #expect(failure == nil)
        #expect(pipeline.stop().state == nil)  // given back once
    }
}
