/// Inputs whose records are all of one entity, whatever the model's `root` says of others.
extension Importer {
    /// Imports a file (`-` is standard input) whose records are all of `entity`, at `path`
    /// inside it (an envelope's key path, `data.items`; nil: the top level), whatever the
    /// model's `root`, `ImportOptions.roots` or `.entity` say of other inputs: the library's
    /// `--root` for one input, as `ImportOptions.entity` and `.path` say it for every input.
    /// An entity the model lacks is the error `ImportOptions.entity` gives; a zero-config
    /// import has no entities (`.usage`).
    public func importFile(_ file: String, entity: String, path: String? = nil) throws(SluiceError) {
        try readingOneEntity(entity, path: path) { () throws(SluiceError) in try importFile(file) }
    }

    /// Imports bytes held in memory whose records are all of `entity`, at `path` inside them,
    /// as `importFile(_:entity:path:)` does.
    public func importBytes(_ bytes: some Collection<UInt8>, name: String = "<memory>", entity: String,
                            path: String? = nil) throws(SluiceError) {
        try readingOneEntity(entity, path: path) { () throws(SluiceError) in try importBytes(bytes, name: name) }
    }
}
