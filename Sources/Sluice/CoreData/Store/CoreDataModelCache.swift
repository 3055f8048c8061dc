/// A Core Data store's own model (`--model Store.sqlite`, or no `--model` with `--layout
/// coredata`): `Z_MODELCACHE.Z_CONTENT`, the model that last wrote the store, archived as a
/// compiled `.mom` is (a keyed archive, read by `CompiledCoreDataModel`) and compressed with raw
/// DEFLATE (`coredata-store-format.md`, 1.9). A SwiftData app has no model file: its model is
/// Swift code, and the empty store the app makes on its first launch is where it is written down.
///
/// The entity hashes computed from the model read must be those the store's `Z_METADATA`
/// records: the proof that it was read as Core Data wrote it (else it is refused, never guessed).
enum CoreDataModelCache {
    /// An archived model is a few KiB; a cache inflating past this is not one.
    static let largestArchive = 64 << 20

    /// Whether `path` is a Core Data store carrying its model.
    static func isStore(_ path: String) -> Bool {
        ImportStores.coreDataModelCache(of: path) != nil
    }

    /// The model the store at `path` carries, and the archive's bytes (their digest is the
    /// model's in `sluice_imports`-free Core Data stores' messages).
    static func read(store path: String) throws -> (model: CoreDataModel, bytes: [UInt8]) {
        guard let (content, metadata) = ImportStores.coreDataModelCache(of: path) else {
            throw SluiceError(.usage, "'\(path)' is not a Core Data store carrying its model (no Z_MODELCACHE)")
        }
        let archive = try RawDeflate.inflate(content, limit: largestArchive, what: "'\(path)': Z_MODELCACHE")
        let model = try CompiledCoreDataModel.read(mom: archive, source: path + " (Z_MODELCACHE)")
        let hashes = try VersionHash.entityHashes(of: model, sourceName: path)
        if let mismatch = CoreDataStoreCheck.mismatch(metadata, expected: hashes, database: path, model: path + " (Z_MODELCACHE)") {
            throw SluiceError(.usage, "'\(path)': the model in its Z_MODELCACHE does not give the version hashes its Z_METADATA "
                                + "records (\(mismatch.message)): it is not the store's model, or Sluice did not read it as Core "
                                + "Data wrote it; give the app's model with --model")
        }
        return (model, archive)
    }
}
