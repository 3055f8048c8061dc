/// The thread that may use a value belonging to one thread at a time (a `Connection` and its
/// statements), for assertions: debug builds check it, release builds compile the checks out.
///
/// A value starts owned by the thread that made it. It changes threads only at a hand-over:
/// the thread giving it up calls `release()`, and the thread receiving it `takeOver()`, each
/// at a point where the other is known not to touch it (a lock or a thread join orders the
/// two), as the import's batch writer does around its writer thread.
struct ThreadOwner {
    /// `currentThreadID()` of the owner, or `nobody` between a release and a take-over.
    private var thread = currentThreadID()
    private static let nobody: UInt = 0

    /// Whether the calling thread owns the value. For `assert`, which release builds skip.
    var isCurrentThread: Bool { thread == currentThreadID() }

    /// Gives the value up: no thread may use it until one takes it over.
    mutating func release() {
        assert(isCurrentThread, "released by a thread that does not own it")
        thread = Self.nobody
    }

    /// Makes the calling thread the owner of a value released by its last owner (or owned
    /// by this thread already).
    mutating func takeOver() {
        assert(thread == Self.nobody || isCurrentThread, "taken over while another thread owns it")
        thread = currentThreadID()
    }
}
