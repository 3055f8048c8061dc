import ArgumentParser
import Sluice

@main
struct SluiceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sluice",
        abstract: "Stream JSON, CSV and GTFS feeds of any size into SQLite, PostgreSQL or a Core Data store, driven by a model.",
        discussion: """
        Inputs: JSON (an array, NDJSON, concatenated values), CSV or TSV, and zip archives of \
        them such as GTFS feeds, gzip-compressed or not, from files or standard input. \
        Databases: a SQLite file, a PostgreSQL URI (postgresql://user@host/db), or with \
        --layout coredata the SQLite store Core Data keeps for a Core Data model, which an app \
        opens as its own. Models: a JSON model file, a Core Data model (.xcdatamodeld, \
        .xcdatamodel, .momd), gtfs (the built-in GTFS model), or none for a zero-config import.

        Examples:
          sluice import --db out.sqlite data.ndjson
          sluice import --db out.sqlite stops.csv
          sluice import --db transit.sqlite --model gtfs feed.zip
          sluice import --db postgresql:///transit --model model.json stops.json
          sluice import --db App.sqlite --layout coredata --model App.xcdatamodeld \\
            --root items=Item items.json
          sluice infer data.ndjson > model.json
          sluice check --layout coredata --model App.xcdatamodeld
          # shell completion for bash, zsh or fish (docs/cli.md: where to put it)
          sluice --generate-completion-script bash
        """,
        version: SluiceVersion.current,
        subcommands: [ImportCommand.self, SchemaCommand.self, CheckCommand.self, InferCommand.self, ConvertModelCommand.self]
    )

    /// One place turns every failure into its line on stderr and its exit status (`docs/cli.md`).
    static func main() {
        // The user's locale for what the C library says (strerror). Numbers never go through
        // it: they are read from their exact text, so `LC_ALL=de_DE.UTF-8` changes no value
        // (NumberLocaleTests runs the import under a German locale to prove it).
        SystemCalls.useLocaleOfEnvironment()
        // The allocator and SQLite's global settings for one big import per process.
        ProcessTuning.applyForLargeImports()
        do {
            if let unknown = unknownCommand(in: CommandLine.arguments) { throw SluiceError(.usage, unknown) }
            if let repeated = RepeatedOptions.problem(in: CommandLine.arguments, commands: configuration.subcommands) {
                throw SluiceError(.usage, repeated)
            }
            var command = try parseAsRoot()
            try command.run()
        } catch let error as SluiceError {
            Diagnostics.fail(error)
        } catch let error as ModelError {
            Diagnostics.fail(error)
        } catch let code as ExitCode {
            Diagnostics.exit(code.rawValue)
        } catch {
            // swift-argument-parser's own: help and version go to stdout with status 0,
            // usage mistakes to stderr as one line with status 64 (EX_USAGE); `--help` has
            // the usage.
            let code = exitCode(for: error)
            if code == .success {
                print(fullMessage(for: error))
            } else {
                Diagnostics.printError(Diagnostics.oneLine(message(for: error)))
            }
            Diagnostics.exit(code.rawValue)
        }
    }

    /// `sluice imprt …`: the line for a first argument that names no command, with the nearest
    /// command (swift-argument-parser's own says only "Unexpected argument 'imprt'").
    static func unknownCommand(in arguments: [String]) -> String? {
        guard arguments.count > 1, let first = arguments.dropFirst().first, !first.hasPrefix("-") else { return nil }
        let commands = configuration.subcommands.map { $0._commandName } + ["help"]
        guard !commands.contains(first) else { return nil }
        let suggestion = NameSuggestion.nearest(to: first, among: commands).map { "; did you mean '\($0)'?" } ?? ""
        return "unknown command '\(first)'; the commands are: \(commands.joined(separator: ", "))\(suggestion)"
    }
}
