/// Core Data's store for a Core Data model, as the commands show it (`sluice schema --layout
/// coredata`, `sluice check --layout coredata`; `docs/coredata-store.md`).
public struct CoreDataStoreSchema: Sendable {
    /// The model as given on the command line.
    public let modelPath: String
    /// The number of entities in the model.
    public let entityCount: Int
    /// What the store could not hold as Core Data would, one per property, at its place in the model.
    public let problems: [ModelProblem]
    /// The pragmas and `CREATE` statements of an empty store, each ending with `;` and a line break.
    public let sql: String

    /// - Throws: `SluiceError` of kind `.usage` when `modelPath` does not name a Core Data model
    ///   (Core Data's store is defined by one), or it cannot be read; `ModelError` when Core
    ///   Data could not load it (a type it does not have, a relationship to no entity).
    public static func load(modelPath: String) throws -> CoreDataStoreSchema {
        let model = try coreDataModel(at: modelPath)
        let layout = try CoreDataStoreLayout(model, sourceName: modelPath)
        let statements = CoreDataStoreLayout.pragmas + layout.statements
        return CoreDataStoreSchema(modelPath: modelPath, entityCount: layout.entities.count, problems: layout.problems,
                                   sql: statements.map { $0 + ";\n" }.joined())
    }

    /// The Core Data model at `path`: a compiled `.momd`, or a `.xcdatamodeld` (its current
    /// version), `.xcdatamodel` or its `contents`.
    static func coreDataModel(at path: String) throws -> CoreDataModel {
        guard CoreDataModel.isModel(path: path) else {
            throw SluiceError(.usage, "--layout coredata needs a Core Data model (.xcdatamodeld, .xcdatamodel or its contents, or .momd): "
                                + "Core Data's store is made from one, and '\(path)' is not one")
        }
        return CompiledCoreDataModel.isCompiledModel(path) ? try CompiledCoreDataModel.read(momd: path).model
            : try CoreDataModel.read(path: path)
    }
}
