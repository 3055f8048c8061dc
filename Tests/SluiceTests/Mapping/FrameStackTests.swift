import Testing
@testable import Sluice

@Suite struct FrameStackTests {
    /// Past its first buffer (16) it grows and keeps every element, in order.
    @Test func pushesAndPopsInOrderPastItsFirstBuffer() {
        var stack = FrameStack<Int>()
        #expect(stack.last == nil)
        #expect(stack.popLast() == nil)
        for value in 0..<100 { stack.append(value) }
        #expect(stack.count == 100)
        #expect(stack.last == 99)
        stack.removeLast()
        var popped: [Int] = []
        while let value = stack.popLast() { popped.append(value) }
        #expect(popped == Array((0..<99).reversed()))
        #expect(stack.count == 0)
    }
}
