/// Which of a plan's keys the records of an import held, and the keys they held that no
/// attribute maps (a sample: `KeyMatcher.unmappedSampleLimit` a stream), gathered over every
/// input of the import for its notes (`ImportNotes`). Keys are indexed as `EventPlan.keys`,
/// nodes as `MappingPlan.keyNodes`.
struct KeySightings {
    var seen: [Bool]
    var unmapped: [Int: Set<String>] = [:]

    init(keyCount: Int) { seen = Array(repeating: false, count: keyCount) }

    /// Adds what one input's stream saw.
    mutating func add(_ matched: borrowing KeyMatcher) {
        matched.markSeenKeys(in: &seen)
        for (node, keys) in matched.unmapped { unmapped[node, default: []].formUnion(keys) }
    }
}

extension MappingPlan {
    /// The index in `EventPlan.keys` of each key node's first child key: the event plan lays
    /// out the nodes' children in order (`EventPlan.Storage`).
    var firstKeyIndexes: [Int] {
        var first: [Int] = []
        var count = 0
        for node in keyNodes {
            first.append(count)
            count += node.children.keys.count
        }
        return first
    }

    /// The number of keys of the event plan.
    var keyCount: Int { keyNodes.reduce(0) { $0 + $1.children.keys.count } }

    /// Each step of `path` from key node `node`: the key's index in `EventPlan.keys`, and the
    /// node it leads to; nil when the plan has no such path.
    func keySteps(_ path: JSONKeyPath, from node: Int, firstKeyIndexes: [Int]) -> [(key: Int, node: Int)]? {
        var node = node
        var steps: [(key: Int, node: Int)] = []
        for key in path.keys {
            guard let position = keyNodes[node].children.keys.firstIndex(where: { $0.bytes.elementsEqual(key.utf8) }) else {
                return nil
            }
            let child = keyNodes[node].children.keys[position].node
            steps.append((firstKeyIndexes[node] + position, child))
            node = child
        }
        return steps
    }

    /// The key indexes of every key below `node`, at any depth.
    func keyIndexes(below node: Int, firstKeyIndexes: [Int]) -> [Int] {
        var result: [Int] = []
        var stack = [node]
        while let next = stack.popLast() {
            for (position, child) in keyNodes[next].children.keys.enumerated() {
                result.append(firstKeyIndexes[next] + position)
                stack.append(child.node)
            }
        }
        return result
    }

    /// Where records stand (`locationNodes`), as key paths with the shape of their records.
    var recordLocations: [(path: [String], entity: Int)] {
        var result: [(path: [String], entity: Int)] = []
        func visit(_ node: Int, _ path: [String]) {
            if let entity = locationNodes[node].entity { result.append((path, entity)) }
            for (key, child) in locationNodes[node].children.keys {
                visit(child, path + [String(decoding: key, as: UTF8.self)])
            }
        }
        visit(Self.rootLocation, [])
        return result
    }
}
