import ArgumentParser
import Sluice

struct SchemaCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schema",
        abstract: "Print the SQL that the model creates.",
        discussion: """
        The tables, columns, indexes and join tables an import with this model creates, and \
        the sluice_imports log, as CREATE ... IF NOT EXISTS statements.

        Examples:
          sluice schema --model model.json
          # an empty database with the model's tables
          sluice schema --model model.json | sqlite3 empty.sqlite
        """
    )

    @Option(name: .long, help: "The model: a JSON model file, or a Core Data model (.xcdatamodeld, .xcdatamodel, contents).")
    var model: String

    func run() throws {
        let file = try ModelFile.load(path: model)
        ModelNotes.printSummary(of: file)
        print(DatabaseLayout(file.model).ddl, terminator: "")
    }
}
