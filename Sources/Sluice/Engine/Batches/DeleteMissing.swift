/// What the engine decides for `--delete-missing` (`docs/import-semantics.md`); the store's
/// `TouchedRowStore` remembers the rows and deletes the others.
enum DeleteMissing {
    /// Per family table at a record location: the members placed there and their descendants,
    /// the only rows `--delete-missing` may delete, when they are not the whole family
    /// (`--entity BusStop` leaves the family's other stops alone).
    static func candidates(plan: MappingPlan, model: Model) -> [Int: [String]] {
        var members: [Int: Set<String>] = [:]
        for location in plan.locationNodes {
            guard let shape = location.entity else { continue }
            let placed = plan.shapes[shape].name
            let storage = plan.shapes[shape].storage
            guard model.hasDescendants(plan.storageModel.entities[storage].name) else { continue }
            members[storage, default: []].formUnion(model.entities.lazy.map(\.name).filter {
                model.isSameOrDescendant($0, of: placed)
            })
        }
        return members.filter { storage, names in
            names.count < model.family(of: plan.storageModel.entities[storage].name).count
        }.mapValues { $0.sorted() }
    }


    /// The rows of `writer`'s batch that the import mentions (each identity once).
    static func mentioned(in writer: borrowing EntityWriter) -> [Int64] {
        var pks: [Int64] = []
        for record in 0..<writer.count where writer.isRepresentative(record) { pks.append(writer.pk(of: record)) }
        return pks
    }
}
