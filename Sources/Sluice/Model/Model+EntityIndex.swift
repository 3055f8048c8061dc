import Synchronization

/// The entities by name and by parent, so that a lookup costs the same in a model of 5,000
/// entities (a GTFS feed of as many unknown files, each an entity) as in one of ten: the
/// model compile and validation look entities up for each entity, and a scan of all of them
/// made those quadratic.
extension Model {
    struct EntityIndex: Sendable {
        /// Each name's first position in `entities`.
        var positions: [String: Int] = [:]
        /// The positions of the entities naming each parent, in model order.
        var children: [String: [Int]] = [:]

        init(_ entities: [Entity]) {
            Model.indexMade?()
            positions.reserveCapacity(entities.count)
            for index in entities.indices {
                // In place: an element handed to a closure or bound by `for in` is a copy of the
                // whole entity (a retain and release of each of its arrays).
                if positions[entities[index].name] == nil { positions[entities[index].name] = index }
                if let parent = entities[index].parent { children[parent, default: []].append(index) }
            }
        }
    }

    /// A model's `EntityIndex`, made at its first lookup and shared by the model's copies; any
    /// change of `entities` gives the model a new, empty one (`Model.entities`), so an index is
    /// never stale and a change costs no more than an allocation.
    final class EntityIndexCache: Sendable {
        private let index = Mutex<EntityIndex?>(nil)

        /// The index of `entities`: those of the model holding this cache.
        func index(of entities: [Entity]) -> EntityIndex {
            index.withLock { index in
                if let index { return index }
                let made = EntityIndex(entities)
                index = made
                return made
            }
        }
    }

    /// Called for each index made while it is set: a test's measure of an import's work (a
    /// model indexed again for each file of a feed would make the import quadratic again).
    @TaskLocal static var indexMade: (@Sendable () -> Void)?

    /// The position of the entity called `name` in `entities`, or nil.
    func position(ofEntity name: String) -> Int? {
        entityIndex.positions[name]
    }
}
