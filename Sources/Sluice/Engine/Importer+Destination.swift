extension Importer {
    /// What an import opens: a database, and the model (or, zero-config, the table) its
    /// records go to. The scoped and async entry points take one (`withImport(_:options:_:)`,
    /// `run(_:options:inputs:)`, `start(_:options:inputs:)`, `run(_:options:chunks:name:)`),
    /// each as the initialiser of the same name would open it:
    ///
    /// ```swift
    /// try Importer.withImport(.file("transit.sqlite", model: model)) { importer in … }
    /// try await Importer.run(.database(.postgreSQL(uri: uri), table: "items"), inputs: ["items.ndjson"])
    /// ```
    public struct Destination: Sendable {
        private enum Opening: Sendable {
            case pathModel(String, Model, modelSHA256: String)
            case pathTable(String, table: String)
            case databaseModel(Database, Model, modelSHA256: String)
            case databaseModelFile(Database, ModelFile)
            case databaseTable(Database, table: String)
        }

        private let opening: Opening

        /// The SQLite file at `path` through `model`, as `init(databasePath:model:options:modelSHA256:)`.
        public static func file(_ path: String, model: Model, modelSHA256: String = "") -> Destination {
            Destination(opening: .pathModel(path, model, modelSHA256: modelSHA256))
        }

        /// A zero-config import into `table` of the SQLite file at `path`, as
        /// `init(databasePath:table:options:)`.
        public static func file(_ path: String, table: String) -> Destination {
            Destination(opening: .pathTable(path, table: table))
        }

        /// `database` through `model`, as `init(database:model:options:modelSHA256:)`.
        public static func database(_ database: Database, model: Model, modelSHA256: String = "") -> Destination {
            Destination(opening: .databaseModel(database, model, modelSHA256: modelSHA256))
        }

        /// `database` through `modelFile`'s model (Core Data's store with `.coreDataStore`), as
        /// `init(database:modelFile:options:)`.
        public static func database(_ database: Database, modelFile: ModelFile) -> Destination {
            Destination(opening: .databaseModelFile(database, modelFile))
        }

        /// A zero-config import into `table` of `database`, as `init(database:table:options:)`.
        public static func database(_ database: Database, table: String) -> Destination {
            Destination(opening: .databaseTable(database, table: table))
        }

        /// The importer, opened with `options`.
        func open(_ options: ImportOptions) throws(SluiceError) -> Importer {
            switch opening {
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
}
