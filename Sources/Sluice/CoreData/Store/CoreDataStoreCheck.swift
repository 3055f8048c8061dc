/// Whether an existing Core Data store was written for the model an import follows: its
/// metadata's entity version hashes (`Z_METADATA.Z_PLIST`, `NSStoreModelVersionHashes`) must be
/// the model's, as Core Data itself requires before it opens a store without migration. Rows of
/// a store of another model version would make a store that no version of the app opens.
enum CoreDataStoreCheck {
    /// Why the store whose `Z_PLIST` is `plist` cannot take an import through a model whose
    /// hashes are `expected`, naming the first entity (in name order) that differs; nil when it
    /// can. Kind `.data`: the database is not what the model needs (exit 65), nothing is written.
    ///
    /// `versions`: the other versions of the model's bundle (`CoreDataBundle.otherVersions`),
    /// read only on a mismatch, to name the one whose hashes are the store's.
    static func mismatch(_ plist: ColumnValue?, expected: [String: [UInt8]], database: String, model: String,
                         versions: [String] = []) -> SluiceError? {
        guard case .blob(let bytes)? = plist, let metadata = try? BinaryPropertyList.read(bytes),
              let recorded = metadata["NSStoreModelVersionHashes"]?.dictionary else {
            return SluiceError(.data, "database '\(database)' is not a Core Data store Sluice can read: its Z_METADATA "
                                + "holds no entity version hashes")
        }
        let stored = Dictionary(recorded.map { ($0.key, $0.value.data) }, uniquingKeysWith: { first, _ in first })
        let names = Set(stored.keys).union(expected.keys).sorted(by: VersionHash.codeUnitOrder)
        for name in names where stored[name] ?? nil != expected[name] {
            let why = switch (stored[name] ?? nil, expected[name]) {
            case (nil, _): "the store has no entity \(ModelProblem.quote(name))"
            case (_, nil): "the model has no entity \(ModelProblem.quote(name))"
            default: "entity \(ModelProblem.quote(name)) has another version hash"
            }
            let hashes = stored.compactMapValues { $0 }
            let match = versions.first { path in
                (try? VersionHash.entityHashes(of: CoreDataModel.read(path: path), sourceName: path)) == hashes
            }
            let remedy = match.map { "give the version the store was written with: --model '\($0)'" }
                ?? "give the model version the store was written with"
            return SluiceError(.data, "database '\(database)' is a Core Data store of another version of the model than "
                                + "'\(model)': \(why); nothing was written (import into a new file, or \(remedy))")
        }
        return nil
    }
}
