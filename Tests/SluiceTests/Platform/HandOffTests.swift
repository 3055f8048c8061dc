import Foundation
import Synchronization
import Testing
@testable import Sluice

@Suite struct HandOffTests {
    @Test func valuesArriveInOrderOnAnotherThreadAndCloseEndsTheTaking() {
        let handOff = HandOff<Int>(capacity: 2)
        let taken = Mutex<[Int]>([])
        let taker = JoinableThread {
            while let value = handOff.take() { taken.withLock { $0.append(value) } }
        }
        for value in 0..<1_000 { #expect(handOff.put(value)) }
        handOff.close()
        taker.join()
        #expect(taken.withLock { $0 } == Array(0..<1_000))
    }

    /// `put` waits while `capacity` values wait: never more than that are held.
    @Test func aFullHandOffHoldsThePutterUntilATake() {
        let handOff = HandOff<Int>(capacity: 1)
        let putsDone = Atomic<Int>(0)
        let putter = JoinableThread {
            for value in 0..<3 {
                handOff.put(value)
                putsDone.add(1, ordering: .relaxed)
            }
        }
        #expect(eventually { putsDone.load(ordering: .relaxed) == 1 })
        usleep(20_000)
        #expect(putsDone.load(ordering: .relaxed) == 1, "the second put waits for a take")
        #expect(handOff.take() == 0)
        #expect(handOff.take() == 1)
        #expect(handOff.take() == 2)
        putter.join()
        #expect(handOff.poll() == nil)
    }

    @Test func waitUntilDoneReturnsOnceEveryValueIsDone() {
        let handOff = HandOff<Int>(capacity: 4)
        let finished = Mutex<[Int]>([])
        let taker = JoinableThread {
            while let value = handOff.take() {
                usleep(1_000)
                finished.withLock { $0.append(value) }
                handOff.done()
            }
        }
        for value in 0..<10 { handOff.put(value) }
        handOff.waitUntilDone()
        #expect(finished.withLock { $0 } == Array(0..<10))
        handOff.close()
        taker.join()
    }

    /// Closing from the taker's side releases a waiting putter, and drops what waits.
    @Test func closingReleasesAWaitingPutAndCanDropTheWaitingValues() {
        let handOff = HandOff<Int>(capacity: 1)
        handOff.put(1)
        let result = Mutex<Bool?>(nil)
        let putter = JoinableThread { let put = handOff.put(2); result.withLock { $0 = put } }
        handOff.close(droppingWaiting: true)
        putter.join()
        #expect(result.withLock { $0 } == false)
        #expect(handOff.take() == nil)
        handOff.waitUntilDone()  // nothing unfinished: the dropped value is not waited for
    }
}
