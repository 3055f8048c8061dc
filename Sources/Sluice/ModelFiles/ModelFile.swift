/// A model loaded from its file, with the digest `sluice_imports` records.
///
/// `ModelFiles/` holds the reading, checking and writing of model files, above both `Model/`
/// (pure values, no I/O) and `CoreData/` (a Core Data model converted to a `Model`), so that
/// `Model/` never reaches back to `CoreData/`; reading a model file needs nothing of the import
/// (`sluice schema` loads one and opens no database). It reads through the Input layer (`FileSource`, `ChunkReader`); what
/// only an import can check is `validateForImport` (`ModelFile+Import.swift`).
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

extension ModelFile {
    /// The built-in model `builtIn`, loaded as a model file named `gtfs` would be: its problems
    /// (there are none: a test checks it) name `gtfs`, and `sha256` is its text's digest.
    public init(builtIn: BuiltInModel) throws {
        let bytes = Array(builtIn.text.utf8)
        let model = try Model.parse(bytes, sourceName: builtIn.rawValue)
        self.init(path: builtIn.rawValue, model: model, sha256: SHA256.hex(of: bytes))
    }
}
