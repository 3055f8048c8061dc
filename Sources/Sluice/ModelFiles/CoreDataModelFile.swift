extension ModelFile {
    /// Whether `path` names a Core Data model (`.xcdatamodeld`, `.xcdatamodel`, or a
    /// `.xcdatamodel`'s `contents`) rather than a Sluice model file.
    public static func isCoreDataModel(path: String) -> Bool {
        CoreDataModel.isModel(path: path)
    }

    /// Whether `path` is a Core Data store carrying the model that last wrote it (`Z_MODELCACHE`),
    /// which can be given as the model (a SwiftData app has no model file).
    public static func carriesCoreDataModel(path: String) -> Bool {
        CoreDataModelCache.isStore(path)
    }

    /// Whether this model was read from a Core Data model rather than a Sluice model file.
    public var isCoreDataModel: Bool { Self.isCoreDataModel(path: path) }

    /// Reads a Core Data model and converts it (`docs/coming-from-magicalrecord.md`), with the
    /// userInfo entries of the file `mapping` added (`CoreDataMapping`). The digest is the
    /// `contents` file's (the compiled model's, the store's archived model's); what does not
    /// convert is in `notes`.
    ///
    /// - Throws: `SluiceError` (the model cannot be found or read, or is not XML; the mapping is
    ///   not one) or `ModelError` (not a Core Data model, or it converts to a model that cannot
    ///   import).
    static func loadCoreDataModel(path: String, mapping: String? = nil) throws -> ModelFile {
        var notes = ModelProblemCollector()
        var source: CoreDataModel
        let bytes: [UInt8]
        if CompiledCoreDataModel.isCompiledModel(path) {
            (source, bytes) = try CompiledCoreDataModel.read(momd: path)
        } else {
            let contents = try CoreDataBundle.contentsPath(of: path)
            bytes = try CoreDataBundle.bytes(of: contents)
            source = try CoreDataModel(try XMLTree.parse(bytes, sourceName: contents), sourceName: path, notes: &notes)
        }
        if let mapping { try CoreDataMapping.apply(CoreDataBundle.bytes(of: mapping), sourceName: mapping, to: &source) }
        let (model, problems) = try convert(source, sourceName: path, notes: notes)
        return ModelFile(path: path, model: model, sha256: SHA256.hex(of: bytes), notes: problems)
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
        var model = try Model(decoding: ModelWriter.document(converted), sourceName: sourceName)
        // What a model file does not say: the transformers of the app's own.
        for entity in converted.entities {
            for attribute in entity.attributes where attribute.customTransformer != nil {
                guard let e = model.entities.firstIndex(where: { $0.name == entity.name }),
                      let a = model.entities[e].attributes.firstIndex(where: { $0.name == attribute.name }) else { continue }
                model.entities[e].attributes[a].customTransformer = attribute.customTransformer
            }
        }
        return (model, conversion.notes.problems)
    }

    /// The model as a Sluice model file (JSON): what `sluice convert-model` prints.
    public var modelFileText: String { ModelWriter.text(of: model) }
}

extension CoreDataImportLayout {
    /// The layout for an import through `modelFile`, which must be a Core Data model
    /// (`.xcdatamodeld`, `.xcdatamodel` or its contents, or a compiled `.momd`), into a store
    /// holding `existingTables` (nil: a new store).
    static func load(modelFile: ModelFile, existingTables: Set<String>?) throws -> CoreDataImportLayout {
        let schema = try CoreDataStoreSchema.coreDataModel(at: modelFile.path)
        return try CoreDataImportLayout(coreDataModel: schema, model: modelFile.model, sourceName: modelFile.path,
                                        storeUUID: newStoreUUID(), existingTables: existingTables)
    }
}
