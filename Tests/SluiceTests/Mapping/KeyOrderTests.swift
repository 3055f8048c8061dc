import Testing
@testable import Sluice

@Suite struct KeyOrderTests {
    /// The key tried first is the one that came first, or next, in the records before: the
    /// model's order until a record shows another, then the data's.
    @Test func theOrderOfTheRecordsIsLearned() throws {
        let entity = Model.Entity(name: "R", attributes: ["a", "b", "c"].map { .init(name: $0, type: .integer) })
        let plan = try MappingPlan(model: Model(root: .entity("R"), entities: [entity]))
        let storage = EventPlan.Storage(plan)
        let events = storage.plan
        let root = Int(events.entities[0].rootNode)
        let node = events.keyNodes[root]
        func index(_ key: String) -> Int {
            Array(key.utf8).withUnsafeBytes { bytes in
                EventPlan.keyIndex(in: events.keys, keyBytes: events.keyBytes, from: Int(node.firstKey),
                                   count: Int(node.keyCount), bytes, hint: -1)!
            }
        }
        var order = KeyOrder(events)
        order.enter(root)
        #expect(order.hint == index("a"))
        order.found(index("a"))
        #expect(order.hint == index("b"))

        // A record lists c, then a: both are learned.
        order.enter(root)
        order.found(index("c"))
        order.found(index("a"))
        order.enter(root)
        #expect(order.hint == index("c"))
        order.found(index("c"))
        #expect(order.hint == index("a"))
        order.found(index("a"))
        #expect(order.hint == index("b"))
    }
}
