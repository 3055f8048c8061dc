extension Model {
    /// Checks a model built in code as `sluice check` checks a model file: it is written as
    /// one (`ModelWriter`) and read back, so every rule of `docs/model.md` applies, with each
    /// problem at its path in that file (`entities.Order.relationships.customer.entity: …`);
    /// then it is compiled for an import as `check` compiles it (defaults that do not
    /// convert, date formats, where the records are). `Importer` calls it before it opens the
    /// database: a model it would refuse never reaches the engine.
    ///
    /// - Throws: `ModelError` listing every problem found.
    public func validate(sourceName: String = "model") throws(ModelError) {
        let reread = try Model(decoding: ModelWriter.document(self), sourceName: sourceName)
        // As `check`: a model that leaves where its records are to each import is compiled
        // as if its first entity were named.
        let entity = root == nil && entities.count > 1 ? entities.first?.name : nil
        _ = try MappingPlan(model: reread, locations: .init(entity: entity), sourceName: sourceName)
    }
}
