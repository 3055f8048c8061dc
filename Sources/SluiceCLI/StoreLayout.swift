import ArgumentParser
import Sluice

/// `--layout`: the tables a command is about. Sluice's own (the default), or the SQLite store
/// Core Data keeps for a Core Data model (`docs/coredata-store.md`).
enum StoreLayout: String, ExpressibleByArgument, CaseIterable {
    case sluice, coredata

    static let help = ArgumentHelp(
        "The store's layout: sluice (default: Sluice's tables) or coredata (the SQLite store Core Data keeps for a Core Data model).",
        valueName: "layout")

    /// `import`'s: without it, the layout follows the store.
    static let importHelp = ArgumentHelp(
        "The store's layout: sluice (Sluice's tables) or coredata (the SQLite store Core Data keeps for a Core Data model); "
            + "default: coredata for an existing Core Data store, else sluice.",
        valueName: "layout")

    /// On stderr, when Core Data's store could not hold the model as Core Data would: how many
    /// problems, and the command that lists them.
    static func printSummary(of store: CoreDataStoreSchema) {
        let count = store.problems.count
        guard count > 0 else { return }
        Diagnostics.writeLine("sluice: note: \(store.modelPath): \(count) \(count == 1 ? "problem" : "problems") for Core Data's "
                                + "store; sluice check --layout coredata --model \(store.modelPath) lists them")
    }
}
