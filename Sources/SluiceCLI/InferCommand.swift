import ArgumentParser
import Sluice

/// `sluice infer`: prints a starter model for an input on stdout; notes on the choices that
/// were fallbacks go to stderr, so `sluice infer data.json > model.json` keeps them visible.
struct InferCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "infer",
        abstract: "Write a starter model derived from the first records of a JSON, CSV or TSV input.",
        discussion: """
        Reads the first records of FILE, JSON, CSV or TSV (or standard input; gzip is \
        inflated), and stops reading there. Prints a model on standard output: one entity \
        for the top-level records (or one per record array of an object such as \
        {"stops": [...], "trips": [...]}), attribute types from the values seen, an id-like \
        key as identity, nested objects with ids as related entities, and relationships by \
        id between entities. Notes on fallback choices go to standard error. Edit the model, \
        check it with `sluice check`, then import with it.

        Examples:
          sluice infer orders.ndjson > model.json
          sluice infer --format csv stops.txt > model.json
          curl -s https://example.org/items.json |
            sluice infer --entity Item --sample 200
        """
    )

    @Option(name: .long, help: "The entity of the top-level records (default: named after the file, or Record).")
    var entity: String?

    @Option(name: .long, help: ArgumentHelp("How many records to read.", valueName: "n"))
    var sample: Int = ModelInference.Options().sampleSize

    @Option(name: .long, help: ArgumentHelp("What the input is: json, csv or tsv (default: by the file's name, .csv or .tsv, else JSON).", valueName: "json|csv|tsv"))
    var format: InputFormat?

    @Argument(help: "The JSON, CSV or TSV file; - or none reads standard input.")
    var file: String = "-"

    func validate() throws {
        guard sample > 0 else { throw ValidationError("--sample must be at least 1") }
        guard entity != "" else { throw ValidationError("--entity must not be empty") }
    }

    func run() throws {
        Diagnostics.sayWhenReadingTheTerminal([file])
        var options = ModelInference.Options(entity: entity, sampleSize: sample)
        options.format = format
        let result = try ModelInference.infer(path: file, options: options)
        for note in result.notes { Diagnostics.writeLine("sluice: note: \(note)") }
        print(result.text, terminator: "")
    }
}
