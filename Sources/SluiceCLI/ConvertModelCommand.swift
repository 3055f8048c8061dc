import ArgumentParser
import Sluice

/// `sluice convert-model`: a Core Data model as the Sluice model file that imports the same
/// database. The model goes to stdout and the notes to stderr, so `> model.json` keeps them
/// visible.
struct ConvertModelCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert-model",
        abstract: "Print the Sluice model (JSON) equivalent to a Core Data model, or a built-in model.",
        discussion: """
        Reads a Core Data model — a .xcdatamodeld bundle (its current version), a .xcdatamodel \
        folder, or its contents file — as MagicalRecord's import reads it (mappedKeyName, \
        relatedByAttribute, dateFormat, useDefaultValueWhenNotPresent) and prints the Sluice \
        model that imports the same database. What does not convert is printed as \
        "sluice: note:" lines on standard error, each with its place in the model.

        The name of a built-in model (gtfs: the GTFS Schedule reference) prints that model's \
        file, comments included, to extend and pass to --model as a file.

        Examples:
          sluice convert-model Model.xcdatamodeld > model.json
          sluice check --model model.json
          sluice convert-model gtfs > gtfs.json
        """
    )

    @Argument(help: "The Core Data model: a .xcdatamodeld, a .xcdatamodel, or its contents file; or gtfs, the built-in model.")
    var model: String

    func run() throws {
        if let builtIn = BuiltInModel(rawValue: model) {
            // The model file itself, comments and all: the place to start extending it.
            print(builtIn.text, terminator: "")
            return
        }
        guard ModelFile.isCoreDataModel(path: model) else {
            throw SluiceError(.usage, "'\(model)' is not a Core Data model (a .xcdatamodeld, a .xcdatamodel, or its contents file)")
        }
        let file = try ModelFile.load(path: model)
        try file.validateForCheck()
        ModelNotes.printAll(of: file)
        print(file.modelFileText, terminator: "")
    }
}
