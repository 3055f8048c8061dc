/// One of `Importer`'s public initialisers with its arguments, as a value. The async and scoped
/// entry points (`Importer+Async`, `+AsyncBytes`, `+Scoped`) have an overload per initialiser;
/// each names its initialiser here, and the importer is opened in this one place.
enum ImporterOpening: Sendable {
    /// `init(databasePath:model:options:modelSHA256:)`.
    case pathModel(String, Model, modelSHA256: String = "")
    /// `init(databasePath:table:options:)`.
    case pathTable(String, table: String)
    /// `init(database:model:options:modelSHA256:)`.
    case databaseModel(Importer.Database, Model, modelSHA256: String = "")
    /// `init(database:modelFile:options:)`.
    case databaseModelFile(Importer.Database, ModelFile)
    /// `init(database:table:options:)`.
    case databaseTable(Importer.Database, table: String)

    /// The importer, opened with `options`.
    func open(_ options: ImportOptions) throws(SluiceError) -> Importer {
        switch self {
        case .pathModel(let path, let model, let digest):
            try Importer(databasePath: path, model: model, options: options, modelSHA256: digest)
        case .pathTable(let path, let table):
            try Importer(databasePath: path, table: table, options: options)
        case .databaseModel(let database, let model, let digest):
            try Importer(database: database, model: model, options: options, modelSHA256: digest)
        case .databaseModelFile(let database, let modelFile):
            try Importer(database: database, modelFile: modelFile, options: options)
        case .databaseTable(let database, let table):
            try Importer(database: database, table: table, options: options)
        }
    }
}
