extension ModelFile {
    /// Whether `path` names a Core Data model (`.xcdatamodeld`, `.xcdatamodel`, or a
    /// `.xcdatamodel`'s `contents`) rather than a Sluice model file.
    public static func isCoreDataModel(path: String) -> Bool {
        CoreDataBundle.names(path) || CompiledCoreDataModel.isCompiledModel(path)
    }

    /// Whether `path` is a Core Data store carrying the model that last wrote it (`Z_MODELCACHE`),
    /// which can be given as the model (a SwiftData app has no model file).
    public static func carriesCoreDataModel(path: String) -> Bool {
        CoreDataModelCache.isStore(path)
    }

    /// Whether this model was read from a Core Data model rather than a Sluice model file.
    public var isCoreDataModel: Bool { Self.isCoreDataModel(path: path) }

    /// Reads a Core Data model and converts it (`docs/coming-from-magicalrecord.md`). The
    /// digest is the `contents` file's; what does not convert is in `notes`.
    ///
    /// - Throws: `SluiceError` (the model cannot be found or read, or is not XML) or
    ///   `ModelError` (not a Core Data model, or it converts to a model that cannot import).
    static func loadCoreDataModel(path: String) throws -> ModelFile {
        if CompiledCoreDataModel.isCompiledModel(path) {
            let (source, bytes) = try CompiledCoreDataModel.read(momd: path)
            let (model, notes) = try convert(source, sourceName: path, notes: ModelProblemCollector())
            return ModelFile(path: path, model: model, sha256: SHA256.hex(of: bytes), notes: notes)
        }
        let contents = try CoreDataBundle.contentsPath(of: path)
        let bytes = try CoreDataBundle.bytes(of: contents)
        let (model, notes) = try convertCoreDataModel(bytes, contentsName: contents, sourceName: path)
        return ModelFile(path: path, model: model, sha256: SHA256.hex(of: bytes), notes: notes)
    }

    /// The model and notes of the `contents` XML `bytes`; `contentsName` names the file in
    /// XML errors, `sourceName` the model in model errors.
    static func convertCoreDataModel(_ bytes: [UInt8], contentsName: String, sourceName: String) throws
        -> (model: Model, notes: [ModelProblem])
    {
        var notes = ModelProblemCollector()
        let source = try CoreDataModel(try XMLTree.parse(bytes, sourceName: contentsName), sourceName: sourceName,
                                       notes: &notes)
        return try convert(source, sourceName: sourceName, notes: notes)
    }

    /// The Sluice model of a Core Data model read from its XML or compiled form.
    private static func convert(_ source: CoreDataModel, sourceName: String, notes: ModelProblemCollector) throws
        -> (model: Model, notes: [ModelProblem])
    {
        var conversion = CoreDataConversion(source, notes: notes)
        let converted = conversion.model()
        // Validated as the model file `sluice convert-model` prints would be.
        let model = try Model(decoding: ModelWriter.document(converted), sourceName: sourceName)
        return (model, conversion.notes.problems)
    }

    /// The model as a Sluice model file (JSON): what `sluice convert-model` prints.
    public var modelFileText: String { ModelWriter.text(of: model) }
}
