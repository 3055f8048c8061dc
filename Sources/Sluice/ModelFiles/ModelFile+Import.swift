extension ModelFile {
    /// Checks what only an import reveals: defaults that do not convert, date formats, and
    /// where the records are (`--entity`, `--path`, or the model's `root` with `--root`), by building
    /// the import's `MappingPlan`.
    public func validateForImport(entity: String? = nil, path keyPath: String? = nil, mapKey: String? = nil,
                                  roots: [Model.RootOverride] = [], optionNames: OptionNames = .library) throws(ModelError) {
        _ = try MappingPlan(model: model, locations: .init(entity: entity, path: keyPath.map(JSONKeyPath.init(parsing:)),
                                                          mapKey: mapKey, roots: roots, names: optionNames),
                            sourceName: path)
    }
}
