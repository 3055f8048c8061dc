import ArgumentParser
import Sluice

struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Validate a model (JSON, Core Data or gtfs); list every problem with its path.",
        discussion: """
        Prints "MODEL: ok, N entities" and exits 0 when the model is valid; otherwise prints \
        one "sluice: error:" line per problem, each with its path in the model \
        (entities.Stop.attributes.lat.type), and exits 64. A misspelt field or name gets a \
        suggestion. With --entity and --path, also checks where the records would be found. \
        With --layout coredata, also lists what Core Data's store for a Core Data model could \
        not hold as Core Data would (derived attributes, external binary storage, \
        many-to-manys, ...), one line naming each property. \
        A Core Data model's notes (what it holds that Sluice does not read) are printed as \
        "sluice: note:" lines; they do not fail the check.

        Examples:
          sluice check --model model.json
          sluice check --model model.json --entity Item --path data.items
          sluice check --model Model.xcdatamodeld
          # also what Core Data's own store could not hold as Core Data would
          sluice check --layout coredata --model Model.xcdatamodeld
        """
    )

    @OptionGroup var modelOptions: ModelOptions

    @Option(name: .long, help: "Check the model as if importing with --entity NAME.")
    var entity: String?

    @Option(name: .long, help: "Check the model as if importing with --path KEYPATH.")
    var path: String?

    @Option(name: .long, help: ArgumentHelp("Check the model as if importing with --map-key NAME.", valueName: "name"))
    var mapKey: String?

    func run() throws {
        let model = modelOptions.model
        // Core Data's store first: a model that is not a Core Data model is a usage error then.
        let store = try modelOptions.coreDataStore()
        let file = try ModelFile.load(path: model, mapping: modelOptions.mapping)
        try file.validateForCheck(entity: entity, path: path, mapKey: mapKey, optionNames: .commandLine)
        ModelNotes.printAll(of: file)
        if let store, !store.problems.isEmpty {
            throw ModelError(source: model, problems: store.problems)
        }
        let count = file.model.entities.count
        let notes = file.notes.isEmpty ? "" : ", \(ModelNotes.count(file))"
        print("\(model): ok, \(count) \(count == 1 ? "entity" : "entities")\(notes)\(store == nil ? "" : ", in Core Data's layout")")
    }
}
