/// The faults `TextScanner` found ahead of the parser and the parser has not reached yet, in
/// input order: the parser takes those inside each string or key as the token is delivered.
struct FaultQueue {
    private var faults: [TextFault] = []
    private var head = 0
    /// The offset of the first fault not yet taken; `Int64.max` when none (one comparison per
    /// string tells whether it has any).
    private(set) var nextFaultOffset = Int64.max

    /// Adds faults in the order the scanner found them. That is input order except an
    /// unpaired high surrogate, found after the escape that follows it: each goes in its place.
    mutating func add(_ found: [TextFault]) {
        for fault in found {
            var index = faults.count
            while index > head, faults[index - 1].offset > fault.offset { index -= 1 }
            faults.insert(fault, at: index)
        }
        if head < faults.count { nextFaultOffset = faults[head].offset }
    }

    /// Takes the faults before `end` (absolute): those inside the token that ends there.
    mutating func take(before end: Int64) -> ArraySlice<TextFault> {
        let start = head
        while head < faults.count, faults[head].offset < end { head += 1 }
        let taken = faults[start..<head]
        if head == faults.count {
            defer { faults.removeAll(keepingCapacity: true); head = 0 }
            nextFaultOffset = .max
            return ArraySlice(Array(taken))
        }
        nextFaultOffset = faults[head].offset
        return taken
    }
}
