import ArgumentParser
import Sluice

@main
struct SluiceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sluice",
        abstract: "Stream JSON of any size into SQLite, driven by a declarative model.",
        discussion: """
        Shell completion: sluice --generate-completion-script bash|zsh|fish (`docs/cli.md` says \
        where to put it).
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
