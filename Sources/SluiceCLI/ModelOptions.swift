import ArgumentParser
import Sluice

/// `--model` and `--layout` as `check` and `schema` take them: the model the command reads (a
/// model file, a Core Data model or a built-in model's name), required, and the layout of the
/// store it is read for. (`import` declares its own: without `--model` it is zero-config.)
struct ModelOptions: ParsableArguments {
    @Option(name: .long, help: "The model: a JSON model file, a Core Data model (.xcdatamodeld, .xcdatamodel, contents), or gtfs (the built-in GTFS model).")
    var model: String

    @Option(name: .long, help: StoreLayout.help)
    var layout: StoreLayout = .sluice

    @Option(name: .long, help: ModelOptions.mappingHelp)
    var mapping: String?

    static let mappingHelp = ArgumentHelp("A JSON file of MagicalRecord userInfo keys (mappedKeyName, relatedByAttribute, dateFormat, ...) per entity and property, added to a Core Data model that has none (a store's own model, a compiled model).", valueName: "file")

    /// With `--layout coredata`, Core Data's store for the model (a model that is not a Core
    /// Data model is a usage error then); nil in Sluice's layout.
    func coreDataStore() throws -> CoreDataStoreSchema? {
        layout == .coredata ? try CoreDataStoreSchema.load(modelPath: model) : nil
    }
}
