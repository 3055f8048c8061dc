/// A model loaded from its file, with the digest `sluice_imports` records.
///
/// The loader lives with the model it loads rather than in `Engine/`: reading a model file
/// needs nothing of the import (`sluice schema` loads one and opens no database), and the
/// file's bytes and their digest belong together. It reads through the Input layer
/// (`FileSource`, `ChunkReader`), the one piece of I/O in `Model/`; everything else here is
/// pure values. What only an import can check is `validateForImport` (`Engine/`).
public struct ModelFile: Sendable {
    /// The path it was loaded from, or a built-in model's name (`gtfs`).
    public var path: String
    /// The model, validated.
    public var model: Model
    /// SHA-256 of the file's bytes, lowercase hex (what `sha256sum` prints).
    public var sha256: String
    /// What a Core Data model holds that does not convert (`CoreData/`), each at its place.
    public var notes: [ModelProblem] = []

    /// Reads and validates a model file. Throws `SluiceError`: `.cannotOpenInput` when the file
    /// cannot be read; `.usage` with `modelError` set (every problem, each with its path) when
    /// it is not a valid model. The name of a `BuiltInModel` (`gtfs`) is that model, never a
    /// file: `./gtfs` names a file of that name.
    ///
    /// `mapping`: a file of userInfo entries for a Core Data model (`CoreDataMapping`: the keys
    /// a store's own or a compiled model cannot carry); a usage error with any other model.
    public static func load(path: String, mapping: String? = nil) throws(SluiceError) -> ModelFile {
        do {
            return try loadAny(path: path, mapping: mapping)
        } catch let error as SluiceError {
            throw error
        } catch let error as ModelError {
            throw SluiceError(loading: error)
        } catch {
            throw SluiceError(.usage, "\(path): \(error)")
        }
    }

    private static func loadAny(path: String, mapping: String?) throws -> ModelFile {
        let isCoreData = BuiltInModel(rawValue: path) == nil && isCoreDataModel(path: path)
        if mapping != nil, !isCoreData {
            throw SluiceError(.usage, "--mapping is for a Core Data model, whose userInfo it adds to; '\(path)' is not one "
                                + "(a Sluice model file names its keys itself)")
        }
        if let builtIn = BuiltInModel(rawValue: path) { return try ModelFile(builtIn: builtIn) }
        if isCoreData { return try loadCoreDataModel(path: path, mapping: mapping) }
        let source = try FileSource(path: path, role: "model")
        var reader = ChunkReader(source: source, chunkSize: 1 << 16)
        var bytes: [UInt8] = []
        while let chunk = try reader.next() { bytes.append(contentsOf: chunk) }
        let model = try Model.parse(bytes, sourceName: path)
        return ModelFile(path: path, model: model, sha256: SHA256.hex(of: bytes))
    }
}
