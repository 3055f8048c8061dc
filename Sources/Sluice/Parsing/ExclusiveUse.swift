#if DEBUG
import Synchronization
#endif

/// A debug-build check that a value meant for one thread is never used by two at once, nor
/// re-entered from inside its own use.
///
/// The parser and the stream it drives belong to the thread that parses: their per-event
/// state skips Swift's dynamic exclusivity checks (`@exclusivity(unchecked)`), which is sound
/// only while no two uses overlap. They are not `Sendable`, so the compiler refuses most ways
/// to share them; this catches the rest (an unchecked hand-over to another thread, a sink that
/// calls back into the stream). Release builds hold nothing and check nothing.
struct ExclusiveUse: ~Copyable {
    #if DEBUG
    private let inUse = Atomic<Bool>(false)
    #endif

    init() {}

    /// A use of `what` begins; traps when another one is under way.
    func enter(_ what: StaticString) {
        #if DEBUG
        let (exchanged, _) = inUse.compareExchange(expected: false, desired: true, ordering: .acquiring)
        precondition(exchanged, "\(what) used by two threads at once, or re-entered: it belongs to the thread that parses")
        #endif
    }

    /// The use begun by `enter` ends.
    func leave() {
        #if DEBUG
        inUse.store(false, ordering: .releasing)
        #endif
    }
}
