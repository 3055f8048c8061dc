import ArgumentParser
import Sluice

@main
struct SluiceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sluice",
        abstract: "Stream JSON of any size into SQLite, driven by a declarative model.",
        version: "0.1.0"
    )
}
