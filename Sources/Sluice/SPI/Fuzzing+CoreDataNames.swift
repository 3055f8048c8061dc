/// The Core Data names' property (`Fuzz/README.md`, `CoreDataNameSpaceTests`): what
/// `sluice check --layout coredata` says of a model, an import into a new Core Data store
/// through it, and the tables and rows the store then has.
extension Fuzzing {
    /// What `sluice check --layout coredata --model modelPath` says: nil when it accepts the
    /// model, else its error text (the lines it prints after `sluice: error: `).
    public static func checkCoreData(modelPath: String) -> String? {
        do {
            // As the command: Core Data's store first, then the model as any import reads it.
            let store = try CoreDataStoreSchema.load(modelPath: modelPath)
            let file = try ModelFile.load(path: modelPath)
            try file.validateForCheck()
            if !store.problems.isEmpty { return ModelError(source: modelPath, problems: store.problems).description }
            return nil
        } catch {
            return "\(error)"
        }
    }

    /// `sluice import --db databasePath --layout coredata --model modelPath --entity entity`
    /// of `json` into a new store: nil when it succeeded, else its error.
    public static func importCoreData(_ json: [UInt8], modelPath: String, entity: String,
                                      databasePath: String) -> SluiceError? {
        var options = ImportOptions()
        options.layout = .coreData
        options.entity = entity
        do throws(SluiceError) {
            let file = try ModelFile.load(path: modelPath)
            do { try file.validateForImport(entity: entity) } catch { throw SluiceError(error) }
            let importer = try Importer(databasePath: databasePath, modelFile: file, options: options)
            try importer.importBytes(json)
            _ = try importer.finish()
            return nil
        } catch {
            return error
        }
    }

    /// The columns of each table of the SQLite file at `path`, by table name.
    public static func columns(databasePath path: String) throws(SluiceError) -> [String: [String]] {
        var columns: [String: [String]] = [:]
        for row in try rows(databasePath: path, "SELECT m.name, p.name FROM sqlite_schema m, pragma_table_info(m.name) p "
            + "WHERE m.type = 'table' ORDER BY m.name, p.cid") {
            columns[row[0] ?? "", default: []].append(row[1] ?? "")
        }
        return columns
    }

    /// The rows `sql` gives in the SQLite file at `path`, each value as text (nil for NULL).
    public static func rows(databasePath path: String, _ sql: String) throws(SluiceError) -> [[String?]] {
        do throws(SQLiteError) {
            let connection = try Connection(path: path, mode: .readOnly)
            let statement = try connection.prepare(sql)
            var rows: [[String?]] = []
            while try statement.step() {
                rows.append((0..<statement.columnCount).map { statement.text(at: $0) })
            }
            return rows
        } catch {
            throw SluiceError(.io, "\(path): \(error)")
        }
    }
}
