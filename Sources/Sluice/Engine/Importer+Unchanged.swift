/// The last committed import, whose inputs an import found unchanged (`skipIfUnchanged`).
public struct UnchangedImport: Sendable, Equatable {
    /// Its `sluice_imports.id` (in a Core Data store, the count of Sluice's imports into it).
    public let number: Int64
    /// When it finished (ISO 8601 UTC).
    public let finishedAt: String
}

extension Importer {
    /// `--skip-unchanged`: before anything is read into the database, compares the files at
    /// `paths` with what the last committed import read (`sluice_imports.inputs`: the same
    /// names in the same order, sizes and SHA-256 of the bytes) and its model digest. When all
    /// are the same, the import is abandoned, nothing written (the database file as it was),
    /// and that import is returned; otherwise nil, and the import goes on as usual.
    ///
    /// Each file is read once through for its digest (sizes are compared first, so a file
    /// whose size changed is not read). Standard input (`-`) is never skipped: deciding would
    /// mean holding all its bytes before importing any, so an import with it returns nil.
    public func skipIfUnchanged(files paths: [String]) throws(SluiceError) -> UnchangedImport? {
        do throws(SluiceError) {
            guard !paths.contains("-"), let last = try database.lastImport(), last.modelSHA256 == modelSHA256,
                  let recorded = last.inputs.flatMap(InputDigest.parse), recorded.count == paths.count else { return nil }
            for (path, input) in zip(paths, recorded) {
                guard path == input.name, try FileSource(path: path).expectedSize == input.bytes else { return nil }
            }
            for (path, input) in zip(paths, recorded) {
                guard let digest = try InputDigest.ofFile(at: path), digest.sameBytes(as: input) else { return nil }
            }
            abandon()
            return UnchangedImport(number: last.number, finishedAt: last.finishedAt)
        } catch {
            cancel()
            throw error
        }
    }
}
