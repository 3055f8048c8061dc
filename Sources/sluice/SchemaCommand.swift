import ArgumentParser
import Sluice

struct SchemaCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schema",
        abstract: "Print the SQL that the model creates."
    )

    @Option(name: .long, help: "The model file (JSON, comments allowed).")
    var model: String

    func run() throws {
        let file = try ModelFile.load(path: model)
        print(DatabaseLayout(file.model).ddl, terminator: "")
    }
}
