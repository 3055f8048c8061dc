import ArgumentParser
import Sluice

struct SchemaCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schema",
        abstract: "Print the SQL that the model creates: for SQLite, PostgreSQL, or Core Data's store.",
        discussion: """
        The tables, columns, indexes and join tables an import with this model (a JSON model \
        file, a Core Data model, or gtfs) creates, and the sluice_imports log, as CREATE ... \
        IF NOT EXISTS statements: SQLite's, or with --dialect postgresql PostgreSQL's (the \
        types an import into PostgreSQL gives them). With --layout coredata, the SQLite store \
        Core Data itself keeps for a Core Data model.

        Examples:
          sluice schema --model model.json
          # an empty database with the model's tables
          sluice schema --model model.json | sqlite3 empty.sqlite
          # the GTFS tables in the schema gtfs of a PostgreSQL database
          sluice schema --model gtfs --dialect postgresql --schema gtfs | psql transit
          # Core Data's empty store for a Core Data model (docs/coredata-store.md)
          sluice schema --layout coredata --model App.xcdatamodeld | sqlite3 Seed.sqlite
        """
    )

    enum Dialect: String, ExpressibleByArgument, CaseIterable {
        case sqlite, postgresql
    }

    @OptionGroup var modelOptions: ModelOptions

    @Option(name: .long, help: "The SQL to print: sqlite (default) or postgresql.")
    var dialect: Dialect = .sqlite

    @Option(name: .long, help: "With --dialect postgresql: create this schema first and put the tables in it.")
    var schema: String?

    func validate() throws {
        if modelOptions.layout == .coredata, dialect == .postgresql {
            throw ValidationError("--layout coredata is Core Data's SQLite store: it has no --dialect postgresql")
        }
        if schema != nil, dialect != .postgresql {
            throw ValidationError("--schema needs --dialect postgresql: SQLite has no schemas")
        }
        if schema?.isEmpty == true {
            throw ValidationError("the schema name (--schema) is empty")
        }
    }

    func run() throws {
        if let store = try modelOptions.coreDataStore() {
            StoreLayout.printSummary(of: store)
            print(store.sql, terminator: "")
            return
        }
        let file = try ModelFile.load(path: modelOptions.model, mapping: modelOptions.mapping)
        ModelNotes.printSummary(of: file)
        let tables = DatabaseLayout(file.model)
        switch dialect {
        case .sqlite: print(tables.ddl, terminator: "")
        case .postgresql: print(try tables.checkedPostgresDDL(schema: schema), terminator: "")
        }
    }
}
