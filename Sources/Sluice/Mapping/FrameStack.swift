/// The frames of an assembler's open containers: a stack in one buffer of its own.
///
/// An array did the same with a uniqueness check on every push and pop, and a pop that the
/// compiler left as a generic call (callgrind, W1: about 60 instructions a record). Plain
/// values only (`BitwiseCopyable`), so nothing is retained or deinitialised; noncopyable,
/// so the buffer has one owner.
struct FrameStack<Element: BitwiseCopyable>: ~Copyable {
    private var base: UnsafeMutablePointer<Element>
    private var capacity: Int
    private(set) var count = 0

    init() {
        capacity = 16
        base = .allocate(capacity: capacity)
    }

    deinit { base.deallocate() }

    var last: Element? {
        get { count > 0 ? base[count - 1] : nil }
    }

    mutating func append(_ element: Element) {
        if count == capacity { grow() }
        base[count] = element
        count += 1
    }

    mutating func popLast() -> Element? {
        guard count > 0 else { return nil }
        count -= 1
        return base[count]
    }

    mutating func removeLast() {
        precondition(count > 0, "removeLast on an empty stack")
        count -= 1
    }

    @inline(never)
    private mutating func grow() {
        let grown = UnsafeMutablePointer<Element>.allocate(capacity: capacity * 2)
        grown.initialize(from: base, count: count)
        base.deallocate()
        base = grown
        capacity *= 2
    }
}
