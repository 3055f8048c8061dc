import Foundation
import Synchronization
import Testing
@testable import Sluice

@Suite struct PeriodicThreadTests {
    /// What the ticks saw, shared with the thread.
    final class Ticks: Sendable {
        let state = Mutex<(count: Int, afterStop: Int, stopped: Bool)>((0, 0, false))
        var count: Int { state.withLock { $0.count } }
        func tick() { state.withLock { $0.count += 1; if $0.stopped { $0.afterStop += 1 } } }
        func markStopped() { state.withLock { $0.stopped = true } }
    }

    @Test func aTickThatSaysNeverEndsTheThread() {
        let ticks = Ticks()
        let thread = PeriodicThread(after: 0) {
            ticks.tick()
            return ticks.count < 3 ? 0.001 : nil
        }
        #expect(eventually { ticks.count == 3 })
        thread.stop()
        thread.stop()
        #expect(ticks.count == 3, "no tick after one returned nil")
    }

    @Test func noTickRunsOnceStopReturned() {
        let ticks = Ticks()
        let thread = PeriodicThread(after: 0) {
            ticks.tick()
            return 0
        }
        #expect(eventually { ticks.count >= 100 })
        thread.stop()
        ticks.markStopped()
        let stopped = ticks.count
        usleep(20_000)
        #expect(ticks.count == stopped)
        #expect(ticks.state.withLock { $0.afterStop } == 0)
    }

    /// A long first delay does not hold up `stop()`: the sleeping thread is woken.
    @Test func stopWakesASleepingThread() {
        let ticks = Ticks()
        let thread = PeriodicThread(after: 3_600) {
            ticks.tick()
            return 3_600
        }
        thread.stop()
        #expect(ticks.count == 0)
    }
}
