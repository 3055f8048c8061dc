extension ModelFile {
    /// What `sluice check` checks: what `validateForImport(entity:path:mapKey:)` checks, except that
    /// a model that leaves where the records are to each import (several entities, no `root`,
    /// as every Core Data model) is valid without `--entity`: it is checked as if its first
    /// entity were named, which compiles every entity all the same.
    public func validateForCheck(entity: String? = nil, path keyPath: String? = nil, mapKey: String? = nil,
                                 optionNames: OptionNames = .library) throws(ModelError) {
        if entity == nil, keyPath == nil, mapKey == nil, model.root == nil, model.entities.count > 1 {
            try validateForImport(entity: model.entities[0].name, optionNames: optionNames)
        } else {
            try validateForImport(entity: entity, path: keyPath, mapKey: mapKey, optionNames: optionNames)
        }
    }
}
