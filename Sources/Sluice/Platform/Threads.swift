#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A mutex with one condition variable, for a hand-over between two threads (the batch
/// pipeline). pthreads rather than Synchronization's `Mutex`: that has no condition variable,
/// and waiting for a batch must not spin.
final class Monitor: @unchecked Sendable {
    // Allocated, never moved: pthread objects must keep their address.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    init() {
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    func lock() { pthread_mutex_lock(mutex) }
    func unlock() { pthread_mutex_unlock(mutex) }

    /// Releases the lock until another thread calls `broadcast()`, then takes it again. Call
    /// with the lock held, in a loop that re-checks the awaited state.
    func wait() { pthread_cond_wait(condition, mutex) }

    /// `wait()` that also returns after `seconds`, for a thread that must wake up regularly
    /// (the finishing progress). The deadline is on the realtime clock, the condition
    /// variable's default: a clock change makes one wait longer or shorter, nothing else.
    func wait(seconds: Double) {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let nanoseconds = Int64(now.tv_nsec) + Int64(max(0, seconds) * 1e9)
        var deadline = timespec()
        deadline.tv_sec = now.tv_sec + time_t(nanoseconds / 1_000_000_000)
        deadline.tv_nsec = Int(nanoseconds % 1_000_000_000)
        pthread_cond_timedwait(condition, mutex, &deadline)
    }

    /// Wakes every thread in `wait()`. Call with the lock held.
    func broadcast() { pthread_cond_broadcast(condition) }
}

/// A thread started with a Swift closure, joined by its owner.
struct JoinableThread: ~Copyable {
    fileprivate let handle: pthread_t

    /// Starts a thread running `body`, which is kept alive until it returns. Failing to
    /// start a thread means the process is out of resources: a precondition, not an error.
    init(_ body: @escaping () -> Void) {
        let context = Unmanaged.passRetained(ThreadBody(body)).toOpaque()
        #if canImport(Darwin)
        var started: pthread_t?
        let rc = pthread_create(&started, nil, { context in
            Unmanaged<ThreadBody>.fromOpaque(context).takeRetainedValue().run()
            return nil
        }, context)
        precondition(rc == 0 && started != nil, "cannot start a thread (pthread_create: \(rc))")
        handle = started!
        #else
        var started = pthread_t()
        let rc = pthread_create(&started, nil, { context in
            Unmanaged<ThreadBody>.fromOpaque(context!).takeRetainedValue().run()
            return nil
        }, context)
        precondition(rc == 0, "cannot start a thread (pthread_create: \(rc))")
        handle = started
        #endif
    }

    /// Waits until the thread's closure has returned.
    consuming func join() {
        pthread_join(handle, nil)
    }
}

/// Starts a thread running `body` that nobody joins: its resources go when it returns. For
/// work handed off by async code, which learns the outcome another way (a continuation).
func startDetachedThread(_ body: @escaping () -> Void) {
    JoinableThread(body).detach()
}

extension JoinableThread {
    /// Lets the thread end on its own, unjoined.
    consuming func detach() {
        pthread_detach(handle)
    }
}

/// What a thread runs, boxed for `pthread_create`, whose C callback can capture nothing.
private final class ThreadBody {
    let run: () -> Void
    init(_ run: @escaping () -> Void) { self.run = run }
}
