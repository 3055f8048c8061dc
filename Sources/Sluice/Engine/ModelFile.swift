/// A model loaded from its file, with the digest `sluice_imports` records.
public struct ModelFile: Sendable {
    public var path: String
    public var model: Model
    /// SHA-256 of the file's bytes, lowercase hex (what `sha256sum` prints).
    public var sha256: String
    /// What a Core Data model holds that does not convert (`CoreData/`), each at its place.
    public var notes: [ModelProblem] = []

    /// Reads and validates a model file. Throws `SluiceError` (the file cannot be read, or is
    /// not JSON) or `ModelError` (every problem of the model, each with its path).
    public static func load(path: String) throws -> ModelFile {
        if isCoreDataModel(path: path) { return try loadCoreDataModel(path: path) }
        let source = try FileSource(path: path)
        var reader = ChunkReader(source: source, chunkSize: 1 << 16)
        var bytes: [UInt8] = []
        while let chunk = try reader.next() { bytes.append(contentsOf: chunk) }
        let model = try Model.parse(bytes, sourceName: path)
        return ModelFile(path: path, model: model, sha256: SHA256.hex(of: bytes))
    }

    /// Checks what only an import reveals: defaults that do not convert, date formats, and
    /// where the records are (`--entity`, `--path`, or the model's `root`).
    public func validateForImport(entity: String? = nil, path keyPath: String? = nil) throws {
        _ = try MappingPlan(model: model, locations: .init(entity: entity, path: keyPath.map(JSONKeyPath.init(parsing:))),
                            sourceName: path)
    }
}
