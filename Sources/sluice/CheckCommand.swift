import ArgumentParser
import Sluice

struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Validate a model; list every problem with its path."
    )

    @Option(name: .long, help: "The model file (JSON, comments allowed).")
    var model: String

    @Option(name: .long, help: "Check the model as if importing with --entity NAME.")
    var entity: String?

    @Option(name: .long, help: "Check the model as if importing with --path KEYPATH.")
    var path: String?

    func run() throws {
        let file = try ModelFile.load(path: model)
        try file.validateForImport(entity: entity, path: path)
        let count = file.model.entities.count
        print("\(model): ok, \(count) \(count == 1 ? "entity" : "entities")")
    }
}
